// CodeWhale's draft per-turn receipt, `codewhale.conformance-receipt/v0`
// (other-dialects.md §2.5): documented in docs/RECEIPTS.md, implemented
// nowhere yet. It is unsigned, so every check here is about internal
// consistency; the rules are this project's heuristics from the draft's
// example and its builder rules, not CodeWhale's own. Pure.
import type { JsonValue } from '../../json/value';
import { Shape, arr, bool, field, obj, str, uint } from '../shape';

export const TURN_SCHEMA_ID = 'codewhale.conformance-receipt/v0';

export interface TurnReceipt {
  schemaId: string;
  thread: { id: string; model: string; mode: string; autoApprove: boolean; trustMode: boolean; allowShell: boolean };
  turn: { id: string; status: string; startedAt: string; endedAt: string; durationMs: bigint };
  reasoningCustody: { rawReasoningExported: boolean; available: boolean; reason: string };
  toolLineage: { toolCallCount: bigint; toolResultCount: bigint; unmatchedToolCallIds: string[]; unmatchedToolResultIds: string[] };
  usageAvailable: boolean;
  events: { firstSeq: bigint; lastSeq: bigint; eventCount: bigint; missingRanges: JsonValue[] };
  sideEffects: Record<'approvalRequired' | 'approvalAllowed' | 'approvalDenied' | 'commandExecution' | 'fileChange' | 'sandboxDenied', bigint>;
  claimCeiling: string[];
}

export type TurnParse = { ok: true; receipt: TurnReceipt } | { ok: false; reason: string; path: string };

const ids = (v: JsonValue, path: string): string[] =>
  arr(v, path).map((x, i) => {
    if (typeof x !== 'string') throw new Shape(`${path}[${i}]`, `${path}[${i}] must be a string id`);
    return x;
  });

export function parseTurnReceipt(v: JsonValue): TurnParse {
  try {
    const o = obj(v, '$');
    const th = obj(field(o, 'thread', '$'), '$.thread');
    const tu = obj(field(o, 'turn', '$'), '$.turn');
    const rc = obj(field(o, 'reasoning_custody', '$'), '$.reasoning_custody');
    const tl = obj(field(o, 'tool_lineage', '$'), '$.tool_lineage');
    const ue = obj(field(o, 'usage_evidence', '$'), '$.usage_evidence');
    const ev = obj(field(o, 'source_event_lineage', '$'), '$.source_event_lineage');
    const se = obj(field(o, 'side_effect_boundary', '$'), '$.side_effect_boundary');
    const S = '$.side_effect_boundary';
    return {
      ok: true,
      receipt: {
        schemaId: str(o, 'schema_id', '$'),
        thread: {
          id: str(th, 'id', '$.thread'),
          model: str(th, 'model', '$.thread'),
          mode: str(th, 'mode', '$.thread'),
          autoApprove: bool(th, 'auto_approve', '$.thread'),
          trustMode: bool(th, 'trust_mode', '$.thread'),
          allowShell: bool(th, 'allow_shell', '$.thread'),
        },
        turn: {
          id: str(tu, 'id', '$.turn'),
          status: str(tu, 'status', '$.turn'),
          startedAt: str(tu, 'started_at', '$.turn'),
          endedAt: str(tu, 'ended_at', '$.turn'),
          durationMs: uint(tu, 'duration_ms', '$.turn'),
        },
        reasoningCustody: {
          rawReasoningExported: bool(rc, 'raw_reasoning_exported', '$.reasoning_custody'),
          available: bool(rc, 'available', '$.reasoning_custody'),
          reason: str(rc, 'reason', '$.reasoning_custody'),
        },
        toolLineage: {
          toolCallCount: uint(tl, 'tool_call_count', '$.tool_lineage'),
          toolResultCount: uint(tl, 'tool_result_count', '$.tool_lineage'),
          unmatchedToolCallIds: ids(field(tl, 'unmatched_tool_call_ids', '$.tool_lineage'), '$.tool_lineage.unmatched_tool_call_ids'),
          unmatchedToolResultIds: ids(field(tl, 'unmatched_tool_result_ids', '$.tool_lineage'), '$.tool_lineage.unmatched_tool_result_ids'),
        },
        usageAvailable: bool(ue, 'available', '$.usage_evidence'),
        events: {
          firstSeq: uint(ev, 'first_seq', '$.source_event_lineage'),
          lastSeq: uint(ev, 'last_seq', '$.source_event_lineage'),
          eventCount: uint(ev, 'event_count', '$.source_event_lineage'),
          missingRanges: arr(field(ev, 'missing_event_ranges', '$.source_event_lineage'), '$.source_event_lineage.missing_event_ranges'),
        },
        sideEffects: {
          approvalRequired: uint(se, 'approval_required_count', S),
          approvalAllowed: uint(se, 'approval_allowed_count', S),
          approvalDenied: uint(se, 'approval_denied_count', S),
          commandExecution: uint(se, 'command_execution_count', S),
          fileChange: uint(se, 'file_change_count', S),
          sandboxDenied: uint(se, 'sandbox_denied_count', S),
        },
        claimCeiling: ids(field(o, 'claim_ceiling', '$'), '$.claim_ceiling'),
      },
    };
  } catch (err) {
    if (err instanceof Shape) return { ok: false, reason: err.message, path: err.path };
    throw err;
  }
}

export interface TurnFinding {
  rule: 'schema' | 'reasoning_custody' | 'tool_lineage' | 'event_sequence' | 'approvals' | 'duration' | 'claim_ceiling';
  status: 'pass' | 'fail' | 'warning';
  detail: string;
}

const list = (xs: string[]) => (xs.length <= 5 ? xs.join(', ') : `${xs.slice(0, 5).join(', ')} and ${xs.length - 5} more`);

/** The draft's consistency rules, each with its outcome (this project's heuristics; see the header). */
export function checkTurnReceipt(t: TurnReceipt): TurnFinding[] {
  const out: TurnFinding[] = [];
  const add = (rule: TurnFinding['rule'], status: TurnFinding['status'], detail: string) => out.push({ rule, status, detail });
  add(
    'schema',
    t.schemaId === TURN_SCHEMA_ID ? 'pass' : 'fail',
    t.schemaId === TURN_SCHEMA_ID ? TURN_SCHEMA_ID : `schema_id is "${t.schemaId}", not ${TURN_SCHEMA_ID}`,
  );
  add(
    'reasoning_custody',
    t.reasoningCustody.rawReasoningExported ? 'fail' : 'pass',
    t.reasoningCustody.rawReasoningExported
      ? 'raw reasoning was exported, which the draft forbids by default'
      : `raw reasoning not exported; reasoning ${t.reasoningCustody.available ? 'available' : `unavailable (${t.reasoningCustody.reason})`}`,
  );
  const { toolCallCount: calls, toolResultCount: results, unmatchedToolCallIds: uc, unmatchedToolResultIds: ur } = t.toolLineage;
  if (uc.length > 0 || ur.length > 0) {
    const parts = [
      uc.length > 0 ? `${uc.length} tool call(s) without a result: ${list(uc)}` : '',
      ur.length > 0 ? `${ur.length} tool result(s) without a call: ${list(ur)}` : '',
    ].filter(Boolean);
    add('tool_lineage', 'fail', parts.join('; '));
  } else if (calls !== results) add('tool_lineage', 'fail', `${calls} tool call(s) but ${results} result(s), and no unmatched id is listed`);
  else add('tool_lineage', 'pass', `${calls} tool call(s), each with its result`);
  const { firstSeq, lastSeq, eventCount, missingRanges } = t.events;
  if (firstSeq > lastSeq) add('event_sequence', 'fail', `first_seq ${firstSeq} is after last_seq ${lastSeq}`);
  else if (eventCount > lastSeq - firstSeq + 1n) add('event_sequence', 'fail', `${eventCount} events cannot fit in seq ${firstSeq}–${lastSeq}`);
  else if (missingRanges.length > 0) add('event_sequence', 'warning', `${missingRanges.length} missing event range(s) reported in seq ${firstSeq}–${lastSeq}`);
  else if (eventCount < lastSeq - firstSeq + 1n)
    add(
      'event_sequence',
      'warning',
      `${lastSeq - firstSeq + 1n - eventCount} seq number(s) in ${firstSeq}–${lastSeq} are not this turn's events (seq is per store: other threads may hold them)`,
    );
  else add('event_sequence', 'pass', `${eventCount} events, seq ${firstSeq}–${lastSeq} without a gap`);
  const s = t.sideEffects;
  const decided = s.approvalAllowed + s.approvalDenied;
  add(
    'approvals',
    decided > s.approvalRequired ? 'fail' : 'pass',
    `${s.approvalRequired} approval(s) required, ${s.approvalAllowed} allowed, ${s.approvalDenied} denied${decided > s.approvalRequired ? ': more decisions than requests' : ''}; ${s.commandExecution} command(s), ${s.fileChange} file change(s), ${s.sandboxDenied} sandbox denial(s)`,
  );
  const started = Date.parse(t.turn.startedAt);
  const ended = Date.parse(t.turn.endedAt);
  if (Number.isNaN(started) || Number.isNaN(ended)) add('duration', 'warning', `started_at or ended_at is not a date (${t.turn.startedAt}, ${t.turn.endedAt})`);
  else if (Math.abs(ended - started - Number(t.turn.durationMs)) > 1000)
    add('duration', 'warning', `duration_ms ${t.turn.durationMs} differs from ended_at − started_at (${ended - started} ms)`);
  else add('duration', 'pass', `${t.turn.durationMs} ms, matching ended_at − started_at`);
  add(
    'claim_ceiling',
    t.claimCeiling.includes('local_receipt_only') ? 'pass' : 'warning',
    t.claimCeiling.length > 0 ? `claims at most: ${t.claimCeiling.join(', ')}` : 'no claim ceiling stated',
  );
  return out;
}
