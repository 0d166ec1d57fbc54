// The receipt families (lib/verdict/family.ts) as lib/verify's intake meets them: each family
// recognises its own records by shape, on real vectors, before any of Chio's shapes; the order of
// DIALECT_FAMILIES decides a record two would claim; a log read without them is Chio's records only.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/parse';
import { isJsonObject } from '../json/value';
import { intakeRecord } from '../verify/intake';
import { chioFamily } from '../chio/family';
import { readTestdataJson } from '../../test/support/testdata';
import { DIALECT_FAMILIES } from './families';
import { codewhaleFamily } from './codewhale/family';
import { zeroclawFamily } from './zeroclaw/family';

const call = readTestdataJson<Record<string, unknown>[]>('zeroclaw/synthesized/hmac-test-vectors.json')[0]!;
const review = readTestdataJson<Record<string, unknown>>('codewhale/synthesized/review-receipt.clean-pass.json');
const turn = readTestdataJson<Record<string, unknown>>('codewhale/conformance-receipt-v0.draft-example.json');

const read = (value: unknown, families = DIALECT_FAMILIES) => {
  const r = intakeRecord(JSON.stringify(value), 'auto', families);
  if (!r.ok) throw new Error(r.issue.message);
  return r.items.map((i) => [i.kind, i.family, i.familyKind, i.path]);
};

describe('receipt families', () => {
  it('each recognises its own records, by shape', () => {
    expect(read(call)).toEqual([['family', 'zeroclaw', 'zc-call', '$']]);
    expect(
      read({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'done' },
        ],
      }),
    ).toEqual([
      ['family', 'zeroclaw', 'zc-message', '$.messages[0]'],
      ['family', 'zeroclaw', 'zc-message', '$.messages[1]'],
    ]);
    expect(read({ message: 'tool call', attributes: { tool: 'shell' } })).toEqual([['family', 'zeroclaw', 'zc-trace', '$']]);
    expect(read(review)).toEqual([['family', 'codewhale', 'cw-review', '$']]);
    expect(read({ mode: 'review', receipt: review })).toEqual([['family', 'codewhale', 'cw-review', '$.receipt']]);
    expect(read(turn)).toEqual([['family', 'codewhale', 'cw-turn', '$']]);
    const text = intakeRecord(`[receipt: ${call.receipt}]`, 'text', DIALECT_FAMILIES);
    expect(text.ok && text.items.map((i) => [i.family, i.familyKind, i.text])).toEqual([['zeroclaw', 'zc-text', `[receipt: ${call.receipt}]`]]);
  });

  it("is asked before Chio's shapes, and the first family in order takes a record two would claim", () => {
    // A ZeroClaw tool-call record has `tool_name`, which Chio reads as a tool receipt's.
    const parsed = parseJson(JSON.stringify(call));
    expect(parsed.ok && isJsonObject(parsed.value) && chioFamily.recognise(parsed.value)).toBe('tool');
    expect(read({ ...call, diff_fingerprint: 'sha256:00' })).toEqual([['family', 'zeroclaw', 'zc-call', '$']]);
    expect(read({ ...call, diff_fingerprint: 'sha256:00' }, [codewhaleFamily, zeroclawFamily])).toEqual([['family', 'codewhale', 'cw-review', '$']]);
  });

  it('a log read without them holds Chio records only', () => {
    expect(read(call, [])).toEqual([['tool', undefined, undefined, '$']]);
    expect(intakeRecord('a reply that quotes nothing', 'text')).toEqual({ ok: true, items: [] });
    expect(intakeRecord(JSON.stringify(turn), 'auto')).toMatchObject({ ok: false, issue: { code: 'parse_error' } });
  });
});
