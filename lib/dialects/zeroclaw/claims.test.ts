// The claims check: quoted receipts against the tool results of their turn.
import { describe, expect, it } from 'vitest';
import { type ZcCall, type ZcClaim, checkClaims } from './claims';

const A = 'zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY';
const B = 'zc-receipt-1711547700-LZniHOMTlFRBe-r9T2jjeeyxYXy9xoffkla74BTC9eQ';
const C = 'zc-receipt-1711547700-G1bdhVeWQitz1SqiChJsSX_0WdfunQBHwornTg3K9xw';

const call = (turn: string, receipt: string, toolName: string, line: number): ZcCall => ({ scope: 't.jsonl', turn, receipt, toolName, file: 't.jsonl', line });
const claim = (turn: string, receipt: string, line: number, toolName?: string): ZcClaim => ({
  scope: 't.jsonl',
  turn,
  receipt,
  line,
  file: 't.jsonl',
  via: toolName ? 'block' : 'reply',
  ...(toolName ? { toolName } : {}),
});
const failures = (calls: ZcCall[], claims: ZcClaim[]) => checkClaims(calls, claims).filter((o) => o.status === 'fail');

describe('checkClaims', () => {
  const calls = [call('1', A, 'shell', 2), call('1', B, 'web_search', 3), call('2', C, 'file_read', 7)];

  it('receipts quoted in their own turn, under their own tool, hold', () => {
    const outcomes = checkClaims(calls, [claim('1', A, 4, 'shell'), claim('1', B, 4), claim('2', C, 8, 'file_read')]);
    expect(outcomes.map((o) => o.status)).toEqual(['pass', 'pass', 'pass']);
    expect(outcomes[0]!.message).toMatch(/carried by the shell result at t\.jsonl:2/);
  });

  it('a receipt no tool result carries is a fabricated tool call', () => {
    const forged = 'zc-receipt-1711547700-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const f = failures(calls, [claim('1', forged, 4, 'shell')]);
    expect(f).toEqual([expect.objectContaining({ kind: 'fabricated', claim: expect.objectContaining({ line: 4, receipt: forged }) })]);
    expect(f[0]!.message).toMatch(/fabricated tool call/);
  });

  it("a receipt from another turn does not vouch for this one's claim", () => {
    expect(failures(calls, [claim('2', A, 8)]).map((f) => f.status === 'fail' && f.kind)).toEqual(['other_turn']);
  });

  it('a block entry naming another tool than the result it quotes', () => {
    const f = failures(calls, [claim('1', A, 4, 'web_search')]);
    expect(f.map((x) => x.status === 'fail' && x.kind)).toEqual(['tool_mismatch']);
    expect(f[0]!.message).toMatch(/result of shell \(t\.jsonl:2\)/);
  });

  it('a reply citing receipts in a turn where no tool ran', () => {
    const f = failures(calls, [claim('3', 'zc-receipt-1-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 12)]);
    expect(f.map((x) => x.status === 'fail' && x.kind)).toEqual(['no_tools_in_turn']);
    expect(f[0]!.message).toMatch(/claims tool use that did not happen/);
  });

  it("another scope's calls (a trace log's turn ids) confirm a claim but never contradict its turn", () => {
    const traced: ZcCall = { scope: 'trace', turn: 'abc', receipt: A, toolName: 'shell', file: 'runtime-trace.jsonl', line: 9 };
    expect(checkClaims([traced], [claim('5', A, 3, 'shell')]).map((o) => o.status)).toEqual(['pass']);
    const unturned: ZcCall = { scope: 'calls.json', receipt: B, toolName: 'web_search', file: 'calls.json', line: 1 };
    expect(checkClaims([unturned], [{ scope: 'reply.txt', receipt: B, file: 'reply.txt', line: 4, via: 'reply' }]).map((o) => o.status)).toEqual(['pass']);
  });

  it('with no tool result in the log at all, a claim cannot be checked: skipped, never passed', () => {
    const o = checkClaims([], [{ scope: 'reply.txt', receipt: A, file: 'reply.txt', line: 4, via: 'block', toolName: 'shell' }]);
    expect(o.map((x) => x.status)).toEqual(['skipped']);
    expect(o[0]!.message).toMatch(/no tool results to check it against/);
  });
});
