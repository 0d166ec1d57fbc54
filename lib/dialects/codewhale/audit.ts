// CodeWhale's receipts in the report (issue 8, other-dialects.md §2): review
// receipts (schema_version 1) and the draft turn receipts, each audited on its
// own once the log is in, into report receipts of type `codewhale-review` and
// `codewhale-turn`, explorer rows, facts for the receipt page, and problems
// (`review_gate_failed`, `turn_receipt_inconsistent`, `parse_error`).
//
// Honesty rule: CodeWhale receipts carry no signature at all: their checks are
// integrity (against a diff, within the receipt), never authenticity, so they
// are never `verified`. Pure.
import { compactJson } from '../../json/pretty';
import { parseJson } from '../../json/parse';
import { type JsonObject, type JsonValue, isJsonObject } from '../../json/value';
import { type CheckResult, fail, pass, skipped } from '../../verdict/check';
import type { DialectAudit, DialectItem, DialectOptions, DialectReceipt } from '../../verdict/family';
import { type Problem, makeProblem } from '../../verdict/problems';
import { finish, seconds, view } from '../receipt-row';
import { checkReviewReceipt, parseReviewReceipt } from './review';
import { TURN_SCHEMA_ID, type TurnReceipt, checkTurnReceipt, parseTurnReceipt } from './turn';

const UNSIGNED_REVIEW =
  'CodeWhale review receipts carry no signature or MAC: anyone can write or edit one. Its checks tie it to a diff and read what it says (integrity); they cannot show who reviewed (authenticity).';
const UNSIGNED_TURN =
  'CodeWhale turn receipts carry no signature or MAC: anyone can write or edit one. Its checks are internal consistency (integrity), never authenticity.';

/** Audits the CodeWhale records of a log, review receipts against the diff when the user supplied it. */
export async function auditCodewhale(items: readonly DialectItem[], options: DialectOptions): Promise<DialectAudit> {
  const problems: Problem[] = [];
  const receipts: DialectReceipt[] = [];
  for (const item of items) {
    const parsed = parseJson(item.text);
    if (!parsed.ok || !isJsonObject(parsed.value)) continue; // RecordVerifier parsed it already
    const r = item.kind === 'cw-review' ? review(parsed.value, item, options, problems) : turn(parsed.value, item, problems);
    if (r) receipts.push(r);
  }
  return { receipts, problems };
}

function shapeFailure(reason: string, item: DialectItem, problems: Problem[], what: string): null {
  problems.push(makeProblem('parse_error', `${item.path === '$' ? '' : `${item.path}: `}not a ${what}: ${reason}`, { file: item.file, line: item.line }));
  return null;
}

function review(value: JsonObject, item: DialectItem, options: DialectOptions, problems: Problem[]): DialectReceipt | null {
  const parsed = parseReviewReceipt(value);
  if (!parsed.ok) return shapeFailure(parsed.reason, item, problems, 'CodeWhale review receipt (schema_version 1 requires every field)');
  const r = parsed.receipt;
  const id = `review-${compactTime(r.generatedAt)}-${r.diffFingerprint.replace(/^sha256:/, '').slice(0, 12)}`;
  const where = { receipt_id: id, file: item.file, line: item.line };
  const results: Record<string, CheckResult> = { parse: pass(), signature: skipped('unsigned') };
  results.schema = r.schemaVersion === 1n ? pass('review_schema_v1') : fail('review_schema_unsupported', r.schemaVersion);
  const fp = options.diff?.fingerprint;
  results.diff_fingerprint =
    fp === undefined
      ? skipped('no_diff')
      : r.diffFingerprint === fp
        ? pass('diff_matches', options.diff!.name, fp)
        : fail('diff_differs', r.diffFingerprint, options.diff!.name, fp);
  results.unresolved_risk = r.unresolvedRisk.unresolved ? fail('risk_unresolved', r.unresolvedRisk.summary) : pass('risk_resolved', r.unresolvedRisk.level);
  const gate = checkReviewReceipt(r, fp);
  const bad = r.checksRun.find((c) => !['passed', 'pass', 'success', 'ok'].includes(c.status.trim().toLowerCase()));
  results.checks_run = bad
    ? fail('attached_check_failed', bad.name, bad.status)
    : r.checksRun.length === 0
      ? pass('no_attached_checks')
      : pass('attached_checks_passed', r.checksRun.length);
  results.review_gate = !gate.passed
    ? fail('review_gate_failed', gate.status, gate.reason, gate.diffChecked)
    : gate.diffChecked
      ? pass('review_gate_valid', gate.reason)
      : skipped('review_gate_needs_diff');
  if (results.review_gate.status === 'fail')
    problems.push(makeProblem('review_gate_failed', `${id}: codewhale review --check-receipt would fail: ${results.review_gate.detail}`, where));
  const report = finish('codewhale-review', id, results, item, () => false);
  /** CodeWhale's own `--check-receipt --json` status, where it can be told without running CodeWhale. */
  const status = gate.diffChecked || !gate.passed ? gate.status : 'unchecked';
  const facts: [string, string][] = [
    ['Unsigned', UNSIGNED_REVIEW],
    ['Mode', r.mode === 'pre_push_review' ? r.mode : `${r.mode} (CodeWhale writes pre_push_review; it does not check this field)`],
    ['Target', r.target],
    ['Generated at', r.generatedAt],
    ['Reviewer', `${r.provider} / ${r.model}`],
    ['Diff fingerprint', `${r.diffFingerprint} (${r.diffBytes} bytes, ${r.diffLines} lines)`],
    ['Findings', `${r.findings.issueCount} issue(s), ${r.findings.suggestionCount} suggestion(s), highest severity ${r.findings.highestSeverity}`],
    ...r.findings.issues.map((i): [string, string] => [
      'Issue',
      `${i.severity}: ${i.title}${i.path !== null ? ` (${i.path}${i.line !== null ? `:${i.line}` : ''})` : ''}`,
    ]),
    ['Summary', r.findings.summary],
    ['Unresolved risk', r.unresolvedRisk.summary],
    ...r.checksRun.map((c): [string, string] => ['Attached check', `${c.name}: ${c.status}`]),
    ['Review content SHA-256', `${r.reviewContentSha256} (of the review text, which the receipt does not hold: not checked)`],
    ['CodeWhale status', status === 'unchecked' ? 'not determined without the diff' : status],
  ];
  const v = view(report, item.order, { toolName: `review ${r.target}`, decision: status, reason: r.unresolvedRisk.summary }, seconds(r.generatedAt));
  return { report, view: v, facts };
}

/** `2026-06-21T17:21:50Z` as CodeWhale names its receipt files: `20260621T172150Z`. */
function compactTime(iso: string): string {
  const compact = iso.replace(/[-:]/g, '');
  return /^[0-9A-Za-z.+]+$/.test(compact) ? compact : 'undated';
}

function turn(value: JsonObject, item: DialectItem, problems: Problem[]): DialectReceipt | null {
  const parsed = parseTurnReceipt(value);
  if (!parsed.ok) return shapeFailure(parsed.reason, item, problems, `${TURN_SCHEMA_ID} turn receipt`);
  const t = parsed.receipt;
  const id = t.turn.id;
  const where = { receipt_id: id, file: item.file, line: item.line };
  const results: Record<string, CheckResult> = { parse: pass(), signature: skipped('unsigned') };
  for (const f of checkTurnReceipt(t)) {
    results[f.rule] =
      f.status === 'fail'
        ? fail('turn_rule_failed', f.detail)
        : f.status === 'warning'
          ? pass('turn_rule_warning', f.detail)
          : pass('turn_rule_passed', f.detail);
    if (f.status === 'fail') problems.push(makeProblem('turn_receipt_inconsistent', `${id}: ${f.rule}: ${f.detail}`, where));
  }
  const report = finish('codewhale-turn', id, results, item, () => false);
  const facts = turnFacts(t, value);
  const v = view(report, item.order, { toolName: `turn ${t.turn.status}`, decision: t.turn.status, sessionId: t.thread.id }, seconds(t.turn.startedAt));
  return { report, view: v, facts };
}

function turnFacts(t: TurnReceipt, value: JsonObject): [string, string][] {
  const s = t.sideEffects;
  const usage = value.get('usage_evidence');
  const usageText = isJsonObject(usage) && usage.get('usage') !== undefined ? compactJson(usage.get('usage') as JsonValue) : 'none';
  return [
    ['Unsigned', UNSIGNED_TURN],
    [
      'Draft',
      `${TURN_SCHEMA_ID} is a protocol note in CodeWhale's docs with no implementation yet: the checks are this project's consistency rules, not CodeWhale's`,
    ],
    [
      'Thread',
      `${t.thread.id}: ${t.thread.model}, mode ${t.thread.mode}; auto_approve ${t.thread.autoApprove}, trust_mode ${t.thread.trustMode}, allow_shell ${t.thread.allowShell}`,
    ],
    ['Turn', `${t.turn.id}: ${t.turn.status}, ${t.turn.startedAt} → ${t.turn.endedAt} (${t.turn.durationMs} ms)`],
    [
      'Reasoning custody',
      `raw reasoning exported: ${t.reasoningCustody.rawReasoningExported}; available: ${t.reasoningCustody.available} (${t.reasoningCustody.reason})`,
    ],
    [
      'Tool lineage',
      `${t.toolLineage.toolCallCount} call(s), ${t.toolLineage.toolResultCount} result(s); unmatched calls: ${t.toolLineage.unmatchedToolCallIds.join(', ') || 'none'}; unmatched results: ${t.toolLineage.unmatchedToolResultIds.join(', ') || 'none'}`,
    ],
    [
      'Event sequence',
      `seq ${t.events.firstSeq}–${t.events.lastSeq}, ${t.events.eventCount} event(s); missing ranges: ${t.events.missingRanges.length === 0 ? 'none' : t.events.missingRanges.map(compactJson).join(', ')}`,
    ],
    ['Approvals', `${s.approvalRequired} required, ${s.approvalAllowed} allowed, ${s.approvalDenied} denied`],
    ['Side effects', `${s.commandExecution} command(s), ${s.fileChange} file change(s), ${s.sandboxDenied} sandbox denial(s)`],
    ['Usage evidence', t.usageAvailable ? usageText : 'unavailable'],
    ['Claim ceiling', t.claimCeiling.join(', ') || 'none stated'],
  ];
}
