import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrustStore } from '../trust/trust-store';
import type { ReceiptBundle } from '../sources/receipt-bundle';
import { decodeBundle, encodeBundle, verifyBundle } from './bundle';

const GOOD = join(__dirname, '../testdata/corpus/good');
const TAMPERED = join(__dirname, '../testdata/corpus/tampered-field');
const lines = (dir: string, f: string) =>
  readFileSync(join(dir, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
const expected = (dir: string) => JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { receipts: Record<string, string>; trust_keys: string[] };
/** The corpus's kernel key, pinned: a receipt is verified only under a pinned key (part 2 §11). */
const corpusTrust = (): TrustStore => {
  const t = TrustStore.create(expected(GOOD).trust_keys.map((key) => ({ key })));
  if (!t.ok) throw new Error(t.error);
  return t.store;
};

/** Receipt `i` of a corpus package with the checkpoint and proof that cover it, as the log host assembles them. */
function bundleOf(dir: string, i: number): ReceiptBundle {
  const receipt = lines(dir, 'receipts.ndjson')[i]!;
  const seq = JSON.parse(receipt).seq as number;
  const proof = lines(dir, 'inclusion-proofs.ndjson').find((l) => JSON.parse(l).receipt_seq === seq);
  if (!proof) return { v: 1, role: 'tool', receipt };
  const cpSeq = JSON.parse(proof).checkpoint_seq as number;
  const checkpoint = lines(dir, 'checkpoints.ndjson').find((l) => JSON.parse(l).body.checkpoint_seq === cpSeq)!;
  return { v: 1, role: 'tool', receipt, checkpoint, proof };
}

describe('receipt bundles', () => {
  it('a corpus receipt with its checkpoint and proof verifies alone, inclusion by proof', async () => {
    const b = bundleOf(GOOD, 150);
    const report = await verifyBundle(b, corpusTrust());
    expect(report.receipts).toHaveLength(1);
    expect(report.receipts[0]!.checks).toMatchObject({ parse: 'pass', signature: 'pass', parameter_hash: 'pass', inclusion: 'pass' });
    expect(report.checkpoints[0]!.verdict).toBe('verified');
    // Checkpoint 2 alone: what came before it is not in the bundle, said as a warning (part 2 §5.1).
    expect(report.problems.map((p) => p.code)).toEqual(['checkpoint_prefix_incomplete']);
    expect(report.ok).toBe(true);
  });

  it('agrees with expected.json on every receipt of a tampered case that has a proof', async () => {
    const exp = expected(TAMPERED);
    const all = lines(TAMPERED, 'receipts.ndjson');
    let failed = 0;
    for (let i = 0; i < all.length; i++) {
      const id = JSON.parse(all[i]!).receipt.id as string;
      const want = exp.receipts[id];
      const b = bundleOf(TAMPERED, i);
      if (!b.proof || !want || want === 'unchecked_tail' || want === 'missing') continue;
      const got = (await verifyBundle(b, corpusTrust())).receipts[0]!.verdict;
      // Alone, a receipt of the log can only lose checks that need the whole log.
      if (want === 'failed') failed++;
      expect(got === 'verified' ? 'verified' : 'failed').toBe(want === 'verified' ? 'verified' : 'failed');
    }
    expect(failed).toBeGreaterThan(0);
  });

  it('round-trips through the fragment encoding, and refuses a cut or altered link with a reason', async () => {
    const b = { ...bundleOf(GOOD, 3), origin: { source: 'test', file: 'receipts.ndjson', line: 4 } };
    const text = await encodeBundle(b);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decodeBundle(text)).toEqual({ ok: true, bundle: b });
    const cut = await decodeBundle(text.slice(0, text.length >> 1));
    expect(cut.ok).toBe(false);
    expect(await decodeBundle('%%%')).toEqual({ ok: false, message: expect.stringContaining('base64url') });
  });

  it("verifies under the recipient's pinned keys: another key makes signer_trusted fail", async () => {
    const other = TrustStore.create([{ key: '11'.repeat(32) }]);
    if (!other.ok) throw new Error(other.error);
    const report = await verifyBundle(bundleOf(GOOD, 0), other.store);
    expect(report.receipts[0]!.checks.signer_trusted).toBe('fail');
    expect(report.receipts[0]!.verdict).toBe('failed');
  });
});

describe('the downloadable bundle file', () => {
  it('receipt-audit verify reads it back to the same verdict, receipt bytes unchanged', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { verifyPaths } = await import('../../bin/cli/main');
    const { bundleToNdjson } = await import('./bundle');
    const b = bundleOf(GOOD, 42);
    const dir = mkdtempSync(join(tmpdir(), 'ra-bundle-'));
    const file = join(dir, 'receipt.ndjson');
    writeFileSync(file, bundleToNdjson(b));
    expect(readFileSync(file, 'utf8')).toContain(b.receipt);
    const cli = await verifyPaths([file], TrustStore.empty());
    const alone = await verifyBundle(b);
    expect(cli.receipts.map((r) => [r.id, r.verdict, r.checks])).toEqual(alone.receipts.map((r) => [r.id, r.verdict, r.checks]));
    expect(cli.receipts[0]!.checks.inclusion).toBe('pass');
  });
});
