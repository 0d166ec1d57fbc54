// The security view's numbers (issue 5, item 4): what the guards blocked, by
// whom and over time, the deny rate per tool server, and what failed
// verification. Denial numbers count verified receipts only (the scope);
// verification failures are about the receipts that did NOT verify, read
// from the report (contract §7–§8). Pure: single passes over the RowStore's
// typed columns, no per-row objects; links are built with the explorer's own
// URL codec, each one filtering to exactly the rows its number counts.
import { type ExplorerFilter, explorerUrl } from '../query/explorer-filter';
import { type RowStore, type RowVerdict, VERDICTS } from '../query/row-store';
import { PROBLEM_CODES, type ProblemCode } from '../verdict/problems';
import type { VerificationReport } from '../verdict/report';
import type { VerifiedScope } from './scope';

/** The explorer filtered by `values` (and a time range), as a link. */
export function explorerLink(values: ExplorerFilter['values'], range?: { since?: number; until?: number }): string {
  return explorerUrl({ values, ...range });
}

/** Verified receipts only: every denial link carries this, so the explorer shows the rows the number counts. */
const VERIFIED = { verdict: ['verified'] };

export interface Tally {
  /** The guard, tool or server; '' when the receipt names none. */
  key: string;
  count: number;
  href: string;
}

export interface ServerRate {
  server: string;
  /** Verified calls with a decision (allow, deny, cancelled, incomplete). */
  calls: number;
  denied: number;
  /** denied / calls, 0–1. */
  rate: number;
  /** The explorer on this server's verified denials. */
  href: string;
  /** The explorer on all of this server's verified receipts. */
  callsHref: string;
}

export interface DenialTotals {
  /** Verified tool and HTTP receipts that carry a decision (trace observations and advisory evaluations carry none). */
  calls: number;
  denied: number;
  deniedHref: string;
  byGuard: Tally[];
  byTool: Tally[];
  servers: ServerRate[];
}

/** Codes of `value` in a column, or -1 when the log never had it (so it matches nothing). */
const codeOf = (store: RowStore, column: 'decision' | 'type', value: string) => store.dict[column].lookup(value) ?? -1;

/** Denials by blocking guard, by tool and by tool server, over the verified scope. One pass. */
export function denialTotals(store: RowStore, scope: VerifiedScope): DenialTotals {
  const deny = codeOf(store, 'decision', 'deny');
  const tool = codeOf(store, 'type', 'tool');
  const http = codeOf(store, 'type', 'http');
  const { decision, guard, toolName, toolServer, type } = store.codes;
  const byGuard = new Uint32Array(store.dict.guard.values.length);
  const byTool = new Uint32Array(store.dict.toolName.values.length);
  const calls = new Uint32Array(store.dict.toolServer.values.length);
  const denied = new Uint32Array(store.dict.toolServer.values.length);
  let nCalls = 0;
  let nDenied = 0;
  for (const row of scope.rows) {
    const t = type[row]!;
    if ((t !== tool && t !== http) || decision[row] === 0) continue;
    nCalls++;
    calls[toolServer[row]!]!++;
    if (decision[row] !== deny) continue;
    nDenied++;
    denied[toolServer[row]!]!++;
    byGuard[guard[row]!]!++;
    byTool[toolName[row]!]!++;
  }
  const tallies = (counts: Uint32Array, values: string[], column: 'guard' | 'toolName'): Tally[] => {
    const out: Tally[] = [];
    counts.forEach((count, code) => {
      if (count === 0) return;
      const key = values[code]!;
      out.push({ key, count, href: explorerLink({ ...VERIFIED, decision: ['deny'], ...(code === 0 ? {} : { [column]: [key] }) }) });
    });
    return out.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
  };
  const servers: ServerRate[] = [];
  calls.forEach((n, code) => {
    if (n === 0 || code === 0) return;
    const server = store.dict.toolServer.values[code]!;
    servers.push({
      server,
      calls: n,
      denied: denied[code]!,
      rate: denied[code]! / n,
      href: explorerLink({ ...VERIFIED, decision: ['deny'], toolServer: [server] }),
      callsHref: explorerLink({ ...VERIFIED, toolServer: [server] }),
    });
  });
  servers.sort((a, b) => b.rate - a.rate || b.denied - a.denied || (a.server < b.server ? -1 : 1));
  return {
    calls: nCalls,
    denied: nDenied,
    deniedHref: explorerLink({ ...VERIFIED, decision: ['deny'] }),
    byGuard: tallies(byGuard, store.dict.guard.values, 'guard'),
    byTool: tallies(byTool, store.dict.toolName.values, 'toolName'),
    servers,
  };
}

/** Bucket widths, in seconds, from which the over-time chart picks. */
export const BUCKET_SECONDS = [60, 300, 900, 3600, 6 * 3600, 86400, 7 * 86400] as const;
/** The widest chart the automatic width makes. */
export const MAX_BUCKETS = 150;
/** Series kept apart in the chart; the rest are summed as `other`. */
export const TOP_SERIES = 8;

export interface OverTimeSeries {
  /** The guard or tool; '' for denials that name none; null for the sum of the rest. */
  key: string | null;
  counts: number[];
  total: number;
}

export interface DenialsOverTime {
  by: 'guard' | 'tool';
  bucketSeconds: number;
  /** Bucket starts (Unix seconds, aligned to whole multiples of the width, i.e. UTC boundaries). */
  starts: number[];
  series: OverTimeSeries[];
  /** Verified denials without a usable time (not drawn). */
  untimed: number;
}

/** The automatic bucket width: the narrowest that spans `seconds` in at most MAX_BUCKETS bars. */
export function autoBucket(seconds: number): number {
  return BUCKET_SECONDS.find((w) => Math.floor(seconds / w) + 1 <= MAX_BUCKETS) ?? BUCKET_SECONDS[BUCKET_SECONDS.length - 1]!;
}

/**
 * Verified denials per time bucket, stacked by blocking guard or by tool. The
 * axis spans every verified receipt (so quiet stretches show as quiet); a
 * requested width that would make more than MAX_BUCKETS × 20 bars is widened.
 */
export function denialsOverTime(store: RowStore, scope: VerifiedScope, by: 'guard' | 'tool', bucketSeconds?: number): DenialsOverTime {
  const deny = codeOf(store, 'decision', 'deny');
  const decision = store.codes.decision;
  const time = store.time;
  const keyCodes = store.codes[by === 'guard' ? 'guard' : 'toolName'];
  const keyValues = store.dict[by === 'guard' ? 'guard' : 'toolName'].values;
  let min = Infinity;
  let max = -Infinity;
  for (const row of scope.rows) {
    const t = time[row]!;
    if (t < min) min = t; // NaN compares false: untimed rows never widen the axis
    if (t > max) max = t;
  }
  if (min > max) return { by, bucketSeconds: bucketSeconds ?? BUCKET_SECONDS[0], starts: [], series: [], untimed: countDenials(store, scope, deny) };
  let width = bucketSeconds && bucketSeconds > 0 ? bucketSeconds : autoBucket(max - min);
  // A requested width too narrow for the span is widened to the next listed one that fits (then doubled, past a week).
  const bars = (w: number) => Math.floor(max / w) - Math.floor(min / w) + 1;
  for (const w of BUCKET_SECONDS) if (w > width && bars(width) > MAX_BUCKETS * 20) width = w;
  while (bars(width) > MAX_BUCKETS * 20) width *= 2;
  const first = Math.floor(min / width);
  const n = Math.floor(max / width) - first + 1;
  const nKeys = keyValues.length;
  const grid = new Uint32Array(nKeys * n);
  const totals = new Uint32Array(nKeys);
  let untimed = 0;
  for (const row of scope.rows) {
    if (decision[row] !== deny) continue;
    const t = time[row]!;
    if (Number.isNaN(t)) {
      untimed++;
      continue;
    }
    const k = keyCodes[row]!;
    grid[k * n + Math.floor(t / width) - first]!++;
    totals[k]!++;
  }
  const ranked = [...totals.keys()].filter((k) => totals[k]! > 0).sort((a, b) => totals[b]! - totals[a]! || (keyValues[a]! < keyValues[b]! ? -1 : 1));
  // Summing a single series as `other` would only hide its name.
  const keep = ranked.length <= TOP_SERIES + 1 ? ranked.length : TOP_SERIES;
  const series: OverTimeSeries[] = ranked
    .slice(0, keep)
    .map((k) => ({ key: keyValues[k]!, counts: Array.from(grid.subarray(k * n, (k + 1) * n)), total: totals[k]! }));
  const rest = ranked.slice(keep);
  if (rest.length > 0) {
    const counts = new Array<number>(n).fill(0);
    let total = 0;
    for (const k of rest) {
      for (let b = 0; b < n; b++) counts[b]! += grid[k * n + b]!;
      total += totals[k]!;
    }
    series.push({ key: null, counts, total });
  }
  return { by, bucketSeconds: width, starts: Array.from({ length: n }, (_, b) => (first + b) * width), series, untimed };
}

function countDenials(store: RowStore, scope: VerifiedScope, deny: number): number {
  let n = 0;
  for (const row of scope.rows) if (store.codes.decision[row] === deny) n++;
  return n;
}

/** The explorer on the verified denials of one bar: its series (unless `other`) in its bucket. */
export function denialBarHref(chart: DenialsOverTime, series: OverTimeSeries, bucket: number): string {
  const since = chart.starts[bucket]!;
  const column = chart.by === 'guard' ? 'guard' : 'toolName';
  // Denials that name no guard cannot be singled out by a value filter: the bar links to all denials of the bucket.
  const values = { ...VERIFIED, decision: ['deny'], ...(series.key ? { [column]: [series.key] } : {}) };
  return explorerLink(values, { since, until: since + chart.bucketSeconds - 1 });
}

export interface FailureCount {
  code: ProblemCode;
  /** Receipts of the log with this problem whose verdict is `failed`. */
  receipts: number;
  href: string;
}

export interface VerificationFailures {
  receipts: number;
  failed: number;
  unverified: number;
  /** Intact, signer not pinned (part 2 §11): counted apart from `unverified`. */
  unpinned: number;
  verified: number;
  /** Failed receipts per problem code they carry (a receipt with two codes counts under both), in contract order. */
  byCode: FailureCount[];
  /** Failed receipts that carry no problem code of their own (failed through what vouches for them). */
  withoutCode: number;
  checkpoints: number;
  checkpointsFailed: number;
  /** Problems about lines that never became receipts (parse_error, duplicate_key without a receipt). */
  unreadLines: number;
  /** Manifest, equivocation and other problems that name no receipt. */
  otherErrors: number;
}

/** What failed verification: receipts by problem code (from the rows), checkpoints and unread lines (from the report). */
export function verificationFailures(store: RowStore, report: VerificationReport): VerificationFailures {
  const failedVerdict = VERDICTS.indexOf('failed');
  const perBit = new Uint32Array(PROBLEM_CODES.length);
  let withoutCode = 0;
  for (let row = 0; row < store.length; row++) {
    if (store.verdict[row] !== failedVerdict) continue;
    if (!store.hasProblem(row)) withoutCode++;
    const lo = store.problems[row]!;
    const hi = store.problemsHi[row]!;
    for (let b = 0; b < PROBLEM_CODES.length; b++) if ((b < 32 ? lo : hi) & (1 << (b & 31))) perBit[b]!++;
  }
  const byCode: FailureCount[] = [];
  PROBLEM_CODES.forEach((code, b) => {
    if (perBit[b]! > 0) byCode.push({ code, receipts: perBit[b]!, href: explorerLink({ verdict: ['failed'], problem: [code] }) });
  });
  let unreadLines = 0;
  let otherErrors = 0;
  for (const p of report.problems) {
    if (p.receipt_id !== undefined || p.checkpoint_seq !== undefined || p.severity !== 'error') continue;
    if (p.code === 'parse_error' || p.code === 'duplicate_key') unreadLines++;
    else otherErrors++;
  }
  const s = report.summary;
  // The report's exact count (a file of a million bad lines keeps a hundred problems and a summary).
  if (s.unreadable !== undefined) unreadLines = s.unreadable;
  return {
    receipts: s.receipts,
    verified: s.verified,
    failed: s.failed,
    unverified: s.unverified - store.countVerdict('unpinned'),
    unpinned: store.countVerdict('unpinned'),
    byCode,
    withoutCode,
    checkpoints: s.checkpoints,
    checkpointsFailed: report.checkpoints.reduce((n, c) => n + (c.verdict === 'failed' ? 1 : 0), 0),
    unreadLines,
    otherErrors,
  };
}

export interface FlaggedReceipt {
  receiptId: string;
  message: string;
  file?: string;
  line?: number;
  /** The receipt's verdict, when the log holds it. */
  verdict?: RowVerdict;
}

/** The receipts the report flags with `code` (e.g. unsigned_field, algorithm_mismatch), in report order. */
export function flaggedReceipts(store: RowStore, report: VerificationReport, code: ProblemCode): FlaggedReceipt[] {
  const out: FlaggedReceipt[] = [];
  for (const p of report.problems) {
    if (p.code !== code || p.receipt_id === undefined) continue;
    // The copy the problem was found at (one id can name several receipts).
    const row = store.rowsAt(p.receipt_id, p.file, p.line)[0];
    out.push({
      receiptId: p.receipt_id,
      message: p.message,
      ...(p.file !== undefined ? { file: p.file } : {}),
      ...(p.line !== undefined ? { line: p.line } : {}),
      ...(row !== undefined ? { verdict: store.verdictOf(row) } : {}),
    });
  }
  return out;
}
