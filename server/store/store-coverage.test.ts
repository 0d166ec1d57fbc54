// Which order a store's checkpoints cover (claim-log entries, or tool receipts
// by seq) must be decided on a batch where the two orders differ. A demo store
// whose first batch holds no child receipt reads alike in both orders there;
// deciding on it made every later checkpoint fail inclusion. The browser and
// CLI path (loadStore) and the server's export must both get it right.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './store-handle';
import { writeEvidencePackage } from './export';
import { verifyPaths } from '../../bin/cli/main';
import { generateDemoStore } from '../../tools/demo/generate';
import { TrustStore } from '../../lib/trust/trust-store';
import { openChioStore } from '../../lib/sources/sqlite-store';
import { isRowError } from '../../lib/sources/sqlite-rows';

let dir: string;
let generated: Awaited<ReturnType<typeof generateDemoStore>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-coverage-'));
  // This seed's first checkpoint batch (tool seqs 1-100) holds no child receipt.
  generated = await generateDemoStore({ count: 400, seed: 'security-view', out: dir });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trust = () => {
  const t = TrustStore.create([{ key: generated.kernelKeyHex }]);
  if (!t.ok) throw new Error(t.error);
  return t.store;
};

describe('coverage order decided where the orders differ', () => {
  it('the store is the case: no child receipt in the first batch, children later', async () => {
    const opened = openChioStore(await initSqlJs(), new Uint8Array(readFileSync(generated.storePath)));
    if (!opened.ok) throw new Error(opened.message);
    const log = [...opened.store.claimLog()].flatMap((r) => (isRowError(r) ? [] : [r]));
    const cps = [...opened.store.checkpoints()].flatMap((r) => (isRowError(r) ? [] : [r]));
    opened.store.close();
    const first = cps.reduce((m, c) => (c.checkpointSeq < m.checkpointSeq ? c : m));
    const parting = log.filter((e) => e.receiptKind !== 'tool_receipt' || e.sourceSeq !== e.entrySeq);
    expect(parting.length).toBeGreaterThan(0);
    expect(parting.every((e) => e.entrySeq > first.batchEndSeq)).toBe(true);
    expect(cps.length).toBeGreaterThan(1);
  });

  it('the store verifies whole', async () => {
    const report = await verifyPaths([generated.storePath], trust());
    expect(report.summary.failed).toBe(0);
    expect(report.summary.verified).toBe(report.summary.receipts);
    expect(report.checkpoints.every((c) => c.verdict === 'verified')).toBe(true);
  });

  it("the server's evidence package of it verifies whole", async () => {
    const out = path.join(dir, 'package');
    await writeEvidencePackage(openStore(generated.storePath), generated.storePath, out, {}, 1767999999);
    const report = await verifyPaths([out], trust());
    expect(report.summary.failed).toBe(0);
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('a receipt deleted from the batch that decides: neither order reproduces its root, so tool seq, and only that batch fails', async () => {
    const opened = openChioStore(await initSqlJs(), new Uint8Array(readFileSync(generated.storePath)));
    if (!opened.ok) throw new Error(opened.message);
    const log = [...opened.store.claimLog()].flatMap((r) => (isRowError(r) ? [] : [r]));
    const cps = [...opened.store.checkpoints()].flatMap((r) => (isRowError(r) ? [] : [r])).sort((a, b) => a.checkpointSeq - b.checkpointSeq);
    opened.store.close();
    const parts = Math.min(...log.filter((e) => e.receiptKind !== 'tool_receipt' || e.sourceSeq !== e.entrySeq).map((e) => e.entrySeq));
    const deciding = cps.find((c) => c.batchEndSeq >= parts)!;
    const copy = path.join(dir, 'deleted.sqlite3');
    copyFileSync(generated.storePath, copy);
    const db = new Database(copy);
    db.prepare('DELETE FROM chio_tool_receipts WHERE seq = ?').run(deciding.batchStartSeq + 3);
    db.close();
    const report = await verifyPaths([copy], trust());
    const failedBatches = new Set(
      report.receipts
        .filter((r) => r.type === 'tool' && r.checks.inclusion === 'fail')
        .map((r) => cps.find((c) => Number(r.seq) >= c.batchStartSeq && Number(r.seq) <= c.batchEndSeq)?.checkpointSeq),
    );
    expect([...failedBatches]).toEqual([deciding.checkpointSeq]);
    expect(report.receipts.filter((r) => r.type === 'tool' && r.checks.inclusion === 'pass').length).toBe(cps.length * 100 - 100);
  });
});
