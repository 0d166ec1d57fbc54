// `duplicate_receipt_id` (duplicate-ids.ts): a receipt id that names more than one receipt of
// the log, across two sources or twice in one, is a problem at every copy, naming each copy's
// source, file and line; an error when the copies differ, a warning when they are identical.
// Envelope repeats of one receipt are still one record (envelope-dedup.ts), not duplicates.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeDir, nodeFile } from '../../bin/cli/node-source';
import { loadFile, loadPackage } from '../sources/package';
import { genAReceipt, goodLog, keyFromSeed, ndjson, writePackage } from '../../test/support/forge';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from './log-verifier';
import type { Problem } from '../verdict/problems';
import type { VerificationReport } from '../verdict/report';

const kernel = keyFromSeed(7);
const attacker = keyFromSeed(66);

/** The genuine log as a package: three receipts, the first two checkpointed with proofs. */
function genuinePackage(): string {
  const { receipts, cp, proofs } = goodLog(3, 2, kernel);
  return writePackage({
    'checkpoints.ndjson': ndjson([cp]),
    'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))),
    'inclusion-proofs.ndjson': ndjson(proofs),
  });
}

/** `lines` written as a loose NDJSON file beside the package; returns its path. */
function looseFile(dir: string, name: string, lines: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, ndjson(lines));
  return file;
}

/** The package and the loose file as one log of two sources, named as the command line names them. */
async function verifyTwo(pkg: string, file: string, pinned = [kernel.publicHex]): Promise<VerificationReport> {
  const trust = TrustStore.create(pinned.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store });
  v.beginSource('genuine-pkg');
  await loadPackage(nodeDir(pkg, 'genuine-pkg'), v, 'package:0');
  v.beginSource('forged.ndjson');
  await loadFile(nodeFile(file, 'forged.ndjson'), v, 'files', 'forged.ndjson');
  return v.finish();
}

const dupes = (r: VerificationReport): Problem[] => r.problems.filter((p) => p.code === 'duplicate_receipt_id');

describe('duplicate_receipt_id', () => {
  it('a forged copy re-signed by another key in a second source: an error at both copies, naming each source, file and line', async () => {
    const pkg = genuinePackage();
    const forged = genAReceipt({ seq: 2, key: attacker, extra: { tool_name: 'transfer_funds' } });
    const file = looseFile(pkg, 'forged.ndjson', [genAReceipt({ seq: 9, key: kernel }), { seq: 2, receipt: forged }]);
    const r = await verifyTwo(pkg, file);
    const copies = r.receipts.filter((x) => x.id === 'rcpt-test-000002');
    expect(copies.map((c) => `${c.file}:${c.line} ${c.verdict}`)).toEqual(['receipts.ndjson:2 verified', 'forged.ndjson:2 failed']);
    const ps = dupes(r);
    expect(ps.map((p) => `${p.severity} ${p.receipt_id} ${p.file}:${p.line}`)).toEqual([
      'error rcpt-test-000002 forged.ndjson:2',
      'error rcpt-test-000002 receipts.ndjson:2',
    ]);
    for (const p of ps) {
      expect(p.message).toContain('receipts.ndjson:2 in genuine-pkg');
      expect(p.message).toContain('forged.ndjson:2');
      expect(p.message).toMatch(/differ/);
      // Each copy's signer is named: the forged one was signed by another key.
      expect(p.message).toContain(attacker.publicHex.slice(0, 16));
      expect(p.message).toContain(kernel.publicHex.slice(0, 16));
    }
    expect(r.ok).toBe(false);
    // The other receipts are untouched.
    expect(r.receipts.filter((x) => x.id !== 'rcpt-test-000002').every((x) => x.verdict === 'verified')).toBe(true);
  });

  it('a byte-identical copy in a second source is a warning at both copies; nothing fails', async () => {
    const pkg = genuinePackage();
    const { receipts } = goodLog(3, 2, kernel);
    const file = looseFile(pkg, 'forged.ndjson', [{ seq: 3, receipt: receipts[2] }]);
    const r = await verifyTwo(pkg, file);
    const ps = dupes(r);
    expect(ps.map((p) => `${p.severity} ${p.file}:${p.line}`)).toEqual(['warning forged.ndjson:1', 'warning receipts.ndjson:3']);
    expect(ps[0]!.message).toMatch(/identical/);
    expect(r.receipts.every((x) => x.verdict === 'verified')).toBe(true);
    expect(r.ok).toBe(true);
  });

  it('twice in one source (a replay): a warning beside the failed inclusion of the unplaced copy', async () => {
    const { receipts, cp, proofs } = goodLog(3, 2, kernel);
    const pkg = writePackage({
      'checkpoints.ndjson': ndjson([cp]),
      'receipts.ndjson': ndjson([...receipts.map((r, i) => ({ seq: i + 1, receipt: r })), { seq: 4, receipt: receipts[0] }]),
      'inclusion-proofs.ndjson': ndjson(proofs),
    });
    const v = new LogVerifier();
    v.beginSource('pkg');
    await loadPackage(nodeDir(pkg, 'pkg'), v, 'package:0');
    const r = await v.finish();
    expect(dupes(r).map((p) => `${p.severity} ${p.file}:${p.line}`)).toEqual(['warning receipts.ndjson:1', 'warning receipts.ndjson:4']);
    // One source: not named (the command line and the page name it differently, and their reports must agree).
    expect(dupes(r)[0]!.message).toBe(
      'receipt id rcpt-test-000001 names 2 receipts in one source: this one at receipts.ndjson:1, also receipts.ndjson:4; they are byte-identical copies of one receipt',
    );
    expect(r.problems.some((p) => p.code === 'inclusion_failed' && p.line === 4)).toBe(true);
  });

  it('a receipt reached twice in envelopes is still one record, not a duplicate', async () => {
    const receipt = genAReceipt({ seq: 1, key: kernel });
    const outcome = { state: 'completed', evidence: 'verified', requestId: 'req-1', receipt };
    const v = new LogVerifier();
    for (const [i, text] of [JSON.stringify(outcome), JSON.stringify(outcome)].entries())
      await v.addRecord(text, { file: 'outcomes.ndjson', line: i + 1, role: 'auto', space: 'files' });
    const r = await v.finish();
    expect(r.receipts).toHaveLength(1);
    expect(dupes(r)).toEqual([]);
  });

  it('150 copies of one id: 100 problems, then one that counts the rest', async () => {
    const text = JSON.stringify(genAReceipt({ seq: 1, key: kernel }));
    const v = new LogVerifier();
    for (let i = 0; i < 150; i++) await v.addRecord(text, { file: 'many.ndjson', line: i + 1, role: 'auto', space: 'files' });
    const r = await v.finish();
    const ps = dupes(r);
    expect(ps).toHaveLength(101);
    expect(ps.filter((p) => p.line !== undefined)).toHaveLength(100);
    expect(ps.find((p) => p.line === undefined)?.message).toMatch(/and 50 more copies/);
    // Each message names a few copies, not all of them.
    expect(Math.max(...ps.map((p) => p.message.length))).toBeLessThan(1000);
  });
});
