// What a page says first about a verified log (issue 21): one honest sentence and the facts that
// qualify it. It names what was verified, what failed and what was left out (records that could
// not be read, receipts not fully checked, the uncheckpointed tail, an unpinned signer), so no
// headline counts only the receipts that were read. A log that dropped a record is never `ok`;
// a log with nothing in it is `empty` ("No receipts found"), never green. Pure: pages render it.
import { checkCodeOf } from '../verdict/check-text';
import { isDroppedRecord } from '../verdict/problems';
import { type VerificationReport, checkpointState, isIntactUnpinned, logState } from '../verdict/report';

/** `partial`: nothing failed, but some receipts could not be fully checked (amber, never green). */
export type HeadlineTone = 'ok' | 'partial' | 'unpinned' | 'failed' | 'empty';

export interface LogHeadline {
  tone: HeadlineTone;
  title: string;
  /** What the title leaves out or qualifies, a sentence each (empty when there is nothing to add). */
  facts: string[];
}

/** Counts of what a headline speaks of, from one pass over the report. */
export interface LogTally {
  receipts: number;
  verified: number;
  failed: number;
  /** Intact, but no pinned key vouches for the signer (part 2 §11). */
  unpinned: number;
  /** Not failed, not verified, not merely unpinned. */
  unverified: number;
  /** Records left out because they could not be read. */
  unreadable: number;
  /** Where the first of them is, when known ("receipts.ndjson:6"). */
  firstUnreadable: string | null;
  /** Receipts whose inclusion is not checked because no checkpoint covers them yet. */
  tail: number;
  checkpoints: number;
  checkpointsFailed: number;
  checkpointsUnpinned: number;
  lineageFailed: number;
  packageChecksFailed: number;
  /** Errors about the log as a whole (not a receipt's, a checkpoint's or an unreadable record's). */
  logErrors: number;
  warnings: number;
}

const n = (x: number) => x.toLocaleString('en-US');
const count = (x: number, one: string, many: string) => `${n(x)} ${x === 1 ? one : many}`;

export function tallyLog(report: VerificationReport): LogTally {
  const s = report.summary;
  let unpinned = 0;
  let tail = 0;
  for (const r of report.receipts) {
    if (isIntactUnpinned(r)) unpinned++;
    if (r.checks.inclusion === 'skipped' && checkCodeOf(r.details?.inclusion) === 'uncheckpointed') tail++;
  }
  const dropped = report.problems.filter(isDroppedRecord);
  const first = dropped[0];
  let logErrors = 0;
  let warnings = 0;
  for (const p of report.problems) {
    if (p.severity === 'warning') warnings++;
    else if (!isDroppedRecord(p) && p.code !== 'signer_not_pinned' && p.receipt_id === undefined && p.checkpoint_seq === undefined) logErrors++;
  }
  return {
    receipts: s.receipts,
    verified: s.verified,
    failed: s.failed,
    unpinned,
    unverified: s.unverified - unpinned,
    // The report's exact count (problems past the cap are summarised); older reports: the problems.
    unreadable: s.unreadable ?? dropped.length,
    firstUnreadable: first?.file ? `${first.file}${first.line !== undefined ? `:${first.line}` : ''}` : null,
    tail,
    checkpoints: s.checkpoints,
    checkpointsFailed: report.checkpoints.filter((c) => c.verdict === 'failed').length,
    checkpointsUnpinned: report.checkpoints.filter((c) => checkpointState(c) === 'unpinned').length,
    lineageFailed: (report.lineage ?? []).filter((l) => l.verdict === 'failed').length,
    packageChecksFailed: report.packages.reduce((k, p) => k + Object.values(p.checks).filter((v) => v === 'fail').length, 0),
    logErrors,
    warnings,
  };
}

/** The sentences that qualify any headline: what was left out, and why. */
export function leftOutFacts(t: LogTally): string[] {
  const facts: string[] = [];
  if (t.unreadable > 0) {
    facts.push(
      `${count(t.unreadable, 'record', 'records')} could not be read and ${t.unreadable === 1 ? 'is' : 'are'} in no count here${t.firstUnreadable ? ` (the first at ${t.firstUnreadable})` : ''}: the log is incomplete.`,
    );
  }
  if (t.unpinned > 0)
    facts.push(`${count(t.unpinned, 'receipt is', 'receipts are')} intact, but no pinned key vouches for who signed ${t.unpinned === 1 ? 'it' : 'them'}.`);
  if (t.unverified > 0)
    facts.push(
      `${count(t.unverified, 'receipt', 'receipts')} could not be fully checked (what vouches for ${t.unverified === 1 ? 'it' : 'them'} failed or is missing).`,
    );
  if (t.tail > 0)
    facts.push(
      `${count(t.tail, 'receipt comes', 'receipts come')} after the last checkpoint: ${t.tail === 1 ? 'its' : 'their'} inclusion in a signed checkpoint is not checked yet.`,
    );
  if (t.checkpoints === 0 && t.receipts > 0) facts.push('The log has no checkpoints: no receipt is anchored in a signed Merkle tree.');
  if (t.warnings > 0) facts.push(`${count(t.warnings, 'warning', 'warnings')} (see the problems).`);
  return facts;
}

/** What failed, as the parts of one sentence. */
function failedParts(t: LogTally): string[] {
  const parts: string[] = [];
  if (t.failed > 0) parts.push(`${count(t.failed, 'receipt', 'receipts')} failed`);
  if (t.checkpointsFailed > 0) parts.push(`${count(t.checkpointsFailed, 'checkpoint', 'checkpoints')} failed`);
  if (t.unreadable > 0) parts.push(`${count(t.unreadable, 'record', 'records')} could not be read`);
  if (t.lineageFailed > 0) parts.push(`${count(t.lineageFailed, 'capability lineage row', 'capability lineage rows')} failed`);
  if (t.packageChecksFailed > 0) parts.push(`${count(t.packageChecksFailed, 'package check', 'package checks')} failed`);
  if (t.logErrors > 0) parts.push(`${count(t.logErrors, 'error', 'errors')} about the log as a whole`);
  return parts;
}

/**
 * The headline of a verified log. `forked`: the load contradicts checkpoints this browser
 * remembers (then nothing else matters first).
 */
export function logHeadline(report: VerificationReport, opts: { forked?: boolean } = {}): LogHeadline {
  const t = tallyLog(report);
  const facts = leftOutFacts(t);
  if (opts.forked) {
    return { tone: 'failed', title: 'Stop: this log contradicts the checkpoints this browser verified before (a fork or a rollback, see above).', facts };
  }
  const state = logState(report);
  if (state === 'failed') {
    const parts = failedParts(t);
    const verified = `${n(t.verified)} of ${count(t.receipts, 'receipt', 'receipts')} read verified`;
    return {
      tone: 'failed',
      title: parts.length ? `Verification failed: ${joinParts(parts)}. ${cap(verified)}.` : `Something failed verification. ${cap(verified)}.`,
      facts,
    };
  }
  if (t.receipts === 0 && t.checkpoints === 0 && t.unreadable === 0) {
    return { tone: 'empty', title: 'No receipts found: nothing was verified.', facts };
  }
  if (state === 'unpinned') {
    return { tone: 'unpinned', title: 'Intact, signer not pinned: nothing failed, but nothing is verified until you pin the kernel’s key.', facts };
  }
  const cps =
    t.checkpoints > 0 ? ` and ${n(t.checkpoints - t.checkpointsFailed - t.checkpointsUnpinned)} of ${count(t.checkpoints, 'checkpoint', 'checkpoints')}` : '';
  const title = `Nothing failed: ${n(t.verified)} of ${count(t.receipts, 'receipt', 'receipts')}${cps} verified under pinned keys.`;
  // Green only when every receipt read is verified (a dropped record is an error, so `failed` above).
  return { tone: t.verified === t.receipts && t.unpinned === 0 ? 'ok' : 'partial', title, facts };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function joinParts(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

const TONE_WORD: Record<HeadlineTone, string> = {
  ok: 'verified',
  partial: 'partly verified',
  unpinned: 'intact, signer not pinned',
  failed: 'failed',
  empty: 'no receipts found',
};

/** The headline in one short line for the log bar: "failed: 279 of 279 receipts verified, 1 record unreadable". */
export function logStatusLine(report: VerificationReport): { tone: HeadlineTone; text: string } {
  const { tone } = logHeadline(report);
  const t = tallyLog(report);
  if (tone === 'empty') return { tone, text: TONE_WORD.empty };
  if (tone === 'unpinned')
    return { tone, text: `${TONE_WORD.unpinned}: ${count(t.receipts, 'receipt', 'receipts')}, none verified until the kernel’s key is pinned` };
  const parts = [`${n(t.verified)} of ${count(t.receipts, 'receipt', 'receipts')} verified`];
  if (t.failed > 0) parts.push(`${n(t.failed)} failed`);
  if (t.unpinned > 0) parts.push(`${n(t.unpinned)} intact, signer not pinned`);
  if (t.unreadable > 0) parts.push(`${count(t.unreadable, 'record', 'records')} unreadable`);
  if (t.checkpointsFailed > 0) parts.push(`${count(t.checkpointsFailed, 'checkpoint', 'checkpoints')} failed`);
  return { tone, text: `${TONE_WORD[tone]}: ${parts.join(', ')}` };
}
