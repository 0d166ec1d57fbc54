// The explorer's filter: every field of the receipt, the verdict, problem
// codes, free text, a time window, a reader preset, a sort and the columns
// shown — kept in the URL, so a filtered view is itself a link. Pure: the URL
// codec and the row scan.
import { type ColumnKey, type Preset, formatColumns, isPreset, parseColumns } from './explorer-columns';
import { radixSortRows } from './radix-sort';
import { type RowStore, type StringColumn, VERDICTS, problemMask } from './row-store';

/** Fields filtered by exact value (any of the listed values). */
export const VALUE_FILTERS = [
  'verdict',
  'decision',
  'toolServer',
  'toolName',
  'guard',
  'currency',
  'settlement',
  'tenant',
  'type',
  'generation',
  'capabilityId',
  'policyHash',
  'receiptKind',
  'boundaryClass',
  'trustLevel',
  'kernelKey',
  'sessionId',
  'operationKind',
  'file',
  'problem',
  'rootBudgetHolder',
  'grantIndex',
  'guardFailed',
  'source',
] as const;
export type ValueFilter = (typeof VALUE_FILTERS)[number];

/** What the page calls each field filtered by value (menus and chips). */
export const VALUE_FILTER_LABEL: Record<ValueFilter, string> = {
  verdict: 'verdict',
  problem: 'problem',
  decision: 'decision',
  toolServer: 'tool server',
  toolName: 'tool',
  guard: 'blocking guard',
  guardFailed: 'failed guard (evidence)',
  settlement: 'settlement',
  currency: 'currency',
  tenant: 'tenant',
  type: 'type',
  generation: 'generation',
  receiptKind: 'Gen B kind',
  boundaryClass: 'Gen B boundary',
  trustLevel: 'trust level',
  capabilityId: 'capability',
  grantIndex: 'grant',
  rootBudgetHolder: 'budget holder',
  policyHash: 'policy',
  kernelKey: 'signer',
  sessionId: 'session',
  operationKind: 'operation',
  source: 'source',
  file: 'file',
};

export { PRESETS, type Preset } from './explorer-columns';

export const SORTABLE = [
  'order',
  'time',
  'cost',
  'id',
  'toolServer',
  'toolName',
  'decision',
  'verdict',
  'tenant',
  'currency',
  'settlement',
  'guard',
  'capabilityId',
  'policyHash',
  'trustLevel',
  'kernelKey',
] as const;
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
  /** The columns the reader chose (absent: the preset's, or the default). Not a filter of rows. */
  columns?: ColumnKey[];
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
  if (preset && isPreset(preset)) f.preset = preset;
  const sort = p.get('sort');
  const m = sort ? /^(-?)([a-zA-Z]+)$/.exec(sort) : null;
  if (m && (SORTABLE as readonly string[]).includes(m[2]!)) f.sort = { column: m[2] as SortColumn, dir: m[1] ? 'desc' : 'asc' };
  const columns = parseColumns(p.get('cols'));
  if (columns) f.columns = columns;
  return f;
}

/** The explorer showing `f` (what it leaves out as in EMPTY_FILTER), as a link. */
export function explorerUrl(f: Partial<ExplorerFilter>): string {
  return `/receipts?${filterToParams({ ...EMPTY_FILTER, ...f }).toString()}`;
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
  if (f.columns?.length) p.set('cols', formatColumns(f.columns));
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

const SEARCHED: StringColumn[] = ['id', 'toolServer', 'toolName', 'guard', 'reason', 'capabilityId', 'tenant', 'decision', 'file', 'sessionId', 'requestId'];

/** Prepares up to `maxValues` more values of the searched columns for free text (idle time); true once all are. */
export function warmSearch(store: RowStore, maxValues: number): boolean {
  for (const c of SEARCHED) if (!store.dict[c].warmSearch(maxValues)) return false;
  return true;
}

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
      const mask = problemMask(vs);
      tests.push((i) => store.hasProblem(i, mask));
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
    tests.push((i) => store.codes.decision[i] === deny || store.verdict[i] === failed || store.verdict[i] === unverified || store.hasProblem(i));
  } else if (f.preset === 'finance') {
    tests.push((i) => store.hasCost[i] === 1 || store.codes.attemptedCost[i] !== 0);
  }
  if (f.q) {
    const q = f.q.toLowerCase();
    // Only the columns where some value matches are looked at per row, in a plain loop.
    const hits = SEARCHED.map((c) => ({ codes: store.codes[c], hit: store.dict[c].matches(q) })).filter((h) => h.hit.includes(1));
    tests.push((i) => {
      for (const h of hits) if (h.hit[h.codes[i]!] === 1) return true;
      return false;
    });
  }
  // Rows are scanned in log order, so the result is in log order before any sort (and ties stay in it).
  const { rowAtPos } = store.positions();
  const out = new Uint32Array(store.length);
  let n = 0;
  if (tests.length === 0) {
    // The unfiltered table (re-computed for every batch while a log streams in): no per-row calls.
    out.set(rowAtPos);
    n = store.length;
  } else {
    outer: for (let p = 0; p < rowAtPos.length; p++) {
      const i = rowAtPos[p]!;
      for (const t of tests) if (!t(i)) continue outer;
      out[n++] = i;
    }
  }
  return sortRows(store, out.subarray(0, n), f.sort);
}

/**
 * Sorts rows given in log order; equal keys stay in log order, in either
 * direction. Each column's order over the whole log is computed once per
 * store version (a radix sort, ~100 ms at a million rows; prepared in idle
 * time by warmSorts) and a filtered view then reads it in one pass; a small
 * selection without a prepared order is sorted directly.
 */
function sortRows(store: RowStore, rows: Uint32Array, sort: ExplorerFilter['sort']): Uint32Array {
  if (sort.column === 'order') return sort.dir === 'asc' ? rows : rows.slice().reverse();
  const desc = sort.dir === 'desc';
  let whole = cachedOrder(store, sort.column);
  if (!whole && rows.length * 8 < store.length) {
    // Descending: the ascending sort of the reversed rows, reversed (stable both ways).
    const sorted = sortAscending(store, desc ? rows.slice().reverse() : rows.slice(), sort.column);
    return desc ? sorted.reverse() : sorted;
  }
  whole ??= wholeOrder(store, sort.column);
  const member = new Uint8Array(store.length);
  for (let j = 0; j < rows.length; j++) member[rows[j]!] = 1;
  const { perm, tie } = whole;
  const out = new Uint32Array(rows.length);
  let n = 0;
  if (!desc) {
    for (let k = 0; k < perm.length; k++) if (member[perm[k]!]) out[n++] = perm[k]!;
    return out;
  }
  // Descending: the groups of equal keys from the last, each group kept in log order.
  for (let end = perm.length; end > 0; ) {
    let start = end - 1;
    while (start > 0 && tie[start]) start--;
    for (let k = start; k < end; k++) if (member[perm[k]!]) out[n++] = perm[k]!;
    end = start;
  }
  return out;
}

interface WholeOrder {
  version: number;
  /** Every row, ascending by the column, ties in log order. */
  perm: Uint32Array;
  /** tie[k] = 1: perm[k] has the same key as perm[k - 1]. */
  tie: Uint8Array;
}

const wholeOrders = new WeakMap<RowStore, Map<SortColumn, WholeOrder>>();

function cachedOrder(store: RowStore, column: SortColumn): WholeOrder | undefined {
  const c = wholeOrders.get(store)?.get(column);
  return c && c.version === store.version ? c : undefined;
}

function wholeOrder(store: RowStore, column: Exclude<SortColumn, 'order'>): WholeOrder {
  const perm = sortAscending(store, store.positions().rowAtPos.slice(), column);
  const same = sameKey(store, column);
  const tie = new Uint8Array(perm.length);
  for (let k = 1; k < perm.length; k++) if (same(perm[k]!, perm[k - 1]!)) tie[k] = 1;
  const order = { version: store.version, perm, tie };
  let byColumn = wholeOrders.get(store);
  if (!byColumn) wholeOrders.set(store, (byColumn = new Map()));
  byColumn.set(column, order);
  return order;
}

function sameKey(store: RowStore, column: Exclude<SortColumn, 'order'>): (a: number, b: number) => boolean {
  if (column === 'time') return (a, b) => store.time[a] === store.time[b] || (Number.isNaN(store.time[a]!) && Number.isNaN(store.time[b]!));
  if (column === 'cost') return (a, b) => store.hasCost[a] === store.hasCost[b] && (store.hasCost[a] === 0 || store.cost[a] === store.cost[b]);
  if (column === 'verdict') return (a, b) => store.verdict[a] === store.verdict[b];
  const codes = store.codes[column];
  return (a, b) => codes[a] === codes[b];
}

/** Prepares the whole-log order of the columns people sort most (idle time); true once all are ready. */
export function warmSorts(store: RowStore): boolean {
  for (const column of ['time', 'cost'] as const) {
    if (!cachedOrder(store, column)) {
      wholeOrder(store, column);
      return false;
    }
  }
  return true;
}

function sortAscending(store: RowStore, rows: Uint32Array, column: Exclude<SortColumn, 'order'>): Uint32Array {
  const n = rows.length;
  if (column === 'time' || column === 'cost') {
    // Unknown times and rows without a cost sort first.
    const known = column === 'time' ? (i: number) => !Number.isNaN(store.time[i]!) : (i: number) => store.hasCost[i] === 1;
    let k = 0;
    for (let j = 0; j < n; j++) if (known(rows[j]!)) k++;
    const keyed = new Uint32Array(k);
    const out = new Uint32Array(n);
    for (let j = 0, a = 0, b = 0; j < n; j++) {
      const r = rows[j]!;
      if (known(r)) keyed[a++] = r;
      else out[b++] = r;
    }
    const lo = new Uint32Array(k);
    const hi = new Uint32Array(k);
    if (column === 'time') timeKeys(store, keyed, lo, hi);
    else costKeys(store, keyed, lo, hi);
    out.set(radixSortRows(keyed, lo, hi), n - k);
    return out;
  }
  const lo = new Uint32Array(n);
  if (column === 'verdict') {
    for (let j = 0; j < n; j++) lo[j] = store.verdict[rows[j]!]!;
  } else {
    const byCode = dictRank(store, column);
    const codes = store.codes[column];
    for (let j = 0; j < n; j++) lo[j] = byCode[codes[rows[j]!]!]!;
  }
  return radixSortRows(rows, lo, null);
}

/** Whole seconds as offsets from the earliest (up to 2^53, in two 32-bit words). */
function timeKeys(store: RowStore, rows: Uint32Array, lo: Uint32Array, hi: Uint32Array): void {
  let min = Infinity;
  for (let j = 0; j < rows.length; j++) min = Math.min(min, store.time[rows[j]!]!);
  for (let j = 0; j < rows.length; j++) {
    const x = store.time[rows[j]!]! - min;
    lo[j] = x % 2 ** 32;
    hi[j] = Math.floor(x / 2 ** 32);
  }
}

/** The exact u64 amounts, read as their two 32-bit words (no BigInt per row). */
function costKeys(store: RowStore, rows: Uint32Array, lo: Uint32Array, hi: Uint32Array): void {
  const words = new Uint32Array(store.cost.buffer, store.cost.byteOffset, store.cost.length * 2);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j]!;
    lo[j] = words[2 * r + (little ? 0 : 1)]!;
    hi[j] = words[2 * r + (little ? 1 : 0)]!;
  }
}

/** Alphabetical rank of each dictionary code (absent sorts first). */
function dictRank(store: RowStore, column: StringColumn): Uint32Array {
  const values = store.dict[column].values;
  const codes = values.map((_, c) => c).sort((a, b) => (a === 0 ? -1 : b === 0 ? 1 : values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
  const rank = new Uint32Array(values.length);
  codes.forEach((c, r) => (rank[c] = r));
  return rank;
}
