import { describe, expect, it } from 'vitest';
import { intakeRecord } from './intake';

const receipt = (id: string) => ({ id, tool_name: 't', action: {}, capability_id: 'c' });

describe('intakeRecord: record shapes (contract §2)', () => {
  it('a bare receipt, the package wrapper, a store row and an array', () => {
    expect(intakeRecord(JSON.stringify(receipt('a')), 'auto')).toMatchObject({ ok: true, items: [{ kind: 'tool', path: '$' }] });
    expect(intakeRecord(JSON.stringify({ seq: 7, receipt: receipt('a') }), 'auto')).toMatchObject({ ok: true, items: [{ kind: 'tool', seq: 7n }] });
    const row = { seq: 3, receipt_id: 'a', raw_json: JSON.stringify(receipt('a')) };
    expect(intakeRecord(JSON.stringify(row), 'auto')).toMatchObject({ ok: true, items: [{ kind: 'tool', seq: 3n }] });
    expect(intakeRecord(JSON.stringify([receipt('a'), receipt('b')]), 'auto')).toMatchObject({ ok: true, items: [{}, {}] });
  });

  it("a page of Chio's receipt API expands to its receipts; a bad one is named by its path", () => {
    const page = { totalCount: 2, nextCursor: null, receipts: [receipt('a'), receipt('b')] };
    const r = intakeRecord(JSON.stringify(page), 'auto');
    expect(r.ok && r.items.map((i) => i.path)).toEqual(['$.receipts[0]', '$.receipts[1]']);
    const bad = intakeRecord(JSON.stringify({ ...page, receipts: [receipt('a'), 5] }), 'auto');
    expect(bad).toMatchObject({ ok: false, issue: { path: '$.receipts[1]' } });
  });

  it('an evidence-export bundle expands to its own claims, then its receipts, checkpoints and proofs', () => {
    const bundle = { bundle: { toolReceipts: [{ seq: 1, receipt: receipt('a') }], childReceipts: [], checkpoints: [], inclusionProofs: [] } };
    expect(intakeRecord(JSON.stringify(bundle), 'auto')).toMatchObject({
      ok: true,
      items: [
        { kind: 'bundle', path: '$.bundle', items: 1 },
        { kind: 'tool', seq: 1n },
      ],
    });
  });

  it('something that is no Chio record is a shape error, not a guess', () => {
    expect(intakeRecord('{"hello":"world"}', 'auto')).toMatchObject({ ok: false, issue: { code: 'parse_error' } });
    expect(intakeRecord('42', 'auto')).toMatchObject({ ok: false });
  });
});
