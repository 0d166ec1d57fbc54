// The compliance view's printable report as data: for a selection (a time
// range and/or one policy hash), what was verified and what was not —
// receipts by verdict, per-check totals (contract §1.2, lib/verify/check-totals),
// checkpoint coverage of each receipt (§5 inclusion, §6 the uncheckpointed
// tail), problems by code (§7) — and coverage over time. Reads the §8 report
// and the explorer's rows; changes neither. Pure.
import type { RowStore } from '../query/row-store';
import { VERDICTS } from '../query/row-store';
import { otherRuntimeTypeFlags } from '../query/runtimes';
import { CHECK_ORDER, type CheckTotal } from '../verify/check-totals';
import { checkCodeOf } from '../verdict/check-text';
import { LESSER_SEVERITY, PROBLEM_CODES, PROBLEM_SEVERITY, PROBLEM_TITLE, type ProblemCode, type Severity } from '../verdict/problems';
import type { ReportReceipt, VerificationReport } from '../verdict/report';
import { type ComplianceSelection, selectionTest } from './compliance';

/** A receipt's inclusion outcome (§5): by a checkpoint, in the tail, not covered (skipped otherwise), failed, or not run. */
export const INCLUSION = ['notRun', 'checkpointed', 'tail', 'notCovered', 'failed'] as const;
export type Inclusion = (typeof INCLUSION)[number];
export type InclusionTally = Record<Inclusion, number>;

const emptyTally = (): InclusionTally => ({ notRun: 0, checkpointed: 0, tail: 0, notCovered: 0, failed: 0 });

function inclusionOf(r: ReportReceipt): number {
  const s = r.checks.inclusion;
  if (s === 'pass') return 1;
  if (s === 'fail') return 4;
  if (s === 'skipped') return checkCodeOf(r.details?.inclusion) === 'uncheckpointed' ? 2 : 3;
  return 0;
}

/** One check's outcome per row: 0 not run, 1 pass, 2 fail, 3 skipped (with `reason[row]` into `reasons`). */
export interface CheckColumn {
  name: string;
  status: Uint8Array;
  reason: Uint32Array;
  reasons: string[];
}

/** The report's per-receipt outcomes as columns over the rows, computed once per report. */
export interface ReportColumns {
  /** Each row's inclusion outcome, an index into INCLUSION. */
  inclusion: Uint8Array;
  checks: CheckColumn[];
}

const STATUS: Record<string, number> = { pass: 1, fail: 2, skipped: 3 };

/**
 * The report's receipts as columns over the rows: the report lists receipts
 * in log order, so the row at log position k is report.receipts[k] (as
 * RowStore.applyReport matches them). Null when the rows and the report do
 * not line up (the log is still loading). Any selection then totals its
 * checks with a scan of typed arrays, not of a hundred thousand objects.
 */
export function reportColumns(store: RowStore, report: VerificationReport): ReportColumns | null {
  if (store.length !== report.receipts.length) return null;
  const { rowAtPos } = store.positions();
  const n = store.length;
  const inclusion = new Uint8Array(n);
  const byName = new Map<string, CheckColumn & { reasonCode: Map<string, number> }>();
  for (let k = 0; k < n; k++) {
    const r = report.receipts[k]!;
    const row = rowAtPos[k]!;
    inclusion[row] = inclusionOf(r);
    for (const name in r.checks) {
      let col = byName.get(name);
      if (!col) byName.set(name, (col = { name, status: new Uint8Array(n), reason: new Uint32Array(n), reasons: [], reasonCode: new Map() }));
      const st = STATUS[r.checks[name]!] ?? 3;
      col.status[row] = st;
      if (st === 3) {
        const why = r.details?.[name] ?? 'no reason given';
        let code = col.reasonCode.get(why);
        if (code === undefined) col.reasonCode.set(why, (code = col.reasons.push(why) - 1));
        col.reason[row] = code;
      }
    }
  }
  return { inclusion, checks: [...byName.values()].map(({ name, status, reason, reasons }) => ({ name, status, reason, reasons })) };
}

/**
 * Per-check totals over `rows` (in log order), as lib/verify/check-totals
 * counts them over report receipts: a check appears once some row ran it;
 * skip reasons in order of first appearance; contract order.
 */
export function columnCheckTotals(columns: ReportColumns, rows: Uint32Array): CheckTotal[] {
  const out: { total: CheckTotal; first: number }[] = [];
  for (const col of columns.checks) {
    let pass = 0;
    let fail = 0;
    let first = -1;
    const skipCount = new Uint32Array(col.reasons.length);
    const skipOrder: number[] = [];
    for (let j = 0; j < rows.length; j++) {
      const st = col.status[rows[j]!]!;
      if (st === 0) continue;
      if (first < 0) first = j;
      if (st === 1) pass++;
      else if (st === 2) fail++;
      else {
        const c = col.reason[rows[j]!]!;
        if (skipCount[c]!++ === 0) skipOrder.push(c);
      }
    }
    if (first >= 0) out.push({ total: { name: col.name, pass, fail, skipped: new Map(skipOrder.map((c) => [col.reasons[c]!, skipCount[c]!])) }, first });
  }
  // checkTotals meets checks in the order receipts list them; then it sorts by contract order.
  const rank = (name: string) => (CHECK_ORDER.includes(name) ? CHECK_ORDER.indexOf(name) : CHECK_ORDER.length);
  return out.sort((a, b) => rank(a.total.name) - rank(b.total.name) || a.first - b.first).map((o) => o.total);
}

export interface ProblemCount {
  code: ProblemCode;
  severity: Severity;
  title: string;
  problems: number;
  /** Distinct receipts of the selection the code names (0 for problems not tied to a receipt). */
  receipts: number;
}

export interface RangeReport {
  selection: ComplianceSelection;
  /** Chio receipts of the whole log (the report reads Chio receipts: policies, checkpoints, signers). */
  total: number;
  /** ZeroClaw and CodeWhale receipts of the log, left out of every figure here. */
  otherRuntimes: number;
  /** Receipts in the selection, and those by verdict. */
  inSelection: number;
  verdicts: Record<(typeof VERDICTS)[number], number>;
  /** Receipts of the log with no usable time: outside every range (0 when no range is set). */
  untimed: number;
  /** Earliest and latest time among the receipts in the selection (NaN when none). */
  first: number;
  last: number;
  checks: CheckTotal[];
  /** Checkpoint coverage of the selection's receipts: verified ones, and the others. */
  inclusion: { verified: InclusionTally; notVerified: InclusionTally };
  /** The verified receipts in the uncheckpointed tail, by type (kernels do not checkpoint child receipts). */
  tailByType: Record<string, number>;
  /** Problems naming a receipt of the selection, by code in contract order. */
  problems: ProblemCount[];
  /** Problems of the whole log that name no receipt it holds (checkpoints, unreadable lines, files). */
  logProblems: ProblemCount[];
  checkpoints: { total: number; verified: number; failed: number };
}

export function rangeReport(
  store: RowStore,
  report: VerificationReport,
  sel: ComplianceSelection,
  columns: ReportColumns | null = reportColumns(store, report),
): RangeReport {
  const keep = selectionTest(store, sel);
  const joined = columns;
  const verdicts = { pending: 0, verified: 0, failed: 0, unverified: 0, unpinned: 0 };
  const inclusion = { verified: emptyTally(), notVerified: emptyTally() };
  const tailByType: Record<string, number> = {};
  const picked = new Uint32Array(store.length);
  let nPicked = 0;
  const inSel = new Uint8Array(store.length);
  const ranged = sel.since !== undefined || sel.until !== undefined;
  let untimed = 0;
  let first = Infinity;
  let last = -Infinity;
  const verifiedCode = VERDICTS.indexOf('verified');
  const other = otherRuntimeTypeFlags(store);
  let otherRuntimes = 0;
  // In log order, the order the CLI's per-check totals are counted in.
  const { rowAtPos } = store.positions();
  for (let k = 0; k < rowAtPos.length; k++) {
    const row = rowAtPos[k]!;
    if (other[store.codes.type[row]!]) {
      otherRuntimes++;
      continue;
    }
    const t = store.time[row]!;
    if (ranged && Number.isNaN(t)) untimed++;
    if (keep && !keep(row)) continue;
    inSel[row] = 1;
    const v = store.verdict[row]!;
    verdicts[VERDICTS[v]!]++;
    if (t < first) first = t;
    if (t > last) last = t;
    if (joined) {
      inclusion[v === verifiedCode ? 'verified' : 'notVerified'][INCLUSION[joined.inclusion[row]!]!]++;
      if (v === verifiedCode && joined.inclusion[row] === 2) {
        const type = store.str('type', row) ?? '';
        tailByType[type] = (tailByType[type] ?? 0) + 1;
      }
      picked[nPicked++] = row;
    }
  }
  const inSelection = verdicts.pending + verdicts.verified + verdicts.failed + verdicts.unverified + verdicts.unpinned;
  const { problems, logProblems } = problemCounts(store, report, inSel);
  const cpFailed = report.checkpoints.filter((c) => c.verdict === 'failed').length;
  return {
    selection: sel,
    total: store.length - otherRuntimes,
    otherRuntimes,
    inSelection,
    verdicts,
    untimed,
    first: inSelection && first !== Infinity ? first : NaN,
    last: inSelection && last !== -Infinity ? last : NaN,
    checks: joined ? columnCheckTotals(joined, picked.subarray(0, nPicked)) : [],
    inclusion,
    tailByType,
    problems,
    logProblems,
    checkpoints: { total: report.checkpoints.length, verified: report.checkpoints.length - cpFailed, failed: cpFailed },
  };
}

function problemCounts(store: RowStore, report: VerificationReport, inSel: Uint8Array): { problems: ProblemCount[]; logProblems: ProblemCount[] } {
  const tied = new Map<ProblemCode, { problems: number; rows: Set<number> }>();
  const loose = new Map<ProblemCode, number>();
  // A code's severity as raised here (duplicate_receipt_id is a warning for identical copies).
  const errors = new Set<ProblemCode>();
  for (const p of report.problems) {
    if (p.severity === 'error') errors.add(p.code);
    // The copy the problem was found at (one id can name several receipts).
    const row = p.receipt_id === undefined ? undefined : store.rowsAt(p.receipt_id, p.file, p.line)[0];
    if (row === undefined) {
      loose.set(p.code, (loose.get(p.code) ?? 0) + 1);
      continue;
    }
    if (!inSel[row]) continue;
    let t = tied.get(p.code);
    if (!t) tied.set(p.code, (t = { problems: 0, rows: new Set() }));
    t.problems++;
    t.rows.add(row);
  }
  const severity = (code: ProblemCode) => (LESSER_SEVERITY[code] !== undefined && !errors.has(code) ? LESSER_SEVERITY[code] : PROBLEM_SEVERITY[code]);
  const make = (code: ProblemCode, problems: number, receipts: number): ProblemCount => ({
    code,
    severity: severity(code),
    title: PROBLEM_TITLE[code],
    problems,
    receipts,
  });
  return {
    problems: PROBLEM_CODES.flatMap((c) => (tied.has(c) ? [make(c, tied.get(c)!.problems, tied.get(c)!.rows.size)] : [])),
    logProblems: PROBLEM_CODES.flatMap((c) => (loose.has(c) ? [make(c, loose.get(c)!, 0)] : [])),
  };
}

// ---------------------------------------------------- coverage over time

/** Bucket widths tried, in seconds: the first giving at most MAX_BUCKETS is used. */
const WIDTHS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400];
export const MAX_BUCKETS = 72;

export interface CoverageOverTime {
  /** Seconds per bucket. */
  width: number;
  /** Unix seconds each bucket starts at (aligned to the width, in UTC). */
  starts: number[];
  checkpointed: number[];
  tail: number[];
}

/** The rows (verified ones, as the caller passes them) per time bucket: checkpointed, and in the uncheckpointed tail. */
export function coverageOverTime(store: RowStore, rows: Uint32Array, inclusion: Uint8Array): CoverageOverTime {
  let lo = Infinity;
  let hi = -Infinity;
  for (let j = 0; j < rows.length; j++) {
    const t = store.time[rows[j]!]!;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  if (lo === Infinity) return { width: 3600, starts: [], checkpointed: [], tail: [] };
  let width = WIDTHS[WIDTHS.length - 1]!;
  for (const w of WIDTHS) {
    if (Math.floor(hi / w) - Math.floor(lo / w) + 1 <= MAX_BUCKETS) {
      width = w;
      break;
    }
  }
  const base = Math.floor(lo / width);
  const n = Math.min(Math.floor(hi / width) - base + 1, 100_000);
  const checkpointed = new Array<number>(n).fill(0);
  const tail = new Array<number>(n).fill(0);
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j]!;
    const t = store.time[r]!;
    if (Number.isNaN(t)) continue;
    const b = Math.min(Math.floor(t / width) - base, n - 1);
    if (inclusion[r] === 1) checkpointed[b]!++;
    else if (inclusion[r] === 2) tail[b]!++;
  }
  return { width, starts: Array.from({ length: n }, (_, i) => (base + i) * width), checkpointed, tail };
}
