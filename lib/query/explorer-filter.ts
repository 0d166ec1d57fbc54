// The explorer's filter: every field of the receipt, the verdict, problem
// codes, free text, a reader preset and a sort — kept in the URL, so a
// filtered view is itself a link. Pure: the URL codec and the row scan.
import { PROBLEM_CODES } from '../verify/problems';
import { type RowStore, type StringColumn, VERDICTS } from './row-store';

/** Fields filtered by exact value (any of the listed values). */
export const VALUE_FILTERS = [
  'verdict', 'decision', 'toolServer', 'toolName', 'guard', 'currency', 'settlement', 'tenant', 'type', 'generation', 'capabilityId',
  'policyHash', 'receiptKind', 'boundaryClass', 'trustLevel', 'kernelKey', 'sessionId', 'operationKind', 'file', 'problem',
] as const;
export type ValueFilter = (typeof VALUE_FILTERS)[number];

export const PRESETS = {
  security: 'Denials, failed or unverified receipts, and receipts with problems',
  finance: 'Receipts that carry a cost',
  compliance: 'Every receipt, with its policy, trust level, kind and signer',
} as const;
export type Preset = keyof typeof PRESETS;

export const SORTABLE = ['order', 'time', 'cost', 'toolServer', 'toolName', 'decision', 'verdict', 'tenant', 'currency', 'settlement', 'guard'] as const;
export type SortColumn = (typeof SORTABLE)[number];

export interface ExplorerFilter {
  values: Partial<Record<ValueFilter, string[]>>;
  q?: string;
  /** Inclusive Unix seconds. */
  since?: number;
  until?: number;
  /** Minor units, inclusive. */
  minCost?: bigint;
  maxCost?: bigint;
  preset?: Preset;
  sort: { column: SortColumn; dir: 'asc' | 'desc' };
}

export const EMPTY_FILTER: ExplorerFilter = { values: {}, sort: { column: 'order', dir: 'asc' } };

const int = (s: string | null): number | undefined => (s !== null && /^\d{1,15}$/.test(s) ? Number(s) : undefined);
const u64 = (s: string | null): bigint | undefined => (s !== null && /^\d{1,20}$/.test(s) ? BigInt(s) : undefined);

/** Reads a filter from URL search params; unknown or malformed values are dropped (a link never breaks the page). */
export function filterFromParams(p: URLSearchParams): ExplorerFilter {
  const values: ExplorerFilter['values'] = {};
  for (const k of VALUE_FILTERS) {
    const vs = p.getAll(k).filter((v) => v.length > 0 && v.length <= 512);
    if (vs.length) values[k] = [...new Set(vs)];
  }
  const f: ExplorerFilter = { values, sort: { column: 'order', dir: 'asc' } };
  const q = p.get('q');
  if (q) f.q = q.slice(0, 200);
  const since = int(p.get('since'));
  const until = int(p.get('until'));
  if (since !== undefined) f.since = since;
  if (until !== undefined) f.until = until;
  const minCost = u64(p.get('minCost'));
  const maxCost = u64(p.get('maxCost'));
  if (minCost !== undefined) f.minCost = minCost;
  if (maxCost !== undefined) f.maxCost = maxCost;
  const preset = p.get('preset');
  if (preset && preset in PRESETS) f.preset = preset as Preset;
  const sort = p.get('sort');
  const m = sort ? /^(-?)([a-zA-Z]+)$/.exec(sort) : null;
  if (m && (SORTABLE as readonly string[]).includes(m[2]!)) f.sort = { column: m[2] as SortColumn, dir: m[1] ? 'desc' : 'asc' };
  return f;
}

export function filterToParams(f: ExplorerFilter): URLSearchParams {
  const p = new URLSearchParams();
  if (f.preset) p.set('preset', f.preset);
  if (f.q) p.set('q', f.q);
  for (const k of VALUE_FILTERS) for (const v of f.values[k] ?? []) p.append(k, v);
  if (f.since !== undefined) p.set('since', String(f.since));
  if (f.until !== undefined) p.set('until', String(f.until));
  if (f.minCost !== undefined) p.set('minCost', f.minCost.toString());
  if (f.maxCost !== undefined) p.set('maxCost', f.maxCost.toString());
  if (f.sort.column !== 'order' || f.sort.dir !== 'asc') p.set('sort', `${f.sort.dir === 'desc' ? '-' : ''}${f.sort.column}`);
  return p;
}

/** Codes of `values` in a string column; a value the log never had matches nothing. */
function codeSet(store: RowStore, column: StringColumn, values: string[]): Uint8Array {
  const set = new Uint8Array(store.dict[column].values.length);
  for (const v of values) {
    const c = store.dict[column].lookup(v);
    if (c !== undefined) set[c] = 1;
  }
  return set;
}

/** Dictionary codes whose text contains `q` (case-insensitive). */
function textMatches(store: RowStore, column: StringColumn, q: string): Uint8Array {
  const values = store.dict[column].lowered();
  const hit = new Uint8Array(values.length);
  for (let c = 1; c < values.length; c++) if (values[c]!.includes(q)) hit[c] = 1;
  return hit;
}

const SEARCHED: StringColumn[] = ['id', 'toolServer', 'toolName', 'guard', 'reason', 'capabilityId', 'tenant', 'decision', 'file', 'sessionId', 'requestId'];

/** Row indexes that pass `f`, in the filter's sort order. */
export function filterRows(store: RowStore, f: ExplorerFilter): Uint32Array {
  const tests: ((i: number) => boolean)[] = [];
  for (const k of VALUE_FILTERS) {
    const vs = f.values[k];
    if (!vs?.length) continue;
    if (k === 'verdict') {
      const ok = new Uint8Array(VERDICTS.length);
      for (const v of vs) if ((VERDICTS as readonly string[]).includes(v)) ok[VERDICTS.indexOf(v as never)] = 1;
      tests.push((i) => ok[store.verdict[i]!] === 1);
    } else if (k === 'problem') {
      let mask = 0;
      for (const v of vs) if ((PROBLEM_CODES as readonly string[]).includes(v)) mask |= 1 << PROBLEM_CODES.indexOf(v as never);
      tests.push((i) => (store.problems[i]! & mask) !== 0);
    } else {
      const set = codeSet(store, k, vs);
      const codes = store.codes[k];
      tests.push((i) => set[codes[i]!] === 1);
    }
  }
  if (f.since !== undefined) tests.push((i) => store.time[i]! >= f.since!);
  if (f.until !== undefined) tests.push((i) => store.time[i]! <= f.until!);
  if (f.minCost !== undefined) tests.push((i) => store.hasCost[i] === 1 && store.cost[i]! >= f.minCost!);
  if (f.maxCost !== undefined) tests.push((i) => store.hasCost[i] === 1 && store.cost[i]! <= f.maxCost!);
  if (f.preset === 'security') {
    const deny = store.dict.decision.lookup('deny') ?? -1;
    const failed = VERDICTS.indexOf('failed');
    const unverified = VERDICTS.indexOf('unverified');
    tests.push((i) => store.codes.decision[i] === deny || store.verdict[i] === failed || store.verdict[i] === unverified || store.problems[i] !== 0);
  } else if (f.preset === 'finance') {
    tests.push((i) => store.hasCost[i] === 1 || store.codes.attemptedCost[i] !== 0);
  }
  if (f.q) {
    const q = f.q.toLowerCase();
    // Only the columns where some value matches are looked at per row, in a plain loop.
    const hits = SEARCHED.map((c) => ({ codes: store.codes[c], hit: textMatches(store, c, q) })).filter((h) => h.hit.includes(1));
    tests.push((i) => {
      for (const h of hits) if (h.hit[h.codes[i]!] === 1) return true;
      return false;
    });
  }
  const out = new Uint32Array(store.length);
  let n = 0;
  if (tests.length === 0) {
    // The unfiltered table (re-computed for every batch while a log streams in): no per-row calls.
    for (; n < store.length; n++) out[n] = n;
  } else {
    outer: for (let i = 0; i < store.length; i++) {
      for (const t of tests) if (!t(i)) continue outer;
      out[n++] = i;
    }
  }
  return sortRows(store, out.subarray(0, n), f.sort);
}

function sortRows(store: RowStore, rows: Uint32Array, sort: ExplorerFilter['sort']): Uint32Array {
  if (sort.column === 'order' && sort.dir === 'asc' && isAscending(store, rows)) return rows;
  return sortByRank(store, rows, sort.column === 'order' ? null : primaryRanks(store, rows, sort.column), sort.dir);
}

/**
 * Each row's rank under the column (equal keys, equal ranks; absent keys
 * first), as integers below `count`.
 */
function primaryRanks(store: RowStore, rows: Uint32Array, column: Exclude<SortColumn, 'order'>): { rank: Float64Array; count: number } {
  const n = rows.length;
  const rank = new Float64Array(n);
  if (column === 'time') {
    // Whole seconds: the offset from the earliest time is the rank when the span is not huge.
    let min = Infinity;
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      const t = store.time[rows[j]!]!;
      if (t < min) min = t;
      if (t > max) max = t;
    }
    const span = max - min + 2;
    if (Number.isSafeInteger(min) && Number.isSafeInteger(max) && span * store.length < 2 ** 52) {
      for (let j = 0; j < n; j++) {
        const t = store.time[rows[j]!]!;
        rank[j] = Number.isNaN(t) ? 0 : t - min + 1; // unknown times first
      }
      return { rank, count: span };
    }
    const keys = new Float64Array(n);
    for (let j = 0; j < n; j++) keys[j] = Number.isNaN(store.time[rows[j]!]!) ? -Infinity : store.time[rows[j]!]!;
    const distinct = uniqueSorted(keys.slice().sort());
    for (let j = 0; j < n; j++) rank[j] = lowerBound(distinct, keys[j]!);
    return { rank, count: distinct.length };
  }
  if (column === 'cost') {
    const keys = new BigUint64Array(n);
    let costs = 0;
    for (let j = 0; j < n; j++) if (store.hasCost[rows[j]!]) keys[costs++] = store.cost[rows[j]!]!;
    const distinct = uniqueSorted(keys.subarray(0, costs).slice().sort());
    // Rank 0 is "no cost" (the old comparator's -1n), then the costs in order.
    for (let j = 0; j < n; j++) rank[j] = store.hasCost[rows[j]!] ? 1 + lowerBound(distinct, store.cost[rows[j]!]!) : 0;
    return { rank, count: distinct.length + 1 };
  }
  if (column === 'verdict') {
    for (let j = 0; j < n; j++) rank[j] = store.verdict[rows[j]!]!;
    return { rank, count: 256 };
  }
  const byCode = dictRank(store, column);
  const codes = store.codes[column];
  for (let j = 0; j < n; j++) rank[j] = byCode[codes[rows[j]!]!]!;
  return { rank, count: byCode.length };
}

/**
 * Sorts rows by rank (ascending or descending), ties in log order, with one
 * native Float64Array sort of packed keys (rank × rows + position in log
 * order): a comparator over a million rows took 0.2–1 s of the main thread.
 */
function sortByRank(store: RowStore, rows: Uint32Array, primary: { rank: Float64Array; count: number } | null, dir: 'asc' | 'desc'): Uint32Array {
  const n = rows.length;
  const { posOfRow, rowAtPos } = store.positions();
  const size = store.length;
  const keys = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const pos = posOfRow[rows[j]!]!;
    // Sorting by log order itself (primary null): descending reverses the positions.
    if (primary === null) keys[j] = dir === 'asc' ? pos : size - 1 - pos;
    else keys[j] = (dir === 'asc' ? primary.rank[j]! : primary.count - 1 - primary.rank[j]!) * size + pos;
  }
  keys.sort();
  const out = new Uint32Array(n);
  for (let j = 0; j < n; j++) out[j] = rowAtPos[primary === null && dir === 'desc' ? size - 1 - keys[j]! : keys[j]! % size]!;
  return out;
}

function uniqueSorted<T extends Float64Array | BigUint64Array>(sorted: T): T {
  let m = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i]!;
  return sorted.subarray(0, m) as T;
}

/** First index whose value is ≥ x (the arrays are sorted ascending). */
function lowerBound<T extends number | bigint>(a: { length: number; [i: number]: T }, x: T): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isAscending(store: RowStore, rows: Uint32Array): boolean {
  for (let i = 1; i < rows.length; i++) if (store.order[rows[i]!]! < store.order[rows[i - 1]!]!) return false;
  return true;
}

/** Alphabetical rank of each dictionary code (absent sorts first). */
function dictRank(store: RowStore, column: StringColumn): Uint32Array {
  const values = store.dict[column].values;
  const codes = values.map((_, c) => c).sort((a, b) => (a === 0 ? -1 : b === 0 ? 1 : values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
  const rank = new Uint32Array(values.length);
  codes.forEach((c, r) => (rank[c] = r));
  return rank;
}
