// The compliance view as data (issue 5 item 3): which policy hash was in force
// when, the trust levels and Gen B kinds/boundaries (chio-format.md §4–§5),
// and the kernel keys with whether each is pinned (contract §5
// `signer_trusted`). Counts are over the rows handed in, which the caller
// takes from the verified scope (lib/readers/scope.ts). Pure: typed arrays,
// one pass per aggregate; the only sort is the time order of the policy
// timeline. The printed report's per-range totals are in compliance-report.ts.
import { type ValueFilter, explorerUrl } from '../query/explorer-filter';
import type { RowStore, StringColumn } from '../query/row-store';
import { otherRuntimeTypeFlags } from '../query/runtimes';
import type { TrustEntry } from '../trust/trust-file';
import type { VerificationReport } from '../verdict/report';

/** What the page narrows to: an inclusive Unix-seconds range and one policy hash (all optional). */
export interface ComplianceSelection {
  since?: number;
  until?: number;
  policy?: string;
}

const seconds = (s: string | null): number | undefined => (s !== null && /^\d{1,15}$/.test(s) ? Number(s) : undefined);

/** The page's own state in its URL: `since`/`until` (Unix seconds, inclusive) and `policy`; malformed values are dropped. */
export function selectionFromParams(p: URLSearchParams): ComplianceSelection {
  const sel: ComplianceSelection = {};
  const since = seconds(p.get('since'));
  const until = seconds(p.get('until'));
  const policy = p.get('policy');
  if (since !== undefined) sel.since = since;
  if (until !== undefined) sel.until = until;
  if (policy && policy.length <= 512) sel.policy = policy;
  return sel;
}

export function selectionToParams(sel: ComplianceSelection): URLSearchParams {
  const p = new URLSearchParams();
  if (sel.since !== undefined) p.set('since', String(sel.since));
  if (sel.until !== undefined) p.set('until', String(sel.until));
  if (sel.policy !== undefined) p.set('policy', sel.policy);
  return p;
}

/**
 * The explorer over the verified receipts of the selection that also have
 * `values` (a link for each number on the page): the same rows the number counts.
 */
export function explorerLink(sel: ComplianceSelection, values: Partial<Record<ValueFilter, string[]>> = {}, range?: { since: number; until: number }): string {
  const since = Math.max(range?.since ?? -Infinity, sel.since ?? -Infinity);
  const until = Math.min(range?.until ?? Infinity, sel.until ?? Infinity);
  return explorerUrl({
    values: { verdict: ['verified'], ...(sel.policy !== undefined ? { policyHash: [sel.policy] } : {}), ...values },
    ...(Number.isFinite(since) ? { since } : {}),
    ...(Number.isFinite(until) ? { until } : {}),
  });
}

/**
 * Whether a row is in the selection. A row without a usable time is outside
 * every range (but inside "no range"); a policy the log never had keeps nothing.
 */
export function selectionTest(store: RowStore, sel: ComplianceSelection): ((row: number) => boolean) | undefined {
  const { since, until, policy } = sel;
  if (since === undefined && until === undefined && policy === undefined) return undefined;
  const code = policy === undefined ? 0 : (store.dict.policyHash.lookup(policy) ?? -1);
  const codes = store.codes.policyHash;
  const time = store.time;
  const lo = since ?? -Infinity;
  const hi = until ?? Infinity;
  const timed = since !== undefined || until !== undefined;
  return (row) => {
    if (code !== 0 && codes[row] !== code) return false;
    if (!timed) return true;
    const t = time[row]!;
    return t >= lo && t <= hi;
  };
}

/** Earliest and latest usable time of the log's Chio receipts (NaN when no row has one). */
export function logTimeSpan(store: RowStore): { first: number; last: number } {
  let first = Infinity;
  let last = -Infinity;
  const other = otherRuntimeTypeFlags(store);
  for (let r = 0; r < store.length; r++) {
    if (other[store.codes.type[r]!]) continue;
    const t = store.time[r]!;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return first === Infinity ? { first: NaN, last: NaN } : { first, last };
}

// ---------------------------------------------------------------- policies

/**
 * A policy's span ends when this many receipts under other policies pass (in
 * time order) without one under it; a return after that starts a new span. Two
 * policies logged side by side (two kernels, or requests that finish after a
 * switch) therefore give overlapping spans rather than a flicker of tiny ones.
 */
export const SPAN_BREAK_AFTER = 50;
/** Most spans one policy is drawn with; past it the break threshold doubles until it fits. */
export const SPAN_BUDGET = 60;

export interface PolicySpan {
  policy: string;
  /** Unix seconds of its first and last receipt. */
  start: number;
  end: number;
  receipts: number;
}

export interface PolicySummary {
  policy: string;
  receipts: number;
  first: number;
  last: number;
  spans: PolicySpan[];
  /** Receipts by type (tool, child, http). */
  byType: Record<string, number>;
}

export interface PolicyOverlap {
  policies: [string, string];
  /** The time both spans cover. */
  start: number;
  end: number;
}

export interface PolicyTimeline {
  /** By first appearance in time. */
  policies: PolicySummary[];
  /** Every span, by start. */
  spans: PolicySpan[];
  overlaps: PolicyOverlap[];
  /** Overlaps found (the list keeps the first OVERLAP_LIST). */
  overlapCount: number;
  /** Counting stopped at OVERLAP_COUNT_CAP (a log whose policies interleave everywhere). */
  overlapCapped: boolean;
  /** Rows left off the timeline for want of a usable time (they still count in `policies`). */
  untimed: number;
  breakAfter: number;
}

export const OVERLAP_LIST = 50;
export const OVERLAP_COUNT_CAP = 10_000;

/** `rows` (indexes into store) in time order, ties in the order given; rows without a time are left out. */
export function timeOrder(store: RowStore, rows: Uint32Array): Uint32Array {
  const time = store.time;
  let lo = Infinity;
  let hi = -Infinity;
  let n = 0;
  const timed = new Uint32Array(rows.length);
  for (let j = 0; j < rows.length; j++) {
    const t = time[rows[j]!]!;
    if (Number.isNaN(t)) continue;
    timed[n++] = j;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  const out = new Uint32Array(n);
  if (n === 0) return out;
  const size = rows.length;
  if ((hi - lo + 1) * size < 2 ** 52) {
    // One native sort of packed keys: (time − earliest) × rows + index.
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) keys[k] = (time[rows[timed[k]!]!]! - lo) * size + timed[k]!;
    keys.sort();
    for (let k = 0; k < n; k++) out[k] = rows[keys[k]! % size]!;
    return out;
  }
  const idx = Array.from(timed.subarray(0, n));
  idx.sort((a, b) => time[rows[a]!]! - time[rows[b]!]! || a - b);
  for (let k = 0; k < n; k++) out[k] = rows[idx[k]!]!;
  return out;
}

/** Which policy hash was in force when: per policy its spans in time, and where spans of two policies overlap. */
export function policyTimeline(store: RowStore, rows: Uint32Array): PolicyTimeline {
  const dict = store.dict.policyHash.values;
  const codes = store.codes.policyHash;
  const typeCodes = store.codes.type;
  const typeNames = store.dict.type.values;
  const count = new Uint32Array(dict.length);
  const byType = new Uint32Array(dict.length * typeNames.length);
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j]!;
    count[codes[r]!]!++;
    byType[codes[r]! * typeNames.length + typeCodes[r]!]!++;
  }
  const sorted = timeOrder(store, rows);
  const all = spansByCode(store, sorted, SPAN_BREAK_AFTER);
  const policies: PolicySummary[] = [];
  for (let c = 0; c < dict.length; c++) {
    if (count[c] === 0) continue;
    const types: Record<string, number> = {};
    for (let t = 1; t < typeNames.length; t++) if (byType[c * typeNames.length + t]) types[typeNames[t]!] = byType[c * typeNames.length + t]!;
    let spans = all.get(c) ?? [];
    // A policy that comes and goes too often to draw: coarser spans (rare; one more pass each).
    for (let breakAfter = SPAN_BREAK_AFTER * 2; spans.length > SPAN_BUDGET; breakAfter *= 2) spans = spansByCode(store, sorted, breakAfter, c).get(c)!;
    policies.push({
      policy: dict[c]!,
      receipts: count[c]!,
      first: spans[0]?.start ?? NaN,
      last: spans.length ? spans[spans.length - 1]!.end : NaN,
      spans,
      byType: types,
    });
  }
  policies.sort((a, b) => (a.first === b.first ? (a.policy < b.policy ? -1 : 1) : Number.isNaN(a.first) ? 1 : Number.isNaN(b.first) ? -1 : a.first - b.first));
  const spans = policies.flatMap((p) => p.spans).sort((a, b) => a.start - b.start || a.end - b.end);
  return { policies, spans, ...findOverlaps(spans), untimed: rows.length - sorted.length, breakAfter: SPAN_BREAK_AFTER };
}

/** The spans of every policy code (or of `only`) over `sorted` (rows in time order), in one pass. */
function spansByCode(store: RowStore, sorted: Uint32Array, breakAfter: number, only?: number): Map<number, PolicySpan[]> {
  const codes = store.codes.policyHash;
  const time = store.time;
  const values = store.dict.policyHash.values;
  const last = new Float64Array(values.length).fill(-Infinity);
  const open: (PolicySpan | undefined)[] = new Array(values.length);
  const out = new Map<number, PolicySpan[]>();
  for (let k = 0; k < sorted.length; k++) {
    const r = sorted[k]!;
    const c = codes[r]!;
    if (only !== undefined && c !== only) continue;
    const t = time[r]!;
    let span = open[c];
    if (span === undefined || k - last[c]! - 1 >= breakAfter) {
      span = { policy: values[c]!, start: t, end: t, receipts: 0 };
      open[c] = span;
      const list = out.get(c);
      if (list) list.push(span);
      else out.set(c, [span]);
    }
    span.end = t;
    span.receipts++;
    last[c] = k;
  }
  return out;
}

/** Pairs of spans of different policies whose times intersect (spans sorted by start). */
function findOverlaps(spans: PolicySpan[]): { overlaps: PolicyOverlap[]; overlapCount: number; overlapCapped: boolean } {
  const overlaps: PolicyOverlap[] = [];
  let overlapCount = 0;
  for (let i = 0; i < spans.length; i++) {
    if (overlapCount >= OVERLAP_COUNT_CAP) return { overlaps, overlapCount, overlapCapped: true };
    const a = spans[i]!;
    for (let j = i + 1; j < spans.length && spans[j]!.start <= a.end; j++) {
      const b = spans[j]!;
      if (b.policy === a.policy) continue;
      overlapCount++;
      if (overlaps.length < OVERLAP_LIST) overlaps.push({ policies: [a.policy, b.policy], start: b.start, end: Math.min(a.end, b.end) });
    }
  }
  return { overlaps, overlapCount, overlapCapped: false };
}

// ------------------------------------------------- trust levels and kinds

export interface ValueCount {
  /** '' when the receipt has no such field (child and HTTP receipts; Gen A kinds). */
  value: string;
  count: number;
}

export interface KindRow {
  kind: string;
  boundary: string;
  trustLevel: string;
  count: number;
}

export interface TrustAndKinds {
  trustLevels: ValueCount[];
  /** Gen B receipts by (kind, boundary, trust level). */
  kinds: KindRow[];
  generations: { A: number; B: number; none: number };
}

function tally(store: RowStore, rows: Uint32Array, column: StringColumn): Uint32Array {
  const codes = store.codes[column];
  const n = new Uint32Array(store.dict[column].values.length);
  for (let j = 0; j < rows.length; j++) n[codes[rows[j]!]!]!++;
  return n;
}

const byCount = (a: { count: number }, b: { count: number }) => b.count - a.count;

export function trustAndKinds(store: RowStore, rows: Uint32Array): TrustAndKinds {
  const levels = tally(store, rows, 'trustLevel');
  const trustLevels = [...levels].flatMap((count, c) => (count ? [{ value: store.dict.trustLevel.values[c]!, count }] : [])).sort(byCount);
  const gens = tally(store, rows, 'generation');
  const gen = (g: string) => gens[store.dict.generation.lookup(g) ?? -1] ?? 0;
  // Kind × boundary × trust level codes packed into one number, counted in a map (a handful of keys).
  const k = store.codes.receiptKind;
  const b = store.codes.boundaryClass;
  const t = store.codes.trustLevel;
  const nb = store.dict.boundaryClass.values.length;
  const nt = store.dict.trustLevel.values.length;
  const combos = new Map<number, number>();
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j]!;
    if (k[r] === 0) continue;
    const key = (k[r]! * nb + b[r]!) * nt + t[r]!;
    combos.set(key, (combos.get(key) ?? 0) + 1);
  }
  const kinds = [...combos]
    .map(([key, count]) => ({
      kind: store.dict.receiptKind.values[Math.floor(key / nt / nb)]!,
      boundary: store.dict.boundaryClass.values[Math.floor(key / nt) % nb]!,
      trustLevel: store.dict.trustLevel.values[key % nt]!,
      count,
    }))
    .sort(byCount);
  return { trustLevels, kinds, generations: { A: gen('A'), B: gen('B'), none: rows.length - gen('A') - gen('B') } };
}

// ---------------------------------------------------------------- signers

export interface SignerRow {
  key: string;
  /** Receipts among `rows` this key signed. */
  receipts: number;
  /** What the report counts for the key over the whole log (every verdict). */
  logReceipts: number;
  checkpoints: number;
  /** The trust entries pinning this key (empty: not pinned). */
  pins: TrustEntry[];
}

/** Every key the report saw (and any signer of `rows`), with its counts and pins; most receipts first. */
export function signers(store: RowStore, rows: Uint32Array, report: VerificationReport, trust: readonly TrustEntry[]): SignerRow[] {
  const n = tally(store, rows, 'kernelKey');
  const out = new Map<string, SignerRow>();
  const row = (key: string): SignerRow => {
    let s = out.get(key);
    if (!s) out.set(key, (s = { key, receipts: 0, logReceipts: 0, checkpoints: 0, pins: trust.filter((e) => e.key === key) }));
    return s;
  };
  for (const k of report.keys) Object.assign(row(k.key), { logReceipts: k.receipts, checkpoints: k.checkpoints });
  n.forEach((count, c) => {
    if (c !== 0 && count > 0) row(store.dict.kernelKey.values[c]!).receipts = count;
  });
  return [...out.values()].sort(
    (a, b) => b.receipts - a.receipts || b.logReceipts + b.checkpoints - (a.logReceipts + a.checkpoints) || (a.key < b.key ? -1 : 1),
  );
}
