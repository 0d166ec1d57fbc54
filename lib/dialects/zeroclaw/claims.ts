// The claims check (issue 8): ZeroClaw's receipts exist so that a model cannot
// claim a tool ran when it did not. A receipt a reply quotes (in its own words
// or in a `Tool receipts:` block) must be one a tool result of the same turn
// carries; one that no tool call produced marks a fabricated tool call, and a
// reply that cites receipts in a turn where no tool ran claims tool use that
// did not happen. Pure.

export interface Located {
  file: string;
  line: number;
}

/** A tool result with its receipt: from a tool-call record, a `[receipt: …]` trailer, or a trace log line. */
export interface ZcCall extends Located {
  turn: string;
  receipt: string;
  toolName?: string;
}

/** A receipt quoted by a reply: an entry of a `Tool receipts:` block (with its tool name) or a receipt in the reply's text. */
export interface ZcClaim extends Located {
  turn: string;
  receipt: string;
  toolName?: string;
  via: 'block' | 'reply';
}

export interface ClaimFinding extends Located {
  receipt: string;
  kind: 'fabricated' | 'other_turn' | 'tool_mismatch' | 'no_tools_in_turn';
  message: string;
}

/** Each claim judged against the calls: findings only for claims that do not hold. */
export function checkClaims(calls: readonly ZcCall[], claims: readonly ZcClaim[]): ClaimFinding[] {
  const byTurn = new Map<string, Map<string, ZcCall>>();
  const anywhere = new Map<string, ZcCall>();
  for (const c of calls) {
    let turn = byTurn.get(c.turn);
    if (!turn) byTurn.set(c.turn, (turn = new Map()));
    if (!turn.has(c.receipt)) turn.set(c.receipt, c);
    if (!anywhere.has(c.receipt)) anywhere.set(c.receipt, c);
  }
  const findings: ClaimFinding[] = [];
  const where = (l: Located) => `${l.file}:${l.line}`;
  for (const claim of claims) {
    const turnCalls = byTurn.get(claim.turn);
    const quoted = claim.via === 'block' ? `the Tool receipts block lists ${claim.toolName ?? 'a tool'}: ${claim.receipt}` : `the reply quotes ${claim.receipt}`;
    const call = turnCalls?.get(claim.receipt);
    if (call) {
      if (claim.toolName !== undefined && call.toolName !== undefined && claim.toolName !== call.toolName) {
        findings.push({ ...pick(claim), kind: 'tool_mismatch', message: `${quoted}, but that receipt is on a result of ${call.toolName} (${where(call)})` });
      }
      continue;
    }
    if (!turnCalls || turnCalls.size === 0) {
      findings.push({ ...pick(claim), kind: 'no_tools_in_turn', message: `${quoted}, but no tool ran in this turn: the reply claims tool use that did not happen` });
      continue;
    }
    const elsewhere = anywhere.get(claim.receipt);
    if (elsewhere) {
      findings.push({ ...pick(claim), kind: 'other_turn', message: `${quoted}, which belongs to a tool result of another turn (${where(elsewhere)}), not to a call of this one` });
      continue;
    }
    findings.push({ ...pick(claim), kind: 'fabricated', message: `${quoted}, which no tool result carries: a fabricated tool call` });
  }
  return findings;
}

const pick = (c: ZcClaim) => ({ file: c.file, line: c.line, receipt: c.receipt });
