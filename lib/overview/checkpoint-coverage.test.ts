// The timeline's model on reports the verifier produced: the reference corpus
// (independent producer), SQLite stores built from it with the real Chio
// schema, and small signed logs with gaps, overlaps and equivocation.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { verifyPaths } from '../../bin/cli/main';
import { canonicalBytes } from '../json/canonicalize';
import { createChioStore } from '../sources/sqlite-store-writer';
import { type Plain, checkpoint, genAReceipt, keyFromSeed, leafOf, ndjson, proof, signHex, tree, writePackage } from '../../test/support/forge';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import type { VerificationReport } from '../verdict/report';
import { buildCoverage, mergeRuns } from './checkpoint-coverage';
import { describeLane, describeRun, describeTail } from './timeline-labels';

const CORPUS_KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

function trustOf(...keys: string[]): TrustStore {
  const t = TrustStore.create(keys.map((key) => ({ key })));
  if (!t.ok) throw new Error(t.error);
  return t.store;
}

const corpus = (name: string) => verifyPaths([testdataPath(`corpus/${name}`)], trustOf(CORPUS_KEY));

/** A Chio kernel store holding a corpus case's tool receipts and checkpoints (as real-logs.test.ts builds them). */
async function storeFromCorpus(name: string, dir: string, fileName: string): Promise<string> {
  const SQL = await initSqlJs();
  const folder = testdataPath(`corpus/${name}`);
  const toolReceipts = readFileSync(path.join(folder, 'receipts.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
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
  const checkpoints = readFileSync(path.join(folder, 'checkpoints.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
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
        statementJson: line.slice(line.indexOf('"body":') + '"body":'.length, line.lastIndexOf(',"signature"')),
      };
    });
  const file = path.join(dir, fileName);
  writeFileSync(file, createChioStore(SQL, { toolReceipts, checkpoints }));
  return file;
}

const key = keyFromSeed(11);

/**
 * A signed package of `receipts` tool receipts and the given checkpoints, each
 * over its own batch with a proof per receipt; `badSignature` flips a bit of that
 * checkpoint's signature, `issuedAt` makes a second, different body.
 */
function signedLog(receipts: number, cps: { seq: number; start: number; end: number; badSignature?: boolean; issuedAt?: number }[]): string {
  const rs = Array.from({ length: receipts }, (_, i) => genAReceipt({ seq: i + 1, key }));
  const lines: Plain[] = [];
  const proofs: Plain[] = [];
  // Each names the first body given for the seq before it (contract part 2: a later checkpoint must).
  const bodies = new Map<number, Plain>();
  for (const c of cps) {
    const leaves = rs.slice(c.start - 1, c.end).map(leafOf);
    const previous = bodies.get(c.seq - 1);
    const made = checkpoint({ seq: c.seq, start: c.start, leaves, key, ...(previous ? { previous } : {}) });
    let body = made.body;
    let signature = made.signature;
    if (c.issuedAt !== undefined) {
      body = { ...body, issued_at: c.issuedAt };
      signature = signHex(key.secret, canonicalBytes(tree(body)));
    }
    if (c.badSignature) signature = (signature[0] === '0' ? '1' : '0') + signature.slice(1);
    if (!bodies.has(c.seq)) bodies.set(c.seq, body);
    lines.push({ body, signature });
    leaves.forEach((_, i) => proofs.push(proof({ body }, c.start + i, leaves, i)));
  }
  return writePackage({
    'receipts.ndjson': ndjson(rs.map((r, i) => ({ seq: i + 1, receipt: r }))),
    'checkpoints.ndjson': ndjson(lines),
    'inclusion-proofs.ndjson': ndjson(proofs),
  });
}

const runsOf = (r: VerificationReport) =>
  buildCoverage(r).lanes.map((l) => l.runs.map((run) => `${run.verdict} ${run.start}-${run.end} x${run.checkpoints.length}`));

describe('checkpoint coverage on the reference corpus', () => {
  it('good: both checkpoints verified merge into one run over seq 1–200; the tail is 50 tool and 30 child receipts', async () => {
    const c = buildCoverage(await corpus('good'));
    expect(c.lanes.map((l) => l.key)).toEqual(['checkpoints.ndjson']);
    const lane = c.lanes[0]!;
    expect(lane.runs.map((r) => [r.verdict, r.start, r.end, r.checkpoints.length, r.id])).toEqual([
      ['verified', 1n, 200n, 2, 'checkpoint-checkpoints.ndjson-1'],
    ]);
    expect(lane.gaps).toEqual([]);
    expect(lane.overlaps).toEqual([]);
    expect(lane.covered).toEqual({ start: 1n, end: 200n });
    expect(lane.tail).toEqual({
      count: 80,
      parts: [
        { type: 'tool', count: 50, minSeq: 201n, maxSeq: 250n },
        { type: 'child', count: 30, minSeq: 1n, maxSeq: 30n },
      ],
    });
    expect(c.axis).toEqual({ start: 1n, end: 280n });
    expect([c.checkpoints, c.failed, c.tail]).toEqual([2, 0, 80]);
    expect(describeRun(lane.runs[0]!)).toBe('2 checkpoints (1 to 2), seq 1–200: all verified');
    expect(describeTail(lane)).toBe('Uncheckpointed tail: 80 receipts no checkpoint covers yet: 50 tool (seq 201–250), 30 child (seq 1–30)');
    expect(describeLane(lane)).toBe('2 checkpoints, all verified; covering seq 1–200; no gaps; no overlaps; 80 receipts not yet checkpointed');
  });

  it('bad-checkpoint-signature: checkpoint 2 is a failed run of its own, and its problem links to it', async () => {
    const report = await corpus('bad-checkpoint-signature');
    const c = buildCoverage(report);
    const lane = c.lanes[0]!;
    expect(lane.runs.map((r) => [r.verdict, r.start, r.end, r.id])).toEqual([
      ['verified', 1n, 100n, 'checkpoint-checkpoints.ndjson-1'],
      ['failed', 101n, 200n, 'checkpoint-checkpoints.ndjson-2'],
    ]);
    expect(describeRun(lane.runs[1]!)).toBe(
      'Checkpoint 2 (v1), seq 101–200: failed: signature fail (checkpoint 2: the signature is rejected by the strict Ed25519 rules: R is not a canonical Ed25519 point encoding) (checkpoints.ndjson:2)',
    );
    // Receipts under the failed checkpoint are not the tail: only the 50 after it and the 30 children.
    expect(lane.tail.count).toBe(80);
    const problem = report.problems.find((p) => p.code === 'checkpoint_signature_invalid')!;
    expect(c.anchorFor(problem)).toBe('checkpoint-checkpoints.ndjson-2');
    expect(c.failed).toBe(1);
  });

  it('duplicate-key: the verified checkpoint a missing_receipt problem names (through the proofs file) stands apart', async () => {
    const report = await corpus('duplicate-key');
    const problem = report.problems.find((p) => p.code === 'missing_receipt')!;
    expect(problem.file).toBe('inclusion-proofs.ndjson');
    const c = buildCoverage(report);
    expect(runsOf(report)).toEqual([['verified 1-100 x1', 'verified 101-200 x1']]);
    expect(c.anchorFor(problem)).toBe('checkpoint-checkpoints.ndjson-1');
    // A receipt's problem names no checkpoint.
    expect(c.anchorFor(report.problems.find((p) => p.code === 'duplicate_key')!)).toBeUndefined();
  });
});

describe('several sources: one lane per checkpoint file', () => {
  it('a package, two stores and a store without checkpoints', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-lanes-'));
    const a = await storeFromCorpus('good', dir, 'a.sqlite3');
    const b = await storeFromCorpus('bad-checkpoint-signature', dir, 'b.sqlite3');
    const report = await verifyPaths([testdataPath('corpus/good'), a, b, testdataPath('chio/showcase/sqlite/provider-receipts.sqlite3')], trustOf(CORPUS_KEY));
    const c = buildCoverage(report);
    expect(c.lanes.map((l) => [l.key, l.label, l.checkpoints, l.failed, l.tail.count])).toEqual([
      ['checkpoints.ndjson', 'checkpoints.ndjson', 2, 0, 80],
      ['a.sqlite3#kernel_checkpoints', 'a.sqlite3#kernel_checkpoints', 2, 0, 50],
      ['b.sqlite3#kernel_checkpoints', 'b.sqlite3#kernel_checkpoints', 2, 1, 50],
      ['receipts:provider-receipts.sqlite3', 'provider-receipts.sqlite3#chio_tool_receipts', 0, 0, 8],
    ]);
    expect(c.lanes[2]!.runs.map((r) => [r.verdict, r.id])).toEqual([
      ['verified', 'checkpoint-b.sqlite3_kernel_checkpoints-1'],
      ['failed', 'checkpoint-b.sqlite3_kernel_checkpoints-2'],
    ]);
    const problem = report.problems.find((p) => p.code === 'checkpoint_signature_invalid')!;
    expect(problem.file).toBe('b.sqlite3#kernel_checkpoints');
    expect(c.anchorFor(problem)).toBe('checkpoint-b.sqlite3_kernel_checkpoints-2');
    expect(describeLane(c.lanes[3]!)).toBe('no checkpoints; 8 receipts not yet checkpointed');
    expect(c.axis).toEqual({ start: 1n, end: 280n });
  });
});

describe('gaps, overlaps and equivocation in signed logs', () => {
  it('a missing batch is a gap; its successor fails continuity', async () => {
    const report = await verifyPaths(
      [
        signedLog(40, [
          { seq: 1, start: 1, end: 10 },
          { seq: 2, start: 11, end: 20 },
          { seq: 3, start: 31, end: 40 },
        ]),
      ],
      trustOf(key.publicHex),
    );
    const lane = buildCoverage(report).lanes[0]!;
    expect(lane.gaps).toEqual([{ start: 21n, end: 30n }]);
    expect(lane.overlaps).toEqual([]);
    expect(runsOf(report)).toEqual([['verified 1-20 x2', 'failed 31-40 x1']]);
    expect(lane.tail.count).toBe(0); // receipts 21–30 are in the gap, not the tail
  });

  it('a batch that starts inside its predecessor is an overlap', async () => {
    const report = await verifyPaths(
      [
        signedLog(30, [
          { seq: 1, start: 1, end: 10 },
          { seq: 2, start: 8, end: 20 },
        ]),
      ],
      trustOf(key.publicHex),
    );
    const lane = buildCoverage(report).lanes[0]!;
    expect(lane.overlaps).toEqual([{ start: 8n, end: 10n, seqs: [1n, 2n] }]);
    expect(lane.gaps).toEqual([]);
    expect(runsOf(report)).toEqual([['verified 1-10 x1', 'failed 8-20 x1']]);
    expect(lane.tail.count).toBe(10);
  });

  it('two signed bodies for checkpoint 2 both fail, overlap entirely, and get distinct anchors', async () => {
    const report = await verifyPaths(
      [
        signedLog(20, [
          { seq: 1, start: 1, end: 10 },
          { seq: 2, start: 11, end: 20 },
          { seq: 2, start: 11, end: 20, issuedAt: 1767239999 },
        ]),
      ],
      trustOf(key.publicHex),
    );
    const c = buildCoverage(report);
    const lane = c.lanes[0]!;
    expect(lane.overlaps).toEqual([{ start: 11n, end: 20n, seqs: [2n, 2n] }]);
    expect(lane.runs.map((r) => [r.verdict, r.id])).toEqual([
      ['verified', 'checkpoint-checkpoints.ndjson-1'],
      ['failed', 'checkpoint-checkpoints.ndjson-2'],
      ['failed', 'checkpoint-checkpoints.ndjson-2-line-3'],
    ]);
    const equivocation = report.problems.find((p) => p.code === 'checkpoint_equivocation')!;
    expect(equivocation.line).toBe(3);
    expect(c.anchorFor(equivocation)).toBe('checkpoint-checkpoints.ndjson-2-line-3');
  });
});

describe('the run budget', () => {
  it('merges flagged checkpoints, then pools verdicts, never exceeding the budget', async () => {
    // Twelve batches of 5; checkpoints 3 and 4 carry broken signatures.
    const cps = Array.from({ length: 12 }, (_, i) => ({ seq: i + 1, start: i * 5 + 1, end: i * 5 + 5, badSignature: i === 2 || i === 3 }));
    const report = await verifyPaths([signedLog(60, cps)], trustOf(key.publicHex));
    const list = [...report.checkpoints];
    const failed = (c: (typeof list)[number]) => c.verdict === 'failed';
    const shape = (budget: number) => mergeRuns(list, failed, new Set(), budget).map((r) => `${r.verdict} ${r.start}-${r.end} x${r.checkpoints.length}`);
    expect(list.filter(failed).map((c) => c.checkpoint_seq)).toEqual([3n, 4n]);
    expect(shape(400)).toEqual(['verified 1-10 x2', 'failed 11-15 x1', 'failed 16-20 x1', 'verified 21-60 x8']);
    expect(shape(3)).toEqual(['verified 1-10 x2', 'failed 11-20 x2', 'verified 21-60 x8']);
    expect(shape(2)).toEqual(['mixed 1-20 x4', 'verified 21-60 x8']);
    expect(shape(1)).toEqual(['mixed 1-60 x12']);
    const taken = new Set<string>();
    const ids = mergeRuns(list, failed, taken).map((r) => r.id);
    expect(ids).toEqual([
      'checkpoint-checkpoints.ndjson-1',
      'checkpoint-checkpoints.ndjson-3',
      'checkpoint-checkpoints.ndjson-4',
      'checkpoint-checkpoints.ndjson-5',
    ]);
  });
});
