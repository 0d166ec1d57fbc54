import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDossier, type Dossier } from './dossier';
import type { ReceiptBundle } from '../sources/receipt-bundle';

const GOOD = join(__dirname, '../testdata/corpus/good');
const TAMPERED = join(__dirname, '../testdata/corpus/tampered-field');
const GEN_B = join(__dirname, '../testdata/chio/gen-b-upstream/tests/bindings/vectors/receipt/v1.json');
const lines = (dir: string, f: string) =>
  readFileSync(join(dir, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim());

function bundleFor(dir: string, pick: (r: Record<string, unknown>) => boolean): ReceiptBundle {
  const receipt = lines(dir, 'receipts.ndjson').find((l) => pick(JSON.parse(l).receipt))!;
  const seq = JSON.parse(receipt).seq as number;
  const proof = lines(dir, 'inclusion-proofs.ndjson').find((l) => JSON.parse(l).receipt_seq === seq)!;
  const cpSeq = JSON.parse(proof).checkpoint_seq as number;
  const checkpoint = lines(dir, 'checkpoints.ndjson').find((l) => JSON.parse(l).body.checkpoint_seq === cpSeq)!;
  return { v: 1, role: 'tool', receipt, checkpoint, proof };
}

function dossier(b: ReceiptBundle): Dossier {
  const r = buildDossier(b);
  if (!r.ok) throw new Error(r.message);
  return r.dossier;
}

describe('the receipt dossier', () => {
  it('draws the Merkle path of a corpus receipt to its signed checkpoint root, one step per audit-path hash', () => {
    const b = bundleFor(GOOD, () => true);
    const d = dossier(b);
    const proof = JSON.parse(b.proof!);
    expect(d.merkle?.matches).toBe(true);
    expect(d.merkle?.steps).toHaveLength(proof.proof.audit_path.length);
    expect(d.merkle?.steps.map((s) => s.sibling)).toEqual(proof.proof.audit_path);
    expect(d.merkle?.steps.at(-1)?.node).toBe(JSON.parse(b.checkpoint!).body.merkle_root);
    expect(d.checkpoint?.seq).toBe(String(proof.checkpoint_seq));
    expect(d.hashes.find((h) => h.name === 'action.parameter_hash')?.status).toBe('match');
  });

  it('financial fields: the amounts as minor-unit integers with the currency, for the page to format; the rest as given', () => {
    const b = bundleFor(GOOD, (r) => (r.metadata as { financial?: unknown } | undefined)?.financial !== undefined);
    const fin = JSON.parse(b.receipt).receipt.metadata.financial;
    const d = dossier(b);
    expect(d.currency).toBe(fin.currency);
    const line = (field: string) => d.financial.find((l) => l.field === field);
    for (const field of ['cost_charged', 'budget_total', 'budget_remaining']) {
      expect(line(field), field).toEqual({ field, text: String(fin[field]), minor: BigInt(fin[field]) });
    }
    expect(line('settlement_status')).toEqual({ field: 'settlement_status', text: fin.settlement_status });
    expect(line('root_budget_holder')?.minor).toBeUndefined();
    expect(line('attempted_cost')).toBeUndefined();
  });

  it('a denial names its blocking guard and says later guards were not evaluated', () => {
    // corpus/good: three guards passed, then egress-allowlist denied the call.
    const d = dossier(bundleFor(GOOD, (r) => (r.decision as { guard?: string }).guard === 'egress-allowlist'));
    expect(d.decision?.verdict).toBe('deny');
    expect(d.evidenceNote).toBe('Denied by egress-allowlist. Guards after it were not evaluated, so they are not listed.');
    expect(d.evidence.map((e) => [e.guard, e.passed, e.blocking])).toEqual([
      ['forbidden-path', true, false],
      ['path-allowlist', true, false],
      ['shell-command', true, false],
      ['egress-allowlist', false, true],
    ]);
  });

  it('marks an added key as not signed and keeps every signed field', () => {
    const b = bundleFor(GOOD, () => true);
    const wrapped = JSON.parse(b.receipt);
    const injected = b.receipt.replace('"receipt":{', '"receipt":{"note_from_server":"<img src=x onerror=alert(1)>",');
    const d = dossier({ ...b, receipt: injected });
    expect(d.fields.find((f) => f.path === 'note_from_server')).toEqual({
      path: 'note_from_server',
      value: '"<img src=x onerror=alert(1)>"',
      status: 'not signed',
    });
    expect(d.fields.find((f) => f.path === 'id')?.status).toBe('signed');
    expect(d.fields.find((f) => f.path === 'signature')?.status).toBe('signature');
    expect(d.fields.find((f) => f.path === 'action.parameters')?.status).toBe('signed');
    expect(d.canonical.text).not.toContain('note_from_server');
    expect(d.raw.text).toBe(injected);
    expect(wrapped.receipt.id).toBe(d.id);
  });

  it('the tampered corpus receipt: its recomputed hashes or its path disagree with what it claims', () => {
    const exp = JSON.parse(readFileSync(join(TAMPERED, 'expected.json'), 'utf8')) as { receipts: Record<string, string> };
    const bad = Object.keys(exp.receipts).filter((id) => exp.receipts[id] === 'failed');
    const d = dossier(bundleFor(TAMPERED, (r) => r.id === bad[0]));
    const mismatch = d.hashes.some((h) => h.status === 'mismatch') || d.merkle?.matches === false;
    expect(mismatch).toBe(true);
  });

  it('Gen B: recomputes the content-addressed id and lists the kind fields', () => {
    const cases = JSON.parse(readFileSync(GEN_B, 'utf8')).cases as { id: string; receipt: unknown; expected: { receipt_id_valid: boolean } }[];
    let checked = 0;
    for (const c of cases.filter((x) => typeof x.receipt === 'object').slice(0, 6)) {
      const r = buildDossier({ v: 1, role: 'tool', receipt: JSON.stringify(c.receipt) });
      if (!r.ok) continue;
      checked++;
      const line = r.dossier.hashes.find((h) => h.name === 'id (Gen B)');
      expect(line?.status, c.id).toBe(c.expected.receipt_id_valid ? 'match' : 'mismatch');
      // The page shows these notes: plain words, no spec section numbers.
      expect(
        r.dossier.hashes.filter((h) => h.note.includes('§')),
        c.id,
      ).toEqual([]);
      expect(r.dossier.kind.map(([k]) => k)).toContain('receipt_kind');
      // Every field of a Gen B receipt but its signature is under the signature (id and id input);
      // they were shown as "not signed" when the signed twin was the {id, body} signing object.
      const status = (path: string) => r.dossier.fields.find((f) => f.path === path)?.status;
      for (const path of ['timestamp', 'tool_name', 'receipt_kind', 'boundary_class', 'kernel_key', 'content_hash'])
        expect(status(path), `${c.id} ${path}`).toBe('signed');
      expect(status('signature')).toBe('signature');
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('parameters are pretty JSON with invisible and direction characters escaped; numbers keep their text', () => {
    const b = bundleFor(GOOD, () => true);
    const receipt = b.receipt.replace('"parameters":{', '"parameters":{"big":18446744073709551615,"rtl":"a\\u202eb",');
    const d = dossier({ ...b, receipt });
    expect(d.parameters).toContain('"big": 18446744073709551615');
    expect(d.parameters).toContain('"rtl": "a\\u202eb"');
    expect(d.hashes.find((h) => h.name === 'action.parameter_hash')?.status).toBe('mismatch');
  });

  it('a record that is not JSON is refused with its line', () => {
    const r = buildDossier({ v: 1, role: 'tool', receipt: '{"id": "x",\n "oops' });
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/line 2/) });
  });
});
