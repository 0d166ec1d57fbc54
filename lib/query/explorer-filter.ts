// The explorer's filter: every field of the receipt, the verdict, problem
// codes, free text, a reader preset and a sort — kept in the URL, so a
// filtered view is itself a link. Pure: the URL codec and the row scan.
import { PROBLEM_CODES } from '../verify/problems';
import { type RowStore, type StringColumn, VERDICTS } from './row-store';

/** Fields filtered by exact value (any of the listed values). */
export const VALUE_FILTERS = [
  'verdict', 'decision', 'toolServer', 'toolName', 'guard', 'currency', 'settlement', 'tenant', 'type', 'generation', 'capabilityId',
  'policyHash', 'receiptKind', 'trustLevel', 'kernelKey', 'sessionId', 'operationKind', 'file', 'problem',
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
    const hits = SEARCHED.map((c) => [store.codes[c], textMatches(store, c, q)] as const);
    tests.push((i) => hits.some(([codes, hit]) => hit[codes[i]!] === 1));
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
  const sign = sort.dir === 'asc' ? 1 : -1;
  let key: (i: number) => number | bigint | string;
  switch (sort.column) {
    case 'order':
      if (sort.dir === 'asc' && isAscending(store, rows)) return rows;
      key = (i) => store.order[i]!;
      break;
    case 'time':
      key = (i) => store.time[i]!;
      break;
    case 'cost':
      key = (i) => (store.hasCost[i] ? store.cost[i]! : -1n);
      break;
    case 'verdict':
      key = (i) => store.verdict[i]!;
      break;
    default: {
      const col = sort.column;
      const rank = dictRank(store, col);
      key = (i) => rank[store.codes[col][i]!]!;
    }
  }
  const sorted = Array.from(rows).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -sign : ka > kb ? sign : store.order[a]! - store.order[b]!;
  });
  return Uint32Array.from(sorted);
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
