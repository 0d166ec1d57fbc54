// The claims check: quoted receipts against the tool results of their turn.
import { describe, expect, it } from 'vitest';
import { type ZcCall, type ZcClaim, checkClaims } from './claims';

const A = 'zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY';
const B = 'zc-receipt-1711547700-LZniHOMTlFRBe-r9T2jjeeyxYXy9xoffkla74BTC9eQ';
const C = 'zc-receipt-1711547700-G1bdhVeWQitz1SqiChJsSX_0WdfunQBHwornTg3K9xw';

const call = (turn: string, receipt: string, toolName: string, line: number): ZcCall => ({ turn, receipt, toolName, file: 't.jsonl', line });
const claim = (turn: string, receipt: string, line: number, toolName?: string): ZcClaim => ({ turn, receipt, line, file: 't.jsonl', via: toolName ? 'block' : 'reply', ...(toolName ? { toolName } : {}) });

describe('checkClaims', () => {
  const calls = [call('1', A, 'shell', 2), call('1', B, 'web_search', 3), call('2', C, 'file_read', 7)];

  it('receipts quoted in their own turn, under their own tool, hold', () => {
    expect(checkClaims(calls, [claim('1', A, 4, 'shell'), claim('1', B, 4), claim('2', C, 8, 'file_read')])).toEqual([]);
  });

  it('a receipt no tool result carries is a fabricated tool call', () => {
    const forged = 'zc-receipt-1711547700-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const f = checkClaims(calls, [claim('1', forged, 4, 'shell')]);
    expect(f).toEqual([expect.objectContaining({ kind: 'fabricated', line: 4, receipt: forged })]);
    expect(f[0]!.message).toMatch(/fabricated tool call/);
  });

  it("a receipt from another turn does not vouch for this one's claim", () => {
    expect(checkClaims(calls, [claim('2', A, 8)]).map((f) => f.kind)).toEqual(['other_turn']);
  });

  it('a block entry naming another tool than the result it quotes', () => {
    const f = checkClaims(calls, [claim('1', A, 4, 'web_search')]);
    expect(f.map((x) => x.kind)).toEqual(['tool_mismatch']);
    expect(f[0]!.message).toMatch(/result of shell \(t\.jsonl:2\)/);
  });

  it('a reply citing receipts in a turn where no tool ran', () => {
    const f = checkClaims(calls, [claim('3', A, 12)]);
    expect(f.map((x) => x.kind)).toEqual(['no_tools_in_turn']);
    expect(f[0]!.message).toMatch(/claims tool use that did not happen/);
  });
});
