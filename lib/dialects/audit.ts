// Other runtimes' receipts in the report (issue 8, contract §5–§8): the
// records RecordVerifier set aside as ZeroClaw or CodeWhale are audited here
// once the whole log is in (a reply's claims need every tool result), into
// report receipts of type `zeroclaw`, `codewhale-review` and `codewhale-turn`,
// their explorer rows, the facts the receipt page shows, and problems.
//
// Honesty rules. A ZeroClaw tag proves anything only to the holder of its key,
// which ZeroClaw never keeps: without the key the `signature` check is
// skipped ("key not available (ephemeral)") and the receipt is at best
// `unverified`. CodeWhale receipts carry no signature at all: their checks are
// integrity (against a diff, within the receipt), never authenticity, so they
// are never `verified`. Pure; HMAC through WebCrypto.
import { bytesEqual } from '../bytes/hex';
import { parseJson } from '../json/parse';
import { compactJson } from '../json/pretty';
import { type JsonObject, type JsonValue, isJsonObject } from '../json/value';
import { ALL_RECEIPT_CHECKS, type CheckResult, fail, pass, skipped, checksAndDetails } from '../verdict/check';

import type { DialectKind } from '../verify/intake';
import { type Problem, makeProblem } from '../verdict/problems';

import type { DialectReceiptType, ReportReceipt, Verdict } from '../verdict/report';
import type { ReceiptView } from '../verdict/receipt-view';
import { checkReviewReceipt, parseReviewReceipt } from './codewhale/review';
import { TURN_SCHEMA_ID, checkTurnReceipt, parseTurnReceipt, type TurnReceipt } from './codewhale/turn';
import { type ClaimOutcome, checkClaims } from './zeroclaw/claims';
import { type ZcCallData, type ZcItem, importZeroclaw } from './zeroclaw/import';
import { hmacKey, hmacSha256, parseZcReceipt, toBase64Url, zcMacInput, zeroclawArgsJson } from './zeroclaw/receipt';

/** A record RecordVerifier set aside: its text (JSON that parses back to the same tree, or the text file) and where it was. */
export interface DialectItem {
  kind: DialectKind;
  text: string;
  /** Path of the value within its record, for messages. */
  path: string;
  file: string;
  line: number;
  order: number;
  space: string;
}

/** What the user supplies: ZeroClaw's HMAC key (tests, debugging), and the diff a CodeWhale review receipt is checked against. */
export interface DialectOptions {
  hmacKey?: Uint8Array;
  diff?: { name: string; fingerprint: string };
}

/** One audited receipt: its report object, its explorer row, and labelled facts for its page. */
export interface DialectReceipt {
  report: ReportReceipt;
  view: ReceiptView;
  facts: [string, string][];
}

export interface DialectAudit {
  /** In log order; `view.order` places each among the log's other receipts. */
  receipts: DialectReceipt[];
  problems: Problem[];
}

const UNSIGNED_REVIEW =
  'CodeWhale review receipts carry no signature or MAC: anyone can write or edit one. Its checks tie it to a diff and read what it says (integrity); they cannot show who reviewed (authenticity).';
const UNSIGNED_TURN =
  'CodeWhale turn receipts carry no signature or MAC: anyone can write or edit one. Its checks are internal consistency (integrity), never authenticity.';

export async function auditDialects(items: readonly DialectItem[], options: DialectOptions = {}): Promise<DialectAudit> {
  const problems: Problem[] = [];
  const rows: { base: number; receipt: DialectReceipt }[] = [];
  const zc: ZcItem[] = [];
  for (const item of items) {
    if (item.kind === 'zc-text') {
      zc.push({ kind: item.kind, value: item.text, file: item.file, line: item.line, order: item.order });
      continue;
    }
    const parsed = parseJson(item.text);
    if (!parsed.ok || !isJsonObject(parsed.value)) continue; // RecordVerifier parsed it already
    const value = parsed.value;
    if (item.kind === 'cw-review') {
      const r = review(value, item, options, problems);
      if (r) rows.push({ base: item.order, receipt: r });
    } else if (item.kind === 'cw-turn') {
      const r = turn(value, item, problems);
      if (r) rows.push({ base: item.order, receipt: r });
    } else zc.push({ kind: item.kind, value, file: item.file, line: item.line, order: item.order });
  }
  // One at a time, not `push(...list)`: a log can hold more receipts than a call takes arguments.
  if (zc.length > 0) for (const row of await zeroclaw(zc, options.hmacKey ? await hmacKey(options.hmacKey) : null, problems)) rows.push(row);
  rows.sort((a, b) => a.base - b.base);
  // Receipts found in one record share its order: spread them over [order, order + 1), which no other item of the log uses.
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j]!.base === rows[i]!.base) j++;
    for (let k = i; k < j; k++) rows[k]!.receipt.view.order = rows[i]!.base + (k - i) / (j - i);
    i = j;
  }
  return { receipts: rows.map((r) => r.receipt), problems };
}

/** The checks in report order (contract §8: those that did not run are left out), and the verdict. */
function finish(
  type: DialectReceiptType,
  id: string,
  results: Partial<Record<string, CheckResult>>,
  where: { file: string; line: number },
  verified: (r: Partial<Record<string, CheckResult>>) => boolean,
): ReportReceipt {
  const ran = checksAndDetails(ALL_RECEIPT_CHECKS, results);
  const verdict: Verdict = Object.values(ran.checks).includes('fail') ? 'failed' : verified(results) ? 'verified' : 'unverified';
  return { id, type, verdict, ...ran, file: where.file, line: where.line };
}

/** The explorer's row: no policy hash or signing key, which these receipts do not have (the readers leave them out by type). */
function view(report: ReportReceipt, fields: Partial<ReceiptView>, time: number | null): ReceiptView {
  return { order: 0, id: report.id, type: report.type, time, file: report.file, line: report.line, ...fields };
}

const seconds = (iso: string): number | null => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
};

// ---------------------------------------------------------------- ZeroClaw

async function zeroclaw(items: ZcItem[], key: CryptoKey | null, problems: Problem[]): Promise<{ base: number; receipt: DialectReceipt }[]> {
  const imported = importZeroclaw(items);
  for (const m of imported.malformed) problems.push(makeProblem('parse_error', m.message, { file: m.file, line: m.line }));
  const outcomes = checkClaims(imported.calls, imported.claims);
  // One row per distinct receipt string, at its first appearance (a tool result, or a claim when no result carries it).
  const byReceipt = new Map<string, { order: number; first: { file: string; line: number }; calls: ZcCallData[]; claims: ClaimOutcome[] }>();
  const entry = (receipt: string, order: number, at: { file: string; line: number }) => {
    let e = byReceipt.get(receipt);
    if (!e) byReceipt.set(receipt, (e = { order, first: { file: at.file, line: at.line }, calls: [], claims: [] }));
    else if (order < e.order) Object.assign(e, { order, first: { file: at.file, line: at.line } });
    return e;
  };
  for (const c of imported.calls) entry(c.receipt, c.order, c).calls.push(c);
  outcomes.forEach((o, i) => entry(o.claim.receipt, imported.claims[i]!.order, o.claim).claims.push(o));
  const rows: { base: number; receipt: DialectReceipt }[] = [];
  for (const [receipt, e] of byReceipt) {
    const results: Record<string, CheckResult> = {};
    const where = { receipt_id: receipt, ...e.first };
    const facts: [string, string][] = [];
    const parsed = parseZcReceipt(receipt);
    const toolName = e.calls.find((c) => c.toolName !== undefined)?.toolName ?? e.claims.find((o) => o.claim.toolName !== undefined)?.claim.toolName;
    if (toolName !== undefined) facts.push(['Tool', toolName]);
    if (!parsed.ok) {
      results.parse = fail('zc_not_a_receipt', parsed.reason);
      problems.push(makeProblem('parse_error', `${receipt}: not a ZeroClaw receipt: ${parsed.reason}`, where));
    } else {
      results.parse = pass();
      facts.push([
        'Receipt time',
        `${new Date(Number(parsed.timestamp) * 1000).toISOString().replace('.000Z', 'Z')} (${parsed.timestamp}, seconds on the runtime's clock)`,
      ]);
      const sig = await zcSignature(parsed, e.calls, key, facts);
      results.signature = sig;
      if (sig.status === 'fail') problems.push(makeProblem('signature_invalid', `${receipt}: ${sig.detail}`, where));
    }
    for (const c of e.calls)
      facts.push([
        'Carried by',
        `${c.via === 'record' ? 'tool-call record' : c.via === 'trace' ? 'trace log event' : c.via === 'debug' ? 'debug log line' : 'tool result'} at ${c.file}:${c.line}`,
      ]);
    if (e.claims.length > 0) {
      const failed = e.claims.filter((o) => o.status === 'fail');
      const unchecked = e.claims.filter((o) => o.status === 'skipped');
      results.claims =
        failed.length > 0
          ? fail(
              'claims_failed',
              failed.map((o) => o.message),
            )
          : unchecked.length > 0
            ? skipped('claims_unchecked', unchecked[0]!.message)
            : pass('claims_matched', e.claims.length);
      for (const o of e.claims) {
        facts.push([
          o.claim.via === 'block' ? 'Listed in a Tool receipts block' : 'Quoted in a reply',
          `${o.claim.file}:${o.claim.line}: ${o.status}${o.status === 'pass' ? '' : `: ${o.message}`}`,
        ]);
        if (o.status === 'fail') problems.push(makeProblem('fabricated_tool_call', o.message, { receipt_id: receipt, file: o.claim.file, line: o.claim.line }));
      }
    }
    facts.push([
      'What it proves',
      'An HMAC-SHA256 tag under a key only the ZeroClaw runtime held, for one receipt scope: with that key it shows this tool ran with these arguments and returned this output; without it, only that the string is well-formed and that replies quote receipts their turn produced.',
    ]);
    const report = finish(
      'zeroclaw',
      receipt,
      results,
      e.first,
      (r) => r.parse?.status === 'pass' && r.signature?.status === 'pass' && (r.claims === undefined || r.claims.status === 'pass'),
    );
    const time = parsed.ok && parsed.timestamp <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(parsed.timestamp) : null;
    rows.push({ base: e.order, receipt: { report, view: view(report, toolName !== undefined ? { toolName } : {}, time), facts } });
  }
  return rows;
}

/**
 * The tag recomputed with the user's key from every copy of the call the log holds. A receipt
 * belongs to one call: every tool-call record carrying it must recompute (a tampered copy beside
 * an intact one fails the receipt), and a transcript's copy decides only when it matches, since it
 * holds the output as the model saw it.
 */
async function zcSignature(
  parsed: { timestamp: bigint; tag: Uint8Array },
  calls: ZcCallData[],
  key: CryptoKey | null,
  facts: [string, string][],
): Promise<CheckResult> {
  // Each copy with its arguments as ZeroClaw serializes them (once), a tool-call record's raw output first.
  const usable = calls
    .filter((c) => c.toolName !== undefined && c.args !== undefined && c.result !== undefined)
    .sort((a, b) => (a.via === 'record' ? 0 : 1) - (b.via === 'record' ? 0 : 1))
    .map((call) => ({ call, args: zeroclawArgsJson(call.args!) }));
  const shown = usable[0];
  if (shown) {
    if (shown.args.ok) facts.push(['Arguments (as ZeroClaw serializes them)', shown.args.text]);
    const result = shown.call.result!;
    facts.push([
      shown.call.via === 'record' ? 'Result' : 'Result (as the model saw it)',
      result.length > 4000 ? `${result.slice(0, 4000)}… (${result.length} characters)` : result,
    ]);
  }
  if (!key) return skipped('key_ephemeral');
  if (!shown) return skipped('zc_call_not_in_log');
  const outcomes = await Promise.all(
    usable.map(async ({ call, args }) => {
      if (!args.ok) return { call, matches: null, reason: args.reason, tag: null };
      const tag = await hmacSha256(key, zcMacInput(call.toolName!, args.text, call.result!, parsed.timestamp));
      return { call, matches: bytesEqual(tag, parsed.tag), reason: '', tag };
    }),
  );
  const where = (c: ZcCallData) => `${c.file}:${c.line}`;
  const forged = outcomes.find((o) => o.call.via === 'record' && o.matches === false);
  if (forged) return fail('zc_tag_forged', forged.call.toolName!, parsed.timestamp, where(forged.call), toBase64Url(forged.tag!));
  const good = outcomes.find((o) => o.matches === true);
  if (good) return pass('zc_tag_recomputed', good.call.toolName!, parsed.timestamp, where(good.call));
  const unreadable = outcomes.find((o) => o.matches === null);
  if (unreadable && !outcomes.some((o) => o.matches === false)) return skipped('zc_args_unserializable', unreadable.reason);
  // A transcript holds the output after ZeroClaw's truncation and media rewriting, not the raw output it MACed.
  const seen = outcomes.find((o) => o.matches === false)!.call;
  return skipped('zc_transcript_differs', where(seen));
}

// ---------------------------------------------------------------- CodeWhale

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
  const v = view(report, { toolName: `review ${r.target}`, decision: status, reason: r.unresolvedRisk.summary }, seconds(r.generatedAt));
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
  const v = view(report, { toolName: `turn ${t.turn.status}`, decision: t.turn.status, sessionId: t.thread.id }, seconds(t.turn.startedAt));
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
