// The draft turn receipt: the real documentation example reads and holds every
// rule; each rule fails (or warns) on a receipt bent to break it.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../json/parse';
import { readTestdataText } from '../../../test/support/testdata';
import { type TurnReceipt, checkTurnReceipt, parseTurnReceipt } from './turn';

const exampleText = readTestdataText('codewhale/conformance-receipt-v0.draft-example.json');

function read(text: string): TurnReceipt {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  const t = parseTurnReceipt(parsed.value);
  if (!t.ok) throw new Error(t.reason);
  return t.receipt;
}

const outcome = (t: TurnReceipt) => Object.fromEntries(checkTurnReceipt(t).map((f) => [f.rule, f.status]));

describe('codewhale.conformance-receipt/v0', () => {
  it('the documentation example: every rule holds, and what it shows is read', () => {
    const t = read(exampleText);
    expect(outcome(t)).toEqual({
      schema: 'pass',
      reasoning_custody: 'pass',
      tool_lineage: 'pass',
      event_sequence: 'pass',
      approvals: 'pass',
      duration: 'pass',
      claim_ceiling: 'pass',
    });
    expect(t.sideEffects).toMatchObject({ approvalRequired: 1n, approvalAllowed: 0n, approvalDenied: 1n });
    expect(t.claimCeiling).toContain('not_safety_certification');
    expect(checkTurnReceipt(t).find((f) => f.rule === 'reasoning_custody')?.detail).toMatch(/not persisted as receipt-ready records/);
  });

  it.each([
    ['schema', (t: TurnReceipt) => ({ ...t, schemaId: 'codewhale.conformance-receipt/v1' }), 'fail'],
    ['reasoning_custody', (t: TurnReceipt) => ({ ...t, reasoningCustody: { ...t.reasoningCustody, rawReasoningExported: true } }), 'fail'],
    ['tool_lineage', (t: TurnReceipt) => ({ ...t, toolLineage: { ...t.toolLineage, unmatchedToolCallIds: ['call_7'] } }), 'fail'],
    ['tool_lineage', (t: TurnReceipt) => ({ ...t, toolLineage: { ...t.toolLineage, toolResultCount: 0n } }), 'fail'],
    ['event_sequence', (t: TurnReceipt) => ({ ...t, events: { ...t.events, eventCount: 34n } }), 'fail'],
    ['event_sequence', (t: TurnReceipt) => ({ ...t, events: { ...t.events, firstSeq: 43n } }), 'fail'],
    ['event_sequence', (t: TurnReceipt) => ({ ...t, events: { ...t.events, eventCount: 30n } }), 'warning'],
    ['approvals', (t: TurnReceipt) => ({ ...t, sideEffects: { ...t.sideEffects, approvalAllowed: 1n } }), 'fail'],
    ['duration', (t: TurnReceipt) => ({ ...t, turn: { ...t.turn, durationMs: 60000n } }), 'warning'],
    ['claim_ceiling', (t: TurnReceipt) => ({ ...t, claimCeiling: ['not_safety_certification'] }), 'warning'],
  ] as const)('%s: a receipt bent to break it is flagged', (rule, bend, status) => {
    const t = bend(read(exampleText));
    expect(outcome(t)[rule]).toBe(status);
    expect(Object.values(outcome(t)).filter((s) => s !== 'pass')).toHaveLength(1);
  });

  it('a field missing is named by its path', () => {
    const parsed = parseJson(exampleText.replace('"event_count": 33,', ''));
    if (!parsed.ok) throw new Error('fixture');
    expect(parseTurnReceipt(parsed.value)).toMatchObject({ ok: false, path: '$.source_event_lineage.event_count' });
  });
});
