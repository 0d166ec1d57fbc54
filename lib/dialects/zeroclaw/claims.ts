// The claims check (issue 8): ZeroClaw's receipts exist so that a model cannot
// claim a tool ran when it did not. A receipt a reply quotes (in its own words
// or in a `Tool receipts:` block) must be one a tool result of the same turn
// carries; one that no tool call produced marks a fabricated tool call, and a
// reply that cites receipts in a turn where no tool ran claims tool use that
// did not happen. Pure.
//
// Turns are compared only within one scope (one transcript file, or the trace
// ids of runtime logs): a transcript's turn numbers mean nothing to a trace
// log's ids, so a call from another scope, or with no turn at all, can confirm
// a claim but never contradict its turn.

export interface Located {
  file: string;
  line: number;
}

/** A tool result with its receipt: from a tool-call record, a `[receipt: …]` trailer, or a trace log line. */
export interface ZcCall extends Located {
  scope: string;
  turn?: string;
  receipt: string;
  toolName?: string;
}

/** A receipt quoted by a reply: an entry of a `Tool receipts:` block (with its tool name) or a receipt in the reply's text. */
export interface ZcClaim extends Located {
  scope: string;
  turn?: string;
  receipt: string;
  toolName?: string;
  via: 'block' | 'reply';
}

export type ClaimKind = 'fabricated' | 'other_turn' | 'tool_mismatch' | 'no_tools_in_turn';

/** How one claim fares: `skipped` when the log holds no tool result at all to check it against. */
export type ClaimOutcome =
  | { claim: ZcClaim; status: 'pass'; message: string }
  | { claim: ZcClaim; status: 'fail'; kind: ClaimKind; message: string }
  | { claim: ZcClaim; status: 'skipped'; message: string };

const turnKey = (scope: string, turn: string) => `${scope}\u0000${turn}`;
const where = (l: Located) => `${l.file}:${l.line}`;

/** Each claim judged against the calls, in the claims' order. */
export function checkClaims(calls: readonly ZcCall[], claims: readonly ZcClaim[]): ClaimOutcome[] {
  /** Calls by scope and turn, then by receipt; and every call by receipt. */
  const byTurn = new Map<string, Map<string, ZcCall>>();
  const anywhere = new Map<string, ZcCall[]>();
  for (const c of calls) {
    if (c.turn !== undefined) {
      const key = turnKey(c.scope, c.turn);
      let turn = byTurn.get(key);
      if (!turn) byTurn.set(key, (turn = new Map()));
      if (!turn.has(c.receipt)) turn.set(c.receipt, c);
    }
    let list = anywhere.get(c.receipt);
    if (!list) anywhere.set(c.receipt, (list = []));
    list.push(c);
  }
  return claims.map((claim): ClaimOutcome => {
    const quoted =
      claim.via === 'block' ? `the Tool receipts block lists ${claim.toolName ?? 'a tool'}: ${claim.receipt}` : `the reply quotes ${claim.receipt}`;
    const turnCalls = claim.turn !== undefined ? byTurn.get(turnKey(claim.scope, claim.turn)) : undefined;
    const all = anywhere.get(claim.receipt) ?? [];
    // Its own turn's call, else one that cannot be placed in this scope's turns (another scope, or no turn).
    const match = turnCalls?.get(claim.receipt) ?? all.find((c) => c.scope !== claim.scope || c.turn === undefined || claim.turn === undefined);
    if (match) {
      if (claim.toolName !== undefined && match.toolName !== undefined && claim.toolName !== match.toolName) {
        return { claim, status: 'fail', kind: 'tool_mismatch', message: `${quoted}, but that receipt is on a result of ${match.toolName} (${where(match)})` };
      }
      return { claim, status: 'pass', message: `${quoted}: carried by the ${match.toolName ?? 'tool'} result at ${where(match)}` };
    }
    if (all.length > 0) {
      return {
        claim,
        status: 'fail',
        kind: 'other_turn',
        message: `${quoted}, which belongs to a tool result of another turn (${where(all[0]!)}), not to a call of this one`,
      };
    }
    if (claim.turn !== undefined && (!turnCalls || turnCalls.size === 0)) {
      return {
        claim,
        status: 'fail',
        kind: 'no_tools_in_turn',
        message: `${quoted}, but no tool ran in this turn: the reply claims tool use that did not happen`,
      };
    }
    if (calls.length === 0) {
      return {
        claim,
        status: 'skipped',
        message: `${quoted}, but the log holds no tool results to check it against (load the transcript, tool-call records or trace log too)`,
      };
    }
    return { claim, status: 'fail', kind: 'fabricated', message: `${quoted}, which no tool result carries: a fabricated tool call` };
  });
}
