// The exporter against an independent producer: a store built from the
// reference corpus (../shared/corpus/good) must export back to the very same
// receipts, proofs and checkpoints, and every export must verify.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import Database from 'better-sqlite3';
import { CAPABILITY_LINEAGE_PROVENANCE_SQL, createChioStore } from '../../lib/sources/sqlite-store-writer';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../../lib/trust/trust-store';
import { LogVerifier } from '../../lib/verify/log-verifier';
import { verifyPaths } from '../../bin/cli/main';
import { openStore } from './store-handle';
import { INTERLEAVED_KEY, writeInterleavedStore } from '../../test/support/interleaved-store';
import { buildExportBundle, writeEvidencePackage } from './export';

const CORPUS = testdataPath('corpus/good');
const KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';
const lines = (file: string) => readFileSync(path.join(CORPUS, file), 'utf8').trim().split('\n');
const inner = (line: string) => line.slice(line.indexOf('"receipt":') + '"receipt":'.length, -1);

async function corpusStore(): Promise<string> {
  const SQL = await initSqlJs();
  const tools = lines('receipts.ndjson').map((line) => {
    const r = JSON.parse(line).receipt;
    return {
      rawJson: inner(line),
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
  const children = lines('child-receipts.ndjson').map((line) => {
    const c = JSON.parse(line).receipt;
    return {
      rawJson: inner(line),
      receiptId: c.id,
      timestamp: c.timestamp,
      sessionId: c.session_id,
      parentRequestId: c.parent_request_id,
      requestId: c.request_id,
      operationKind: c.operation_kind,
      terminalState: c.terminal_state.state,
      policyHash: c.policy_hash,
      outcomeHash: c.outcome_hash,
    };
  });
  const checkpoints = lines('checkpoints.ndjson').map((line) => {
    const c = JSON.parse(line);
    return {
      checkpointSeq: c.body.checkpoint_seq,
      batchStartSeq: c.body.batch_start_seq,
      batchEndSeq: c.body.batch_end_seq,
      treeSize: c.body.tree_size,
      merkleRoot: c.body.merkle_root.slice(2),
      issuedAt: c.body.issued_at,
      kernelKey: c.body.kernel_key,
      signature: c.signature,
      statementJson: line.slice('{"body":'.length, line.lastIndexOf(',"signature"')),
    };
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ra-export-')), 'kernel.sqlite3');
  writeFileSync(file, createChioStore(SQL, { toolReceipts: tools, childReceipts: children, checkpoints }));
  return file;
}

describe('evidence export from a Chio store', () => {
  it('a store built from the corpus exports back to the same receipts, children, checkpoints and proofs, byte for byte', async () => {
    const file = await corpusStore();
    const db = openStore(file);
    const out = path.join(path.dirname(file), 'package');
    const counts = await writeEvidencePackage(db, file, out, {}, 1767999999);
    expect(counts).toEqual({ toolReceipts: 250, childReceipts: 30, checkpoints: 2, capabilityLineage: 0, inclusionProofs: 200, uncheckpointedReceipts: 50 });
    for (const f of ['receipts.ndjson', 'child-receipts.ndjson', 'checkpoints.ndjson', 'inclusion-proofs.ndjson']) {
      expect(readFileSync(path.join(out, f), 'utf8'), f).toBe(readFileSync(path.join(CORPUS, f), 'utf8'));
    }
    const report = await verifyPaths([out], trust());
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.packages[0]!.checks.manifest).toBe('pass');
    expect(report.summary).toMatchObject({ receipts: 280, verified: 280, checkpoints: 2 });
  });

  it('a scoped export leaves children out (no join path) and still verifies', async () => {
    const file = await corpusStore();
    const db = openStore(file);
    const out = path.join(path.dirname(file), 'scoped');
    const counts = await writeEvidencePackage(db, file, out, { capabilityId: 'cap-billing-1' }, 1767999999);
    expect(counts.childReceipts).toBe(0);
    expect(counts.toolReceipts).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')).childReceiptScope).toBe('omitted_no_join_path');
    const report = await verifyPaths([out], trust());
    expect(report.ok).toBe(true);
    expect(report.summary.verified).toBe(counts.toolReceipts);
  });

  it("a capability-scoped export with a window carries the window's children as context, and states its read boundary", async () => {
    const file = await corpusStore();
    const db = openStore(file);
    const out = path.join(path.dirname(file), 'windowed');
    const counts = await writeEvidencePackage(db, file, out, { capabilityId: 'cap-billing-1', until: 1767231000 }, 1767999999);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.childReceiptScope).toBe('time_window_context_only');
    expect(manifest.query).toEqual({ capabilityId: 'cap-billing-1', until: 1767231000, readBoundary: { kind: 'admin_all' } });
    expect(JSON.parse(readFileSync(path.join(out, 'query.json'), 'utf8'))).toEqual(manifest.query);
    expect(counts.childReceipts).toBeGreaterThan(0);
    const report = await verifyPaths([out], trust());
    expect(report.packages[0]!.checks).toEqual({ manifest: 'pass', read_boundary: 'pass', scope: 'pass', transparency: 'pass' });
    expect(report.problems).toEqual([]);
  });

  it('the POST bundle is one JSON document that the verifier reads whole', async () => {
    const file = await corpusStore();
    const db = openStore(file);
    // A window that starts at the log's beginning (a later `since` would open budgets mid-way).
    const built = await buildExportBundle(db, file, { until: 1767231000 });
    if (!built.ok) throw new Error('the bundle is over its cap');
    const text = built.body;
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed.bundle)).toEqual(
      expect.arrayContaining([
        'query',
        'toolReceipts',
        'childReceipts',
        'childReceiptScope',
        'checkpoints',
        'inclusionProofs',
        'uncheckpointedReceipts',
        'retention',
        'capabilityLineage',
      ]),
    );
    expect(parsed.transparency.publications.length).toBe(parsed.bundle.checkpoints.length);
    const v = new LogVerifier({ trust: trust() });
    await v.addRecord(text, { file: 'export.json', line: 1, role: 'auto', space: 'bundle' });
    const report = await v.finish();
    expect(report.problems).toEqual([]);
    expect(report.summary.receipts).toBe(parsed.bundle.toolReceipts.length + parsed.bundle.childReceipts.length);
    expect(report.summary.verified).toBe(report.summary.receipts);
  });
});

describe('capability lineage in an export (format v2 §16.9)', () => {
  const row = (id: string, provenance: string | null, token: string | null = null) => ({
    capability_id: id,
    subject_key: KEY,
    issuer_key: KEY,
    issued_at: 10,
    expires_at: 20,
    grants_json: '{"grants":[]}',
    delegation_depth: 0,
    parent_capability_id: null,
    provenance,
    token,
  });
  function withLineage(file: string, rows: ReturnType<typeof row>[], newer: boolean): void {
    const db = new Database(file);
    try {
      if (newer) db.exec(CAPABILITY_LINEAGE_PROVENANCE_SQL);
      for (const r of rows) {
        const cols = ['capability_id', 'subject_key', 'issuer_key', 'issued_at', 'expires_at', 'grants_json', 'delegation_depth', 'parent_capability_id'];
        const values: unknown[] = cols.map((c) => r[c as keyof typeof r]);
        if (newer) {
          cols.push('provenance', 'signed_capability_json');
          values.push(r.provenance ?? 'legacy_projection', r.token);
        }
        db.prepare(`INSERT INTO capability_lineage (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
      }
    } finally {
      db.close();
    }
  }
  const anchorId = `fed-del-${'1'.repeat(64)}`;

  it('an older store: its rows are legacy projections, allowed only locally, so none is exported', async () => {
    const file = await corpusStore();
    withLineage(file, [row('cap-billing-1', null)], false);
    const out = path.join(path.dirname(file), 'package');
    expect((await writeEvidencePackage(openStore(file), file, out, {}, 1767999999)).capabilityLineage).toBe(0);
    expect(readFileSync(path.join(out, 'capability-lineage.ndjson'), 'utf8')).toBe('');
  });

  it('a newer store: anchors and signed rows are exported with their provenance and token, legacy rows are not', async () => {
    const file = await corpusStore();
    withLineage(
      file,
      [row('cap-billing-1', 'legacy_projection'), row(anchorId, 'synthetic_anchor'), row('cap-billing-2', 'signed_token', '{"id": "cut')],
      true,
    );
    // Lineage follows the exported receipts' capabilities (the anchor is no receipt's): the
    // signed row of cap-billing-2 alone, its unreadable token exported as null.
    const out = path.join(path.dirname(file), 'package');
    expect((await writeEvidencePackage(openStore(file), file, out, {}, 1767999999)).capabilityLineage).toBe(1);
    const lines = readFileSync(path.join(out, 'capability-lineage.ndjson'), 'utf8').trim().split('\n');
    expect(lines).toEqual([
      `{"capability_id":"cap-billing-2","subject_key":"${KEY}","issuer_key":"${KEY}","issued_at":10,"expires_at":20,"grants_json":"{\\"grants\\":[]}","delegation_depth":0,"parent_capability_id":null,"provenance":"signed_token","signed_capability":null}`,
    ]);
    const report = await verifyPaths([out], trust());
    expect(report.lineage!.map((l) => [l.capability_id, l.problems])).toEqual([['cap-billing-2', ['lineage_signature_invalid']]]);
    // The package carries lineage, so the other capabilities' receipts say theirs is missing, and
    // cap-billing-2's receipts name other subjects than this made-up row.
    expect([...new Set(report.problems.map((p) => p.code))].sort()).toEqual(['attribution_mismatch', 'lineage_missing', 'lineage_signature_invalid']);
    expect(report.receipts.every((r) => r.verdict === 'verified')).toBe(true);
  });
});

describe('a store whose checkpoint covers its claim log (children interleaved)', () => {
  // Claim log (by time): T1 C1 T2 T3 C2 T4 T5 C3 T6; checkpoint 1 covers entries 1–6 in that order.
  const key = INTERLEAVED_KEY;
  const interleaved = () => writeInterleavedStore('claim-log');
  const pinned = () => {
    const t = TrustStore.create([{ key: key.publicHex }]);
    if (!t.ok) throw new Error(t.error);
    return t.store;
  };

  it('numbers tool receipts by entry_seq, the positions the checkpoint covers, with proofs, and verifies', async () => {
    const file = await interleaved();
    const out = path.join(path.dirname(file), 'package');
    const counts = await writeEvidencePackage(openStore(file), file, out, {}, 1767999999);
    expect(counts).toMatchObject({ toolReceipts: 6, childReceipts: 3, checkpoints: 1, inclusionProofs: 4, uncheckpointedReceipts: 2 });
    const seqs = readFileSync(path.join(out, 'receipts.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).seq);
    expect(seqs).toEqual([1, 3, 4, 6, 7, 9]);
    expect(readFileSync(path.join(out, 'README.txt'), 'utf8')).toContain("numbered here by the claim log's entry_seq");
    const report = await verifyPaths([out], pinned());
    expect(report.problems).toEqual([]);
    expect(report.receipts.filter((r) => r.type === 'tool').map((r) => r.checks.inclusion)).toEqual(['pass', 'pass', 'pass', 'pass', 'skipped', 'skipped']);
  });

  it('with a checkpointed receipt deleted, neither order reproduces the root: tool seq, the checkpoint still exported, inclusion fails', async () => {
    const file = await interleaved();
    const db = new Database(file);
    db.prepare('DELETE FROM chio_tool_receipts WHERE seq = 2').run();
    db.close();
    const out = path.join(path.dirname(file), 'package');
    const counts = await writeEvidencePackage(openStore(file), file, out, {}, 1767999999);
    expect(counts).toMatchObject({ toolReceipts: 5, checkpoints: 1, inclusionProofs: 0 });
    const report = await verifyPaths([out], pinned());
    expect(report.ok).toBe(false);
    expect(report.receipts.filter((r) => r.type === 'tool').map((r) => r.checks.inclusion)).toEqual(['fail', 'fail', 'fail', 'fail', 'fail']);
  });
});

function trust() {
  const t = TrustStore.create([{ key: KEY }]);
  if (!t.ok) throw new Error(t.error);
  return t.store;
}
