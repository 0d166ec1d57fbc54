// The compliance view's printable report as data: for a selection (a time
// range and/or one policy hash), what was verified and what was not —
// receipts by verdict, per-check totals (contract §1.2, lib/verify/check-totals),
// checkpoint coverage of each receipt (§5 inclusion, §6 the uncheckpointed
// tail), problems by code (§7) — and coverage over time. Reads the §8 report
// and the explorer's rows; changes neither. Pure.
import type { RowStore } from '../query/row-store';
import { VERDICTS } from '../query/row-store';
import { type CheckTotal, checkTotals } from '../verify/check-totals';
import { UNCHECKPOINTED } from '../verify/check';
import { PROBLEM_CODES, PROBLEM_SEVERITY, PROBLEM_TITLE, type ProblemCode, type Severity } from '../verify/problems';
import type { ReportReceipt, VerificationReport } from '../verify/report';
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
  if (s === 'skipped') return r.details?.inclusion === UNCHECKPOINTED ? 2 : 3;
  return 0;
}

/**
 * Each row's inclusion outcome (an index into INCLUSION), and its report
 * receipt: the report lists receipts in log order, so the row at log position
 * k is report.receipts[k] (as RowStore.applyReport matches them). Null when
 * the rows and the report do not line up (the log is still loading).
 */
export function reportRows(store: RowStore, report: VerificationReport): { inclusion: Uint8Array; receiptOf: (row: number) => ReportReceipt } | null {
  if (store.length !== report.receipts.length) return null;
  const { posOfRow, rowAtPos } = store.positions();
  const inclusion = new Uint8Array(store.length);
  for (let k = 0; k < report.receipts.length; k++) inclusion[rowAtPos[k]!] = inclusionOf(report.receipts[k]!);
  return { inclusion, receiptOf: (row) => report.receipts[posOfRow[row]!]! };
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
  /** Receipts of the whole log. */
  total: number;
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

export function rangeReport(store: RowStore, report: VerificationReport, sel: ComplianceSelection): RangeReport {
  const keep = selectionTest(store, sel);
  const joined = reportRows(store, report);
  const verdicts = { pending: 0, verified: 0, failed: 0, unverified: 0 };
  const inclusion = { verified: emptyTally(), notVerified: emptyTally() };
  const tailByType: Record<string, number> = {};
  const picked: ReportReceipt[] = [];
  const inSel = new Uint8Array(store.length);
  const ranged = sel.since !== undefined || sel.until !== undefined;
  let untimed = 0;
  let first = Infinity;
  let last = -Infinity;
  const verifiedCode = VERDICTS.indexOf('verified');
  // In log order, the order the CLI's per-check totals are counted in.
  const { rowAtPos } = store.positions();
  for (let k = 0; k < rowAtPos.length; k++) {
    const row = rowAtPos[k]!;
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
      picked.push(joined.receiptOf(row));
    }
  }
  const inSelection = verdicts.pending + verdicts.verified + verdicts.failed + verdicts.unverified;
  const { problems, logProblems } = problemCounts(store, report, inSel);
  const cpFailed = report.checkpoints.filter((c) => c.verdict === 'failed').length;
  return {
    selection: sel,
    total: store.length,
    inSelection,
    verdicts,
    untimed,
    first: inSelection && first !== Infinity ? first : NaN,
    last: inSelection && last !== -Infinity ? last : NaN,
    checks: checkTotals(picked),
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
  for (const p of report.problems) {
    const row = p.receipt_id === undefined ? undefined : store.rowById(p.receipt_id);
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
  const make = (code: ProblemCode, problems: number, receipts: number): ProblemCount => ({ code, severity: PROBLEM_SEVERITY[code], title: PROBLEM_TITLE[code], problems, receipts });
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
