// Whole real logs through the same loading path the command line uses: the
// showcase evidence package, store rows and SQLite stores made by released
// Chio binaries, the derived two-checkpoint package, and SQLite stores built
// here with the real Chio schema.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { TrustStore } from '../../lib/trust/trust-store';
import type { VerificationReport } from '../../lib/verdict/report';
import { createChioStore, type ToolReceiptInput } from '../../lib/sources/sqlite-store-writer';
import { testdataPath, readTestdataJson } from '../../test/support/testdata';
import { verifyPaths } from './main';
import { INTERLEAVED_KEY, writeInterleavedStore } from '../../test/support/interleaved-store';
import { parseJson } from '../../lib/json/parse';
import { canonicalBytes } from '../../lib/json/canonicalize';
import { isJsonObject, type JsonObject } from '../../lib/json/value';
import { decodeToolReceipt } from '../../lib/chio/tool-receipt';
import { leafHash, rootFromLeafHashes } from '../../lib/merkle';
import { toHex } from '../../lib/bytes/hex';

const CHIO = 'chio';
const trustOf = (...keys: string[]) => {
  const t = TrustStore.create(keys.map((key) => ({ key })));
  if (!t.ok) throw new Error(t.error);
  return t.store;
};

/**
 * Verifies `paths` with the keys that signed them pinned, as an auditor who was given the kernels'
 * keys would (a receipt is verified only under a pinned key, part 2 §11). The first pass, with
 * nothing pinned, must find every receipt intact and raise signer_not_pinned.
 */
async function verifyPinned(paths: string[]): Promise<VerificationReport> {
  const unpinned = await verifyPaths(paths, TrustStore.empty());
  expect(unpinned.receipts.filter((r) => r.verdict === 'verified')).toEqual([]);
  if (unpinned.receipts.length > 0) expect(unpinned.problems.map((p) => p.code)).toContain('signer_not_pinned');
  return verifyPaths(paths, trustOf(...unpinned.keys.map((k) => k.key)));
}

function verdicts(report: VerificationReport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of report.receipts) out[r.verdict] = (out[r.verdict] ?? 0) + 1;
  return out;
}

function failedChecks(report: VerificationReport): string[] {
  return report.receipts.flatMap((r) =>
    Object.entries(r.checks)
      .filter(([, s]) => s === 'fail')
      .map(([c]) => `${r.id}: ${c} ${r.details?.[c] ?? ''}`),
  );
}

describe('the real showcase data (released Chio binaries)', () => {
  // Both packages predate signed lineage (format §16.9): their lineage rows carry no provenance,
  // which the contract reads as legacy_projection and refuses in an exported package
  // (lineage_downgraded, part 2 §5.3.1). Their receipts are untouched by it.
  it('the federation evidence package: manifest and 5 of 5 receipts verify; its unsigned lineage row is a downgrade', async () => {
    const report = await verifyPinned([testdataPath(`${CHIO}/showcase/app/tests/fixtures/good-bundle/federation/evidence-export-package`)]);
    expect(report.packages.map((p) => p.checks.manifest)).toEqual(['pass']);
    expect(failedChecks(report)).toEqual([]);
    expect(verdicts(report)).toEqual({ verified: 5 });
    expect(report.receipts.every((r) => r.checks.signer_trusted === 'pass')).toBe(true);
    expect(report.lineage!.map((l) => [l.capability_id, l.provenance, l.problems])).toEqual([
      ['cap-ioa-web3-provider', 'legacy_projection', ['lineage_downgraded']],
    ]);
    // Each receipt's signed attribution names the kernel (7f0f…) as issuer; the row of this delegated
    // (depth 1) capability names its delegator (a090…). A warning, as the contract asks; whether
    // attribution.issuer_key means the root issuer for delegated capabilities is not confirmed.
    // (And its query has no readBoundary: it predates that field too.)
    expect(report.problems.map((p) => [p.code, p.severity])).toEqual([
      ['lineage_downgraded', 'error'],
      ['read_boundary_missing', 'warning'],
      ...Array(5).fill(['attribution_mismatch', 'warning']),
    ]);
    expect(report.ok).toBe(false);
  });

  it('the minimal evidence package of hello-receipt-verify: 1 of 1; its unsigned lineage row is a downgrade', async () => {
    const report = await verifyPinned([testdataPath(`${CHIO}/gen-a-upstream/examples/hello-receipt-verify/fixtures/minimal-evidence`)]);
    expect(report.packages.map((p) => p.checks.manifest)).toEqual(['pass']);
    expect(verdicts(report)).toEqual({ verified: 1 });
    expect(report.lineage!.map((l) => l.problems)).toEqual([['lineage_downgraded']]);
    expect(report.problems.map((p) => p.code)).toEqual(['lineage_downgraded', 'read_boundary_missing']);
    expect(report.ok).toBe(false);
  });

  it('the 16 store rows (10 tool receipts, 6 HTTP receipts) as NDJSON files, one log', async () => {
    const dir = `${CHIO}/showcase/derived-from-sqlite`;
    const files = [
      'provider-receipts.chio_tool_receipts.ndjson',
      'federation-receipts.chio_tool_receipts.ndjson',
      'subcontractor-receipts.chio_tool_receipts.ndjson',
      'market-sidecar-receipts.http_receipts.ndjson',
      'settlement-sidecar-receipts.http_receipts.ndjson',
    ].map((f) => testdataPath(`${dir}/${f}`));
    const report = await verifyPinned(files);
    expect(failedChecks(report)).toEqual([]);
    expect(report.receipts.filter((r) => r.type === 'tool').length).toBe(10);
    expect(report.receipts.filter((r) => r.type === 'http').length).toBe(6);
    expect(`${verdicts(report).verified} of ${report.receipts.length}`).toBe('16 of 16');
    expect(report.receipts.filter((r) => r.type === 'tool').every((r) => r.checks.parameter_hash === 'pass')).toBe(true);
  });

  it.each([
    ['provider-receipts.sqlite3', 8, 0],
    ['federation-receipts.sqlite3', 1, 0],
    ['operator-receipts.sqlite3', 0, 0],
    ['settlement-sidecar-receipts.sqlite3', 0, 1],
  ])('the SQLite store %s: %i tool and %i HTTP receipts verify', async (file, tools, https) => {
    const report = await verifyPinned([testdataPath(`${CHIO}/showcase/sqlite/${file}`)]);
    expect(failedChecks(report)).toEqual([]);
    expect(report.receipts.filter((r) => r.type === 'tool').length).toBe(tools);
    expect(report.receipts.filter((r) => r.type === 'http').length).toBe(https);
    expect(verdicts(report).verified ?? 0).toBe(tools + https);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('the derived two-checkpoint package (derived-checkpoints/checkpoint-batch-v1)', () => {
  const dir = testdataPath(`${CHIO}/derived-checkpoints/checkpoint-batch-v1`);
  const leaves = readTestdataJson<{ kernel_key: string; leaves: { receipt_id: string; leaf_hash: string }[] }>(
    `${CHIO}/derived-checkpoints/checkpoint-batch-v1/leaves.json`,
  );
  // The receipts come from two real kernels; the checkpoints were signed with a test key.
  const receiptKeys = [
    ...new Set(
      readFileSync(path.join(dir, 'receipts.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).receipt.kernel_key as string),
    ),
  ];

  // Contract part 2 §5.2: a checkpoint vouches only for receipts its own key signed. These receipts
  // come from two real kernels and the checkpoints from a test key, so each proof's path reaches the
  // signed root (next test) and still the receipt is not included; everything else reproduces.
  it('every proof reaches its root, but no receipt is included: its signer is not the checkpoint signer; chain and transparency records reproduce', async () => {
    const report = await verifyPaths([dir], trustOf(leaves.kernel_key, ...receiptKeys));
    expect(
      report.receipts.map((r) =>
        Object.entries(r.checks)
          .filter(([, st]) => st === 'fail')
          .map(([c]) => c),
      ),
    ).toEqual(report.receipts.map(() => ['inclusion']));
    expect(report.receipts.every((r) => r.details?.inclusion?.includes('receipt signer differs from checkpoint signer'))).toBe(true);
    expect(new Set(report.problems.map((p) => p.code))).toEqual(new Set(['inclusion_failed']));
    expect(report.checkpoints.map((c) => [c.checkpoint_seq, c.verdict, c.checks.continuity])).toEqual([
      [1n, 'verified', 'pass'],
      [2n, 'verified', 'pass'],
    ]);
    expect(report.packages.map((p) => p.checks.transparency)).toEqual(['pass']);
    expect(report.ok).toBe(false);
  });

  it('our leaf hashes and roots reproduce leaves.json and both checkpoint roots', () => {
    const lines = readFileSync(path.join(dir, 'receipts.ndjson'), 'utf8').trim().split('\n');
    const ours = lines.map((line) => {
      const parsed = parseJson(line);
      if (!parsed.ok || !isJsonObject(parsed.value)) throw new Error('bad line');
      const d = decodeToolReceipt(parsed.value.get('receipt') as JsonObject);
      if (!d.ok) throw new Error('decode');
      return leafHash(canonicalBytes(d.value.fullTyped));
    });
    expect(ours.map(toHex)).toEqual(leaves.leaves.map((l) => l.leaf_hash));
    const roots = readFileSync(path.join(dir, 'checkpoints.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).body.merkle_root);
    expect(['0x' + toHex(rootFromLeafHashes(ours.slice(0, 5))!), '0x' + toHex(rootFromLeafHashes(ours.slice(5))!)]).toEqual(roots);
  });

  it('pinning only the checkpoint key makes the receipts fail signer_trusted (and only that)', async () => {
    const report = await verifyPaths([dir], trustOf(leaves.kernel_key));
    expect(verdicts(report)).toEqual({ failed: 8 });
    expect(new Set(report.problems.map((p) => p.code))).toEqual(new Set(['untrusted_signer', 'inclusion_failed']));
    expect(report.checkpoints.every((c) => c.verdict === 'verified')).toBe(true);
  });
});

describe('SQLite stores built with the real Chio schema', () => {
  const corpus = testdataPath('corpus/good');

  async function storeFromCorpus(mutate?: (rows: ToolReceiptInput[]) => void): Promise<string> {
    const SQL = await initSqlJs();
    const lines = readFileSync(path.join(corpus, 'receipts.ndjson'), 'utf8').trim().split('\n');
    const rows: ToolReceiptInput[] = lines.map((line) => {
      const r = JSON.parse(line).receipt;
      return {
        rawJson: line.slice(line.indexOf('"receipt":') + '"receipt":'.length, -1),
        receiptId: r.id,
        timestamp: r.timestamp,
        capabilityId: r.capability_id,
        toolServer: r.tool_server,
        toolName: r.tool_name,
        decisionKind: r.decision?.verdict ?? 'none',
        policyHash: r.policy_hash,
        contentHash: r.content_hash,
      };
    });
    mutate?.(rows);
    const checkpoints = readFileSync(path.join(corpus, 'checkpoints.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const c = JSON.parse(line);
        const body = line.slice(line.indexOf('"body":') + '"body":'.length, line.lastIndexOf(',"signature"'));
        return {
          checkpointSeq: c.body.checkpoint_seq,
          batchStartSeq: c.body.batch_start_seq,
          batchEndSeq: c.body.batch_end_seq,
          treeSize: c.body.tree_size,
          merkleRoot: c.body.merkle_root.slice(2),
          issuedAt: c.body.issued_at,
          statementJson: body,
          signature: c.signature,
          kernelKey: c.body.kernel_key,
        };
      });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ra-store-')), 'kernel-receipts.sqlite3');
    writeFileSync(file, createChioStore(SQL, { toolReceipts: rows, checkpoints }));
    return file;
  }

  it('250 receipts under 2 checkpoints: batch roots recomputed from the stored rows verify (no proofs in a store)', async () => {
    const report = await verifyPaths([await storeFromCorpus()], trustOf('d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737'));
    expect(failedChecks(report)).toEqual([]);
    expect(verdicts(report)).toEqual({ verified: 250 });
    const inclusion = report.receipts.map((r) => r.details?.inclusion ?? '');
    expect(inclusion.filter((d) => d.startsWith('batch root recomputed')).length).toBe(200);
    expect(inclusion.filter((d) => d === 'uncheckpointed').length).toBe(50);
    expect(report.ok).toBe(true);
  });

  it('one changed row fails its signature, and every receipt of its batch fails inclusion (no proofs to tell them apart)', async () => {
    const file = await storeFromCorpus((rows) => {
      rows[41]!.rawJson = rows[41]!.rawJson.replace('"tool_name":"', '"tool_name":"x');
    });
    const report = await verifyPaths([file], trustOf('d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737'));
    const byId = new Map(report.receipts.map((r) => [r.id, r]));
    expect(byId.get('rcpt-000042-2b8d09ef')?.checks.signature).toBe('fail');
    expect(report.receipts.slice(0, 100).every((r) => r.verdict === 'failed' && r.checks.inclusion === 'fail')).toBe(true);
    expect(report.receipts.slice(100, 200).every((r) => r.verdict === 'verified')).toBe(true);
    expect(report.checkpoints.every((c) => c.verdict === 'verified')).toBe(true);
    expect(report.ok).toBe(false);
  });

  it.each([
    ['tool-seq', 'checkpoints cover tool receipts by chio_tool_receipts.seq'],
    ['claim-log', 'checkpoints cover the claim log'],
  ] as const)('children interleaved in the claim log: a checkpoint over the %s order is recognized by its root', async (order, note) => {
    const file = await writeInterleavedStore(order);
    const key = INTERLEAVED_KEY;
    const report = await verifyPaths([file], trustOf(key.publicHex));
    expect(failedChecks(report)).toEqual([]);
    expect(report.ok).toBe(true);
    const covered = report.receipts.filter((r) => r.checks.inclusion === 'pass');
    expect(covered.length).toBe(order === 'tool-seq' ? 4 : 6);
    expect(covered.every((r) => r.details?.inclusion?.includes(note))).toBe(true);
    const childInclusion = report.receipts.filter((r) => r.type === 'child').map((r) => r.checks.inclusion);
    expect(childInclusion).toEqual(order === 'tool-seq' ? ['skipped', 'skipped', 'skipped'] : ['pass', 'pass', 'skipped']);
  });
});
