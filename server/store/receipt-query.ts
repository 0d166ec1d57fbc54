// Server side only: runs a ReceiptQuery (lib/query/receipt-query.ts) against a Chio SQLite
// receipt store (chio-format.md §10) and builds the body of `GET /v1/receipts/query` (§11.2)
// from the stored raw_json bytes, which are never re-serialized here: u64 amounts above 2^53
// and every other byte reach the page exactly as stored (verification.md §1).
//
// Each row is checked before it is spliced (../stored-row.ts: TEXT, UTF-8, at most MAX_ROW_BYTES,
// one JSON object by our lossless parser). A row that fails is left out of `receipts` and named
// in `problems` (table and seq), a key the page has only when there is something in it. A page
// stops early, before MAX_PAGE_BYTES, with a `nextCursor` to go on from: never a page that
// looks complete and is not.
//
// Policies:
// - Store handles (read-only, nothing written beside the store): ./store-handle.ts.
// - SQL text comes from fixed fragments; every value is a bound parameter.
// - totalCount, min(seq) and max(seq) of a filter set (and, for up to LISTED matches, their
//   seqs) are cached per store state in a small LRU whose key has no cursor or limit. A page is
//   then a slice of that list, a walk in seq order (dense matches), or a search through the
//   most selective index (sparse matches). Filters beyond SQLite's i64 map exactly.
import { toFilterKey, type ReceiptQuery } from '../../lib/query/receipt-query';
import { closeAllStoreHandles, getStore, statement, storeChanged, type StoreHandle, type StoreProblem } from './store-handle';
import { type RowProblem, checkStoredRow, rowProblemJson } from '../stored-row';
import { MAX_RECORD_BYTES } from '../../lib/sources/records';
import { Lru } from '../lru';
import { LISTED_MAX, MAX_FILTER_SETS, envCount, firstAfter } from '../paging';

export { getStore, type StoreHandle, type StoreOpen, type StoreProblem } from './store-handle';

const I64_MAX = (1n << 63n) - 1n;
const I64_MIN = -(1n << 63n);
/**
 * A filter set with at most this many matches keeps their seqs (≤ 200 KB): its pages are slices.
 * RECEIPT_QUERY_LISTED_MAX overrides it (tests set 0 to exercise the other two page plans).
 */
const LISTED = envCount('RECEIPT_QUERY_LISTED_MAX', LISTED_MAX);
/** Walk seq order when at least this share of the seq span matches (≤ ~10k rows read per page of 200). */
const DENSE = 0.02;

/**
 * The largest page body: 16 MiB, the largest record the verifier reads (a page is one JSON
 * document). 200 receipts of 1–2 KB are about 300 KB; a page of large rows stops before this.
 */
export const MAX_PAGE_BYTES = MAX_RECORD_BYTES;

export interface ReceiptPage {
  totalCount: bigint;
  nextCursor: bigint | null;
  /** raw_json bytes in seq order, each checked (../stored-row.ts). */
  receipts: Uint8Array[];
  /** The page's rows that could not be spliced, by seq. */
  problems: RowProblem[];
}

interface Stats {
  count: bigint;
  /** min(seq) and max(seq) of the matches: the page never reads outside them. */
  lo: bigint;
  hi: bigint;
  driver: Group | 'any';
  /** All matching seqs, ascending, when there are at most LISTED. */
  seqs: BigInt64Array | null;
}

const counts = new Lru<string, Stats>(MAX_FILTER_SETS);

/** Closes every store handle and forgets every count (tests, benchmarks, shutdown). */
export function closeAllStores(): void {
  closeAllStoreHandles();
  counts.clear();
}

// ---------------------------------------------------------------- SQL fragments

const COST = "'$.metadata.financial.cost_charged'";
const COST_TEXT = `(raw_json -> ${COST})`;
const COST_VALUE = `json_extract(raw_json, ${COST})`;
/**
 * Financial receipts only: raw_json is valid JSON (json_* would abort the query otherwise) and
 * cost_charged is a non-negative integer token. json_extract gives an INTEGER up to 2^63-1 and
 * compares it numerically; a larger token comes back REAL, so it is compared exactly as digits.
 */
const COST_CLAUSE = `(json_valid(raw_json) AND CASE typeof(${COST_VALUE})
  WHEN 'integer' THEN ${COST_VALUE} >= 0 AND ${COST_VALUE} > @costMinExclusive AND ${COST_VALUE} <= @costMaxInt
  WHEN 'real' THEN json_type(raw_json, ${COST}) = 'integer' AND substr(${COST_TEXT}, 1, 1) <> '-'
    AND (@costHasMin = 0 OR length(${COST_TEXT}) > @costMinLen OR (length(${COST_TEXT}) = @costMinLen AND ${COST_TEXT} >= @costMinText))
    AND (@costHasMax = 0 OR length(${COST_TEXT}) < @costMaxLen OR (length(${COST_TEXT}) = @costMaxLen AND ${COST_TEXT} <= @costMaxText))
  ELSE 0 END)`;

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Filters that an index of the Chio schema can drive. Without sqlite_stat1 (a read-only store
 * cannot be ANALYZEd) SQLite guesses between them and may walk 700k `allow` rows to find one
 * capability's 2,500; so when several are present, the one with the smallest count drives and
 * the others are written `+column` (no index).
 */
type Group = 'capability' | 'subject' | 'tool' | 'time' | 'outcome';
const GROUP_KEYS: Record<Group, (keyof ReceiptQuery)[]> = {
  capability: ['capabilityId'],
  subject: ['agentSubject'],
  tool: ['toolServer', 'toolName'],
  time: ['since', 'until'],
  outcome: ['outcome'],
};

type Col = (name: string) => string;
interface Clause {
  group: Group | null;
  sql: (col: Col) => string;
}
interface Filters {
  /** One letter per filter present: with the plan, the statement cache key. */
  shape: string;
  clauses: Clause[];
  groups: Group[];
  params: Record<string, string | bigint | number>;
}

function costParams(q: ReceiptQuery): Record<string, string | bigint | number> {
  const minText = q.minCost?.toString() ?? '';
  const maxText = q.maxCost?.toString() ?? '';
  return {
    costMinExclusive: q.minCost === undefined ? -1n : min(q.minCost - 1n, I64_MAX),
    costMaxInt: q.maxCost === undefined ? I64_MAX : min(q.maxCost, I64_MAX),
    costHasMin: q.minCost === undefined ? 0 : 1,
    costHasMax: q.maxCost === undefined ? 0 : 1,
    costMinLen: minText.length,
    costMinText: minText,
    costMaxLen: maxText.length,
    costMaxText: maxText,
  };
}

/** Values beyond SQLite's i64 are mapped exactly: `> min(since-1, i64max)`, `<= min(until, i64max)`. */
function filtersOf(q: ReceiptQuery, hasLineage: boolean): Filters {
  const f: Filters = { shape: '', clauses: [], groups: [], params: {} };
  const add = (letter: string, group: Group | null, sql: Clause['sql'], params: Filters['params']) => {
    f.shape += letter;
    f.clauses.push({ group, sql });
    if (group && !f.groups.includes(group)) f.groups.push(group);
    Object.assign(f.params, params);
  };
  if (q.capabilityId !== undefined) add('c', 'capability', (col) => `${col('capability_id')} = @capabilityId`, { capabilityId: q.capabilityId });
  if (q.toolServer !== undefined) add('s', 'tool', (col) => `${col('tool_server')} = @toolServer`, { toolServer: q.toolServer });
  // tool_name is the second column of (tool_server, tool_name): no index of its own.
  const nameGroup = q.toolServer !== undefined ? 'tool' : null;
  if (q.toolName !== undefined) add('t', nameGroup, (col) => `${col('tool_name')} = @toolName`, { toolName: q.toolName });
  if (q.outcome !== undefined) add('o', 'outcome', (col) => `${col('decision_kind')} = @outcome`, { outcome: q.outcome });
  if (q.since !== undefined) add('a', 'time', (col) => `${col('timestamp')} > @sinceExclusive`, { sinceExclusive: min(q.since - 1n, I64_MAX) });
  if (q.until !== undefined) add('b', 'time', (col) => `${col('timestamp')} <= @untilInt`, { untilInt: min(q.until, I64_MAX) });
  if (q.agentSubject !== undefined) {
    const viaLineage = (col: Col) => ` OR ${col('capability_id')} IN (SELECT capability_id FROM capability_lineage WHERE subject_key = @agentSubject)`;
    const sql = (col: Col) => `(${col('subject_key')} = @agentSubject${hasLineage ? viaLineage(col) : ''})`;
    add(hasLineage ? 'L' : 'g', 'subject', sql, { agentSubject: q.agentSubject });
  }
  if (q.minCost !== undefined || q.maxCost !== undefined) add('$', null, () => COST_CLAUSE, costParams(q));
  return f;
}

/** `driver`: the group whose index may be used; null: none (walk seq order); 'any': SQLite picks. */
function where(f: Filters, driver: Group | null | 'any'): string {
  if (f.clauses.length === 0) return '1';
  const keep = (c: Clause) => driver === 'any' || (driver !== null && c.group === driver);
  return f.clauses.map((c) => c.sql(keep(c) ? (name) => name : (name) => `+${name}`)).join(' AND ');
}

const RAW = 'CAST(raw_json AS BLOB), typeof(raw_json)';

// ---------------------------------------------------------------- the query

function subQuery(q: ReceiptQuery, group: Group): ReceiptQuery {
  const sub: ReceiptQuery = { limit: q.limit };
  for (const key of GROUP_KEYS[group]) if (q[key] !== undefined) Object.assign(sub, { [key]: q[key] });
  return sub;
}

function cacheKey(store: StoreHandle, q: ReceiptQuery): string {
  return `${store.file}\u0000${store.signature}\u0000${toFilterKey(q)}`;
}

function statsOf(store: StoreHandle, q: ReceiptQuery): Stats {
  const key = cacheKey(store, q);
  let stats = counts.get(key);
  if (!stats) {
    stats = computeStats(store, q);
    counts.set(key, stats);
  }
  return stats;
}

/**
 * With several index groups, each group's own stats (cached, cheap through its index) pick the
 * driver (fewest matches) and bound the seq range to the intersection of theirs.
 */
function planOf(store: StoreHandle, q: ReceiptQuery, f: Filters): { driver: Group | 'any'; lo: bigint; hi: bigint } {
  const plan = { driver: 'any' as Group | 'any', lo: I64_MIN, hi: I64_MAX };
  if (f.groups.length < 2) return plan;
  let fewest = -1n;
  for (const group of f.groups) {
    const sub = statsOf(store, subQuery(q, group));
    plan.lo = max(plan.lo, sub.lo);
    plan.hi = min(plan.hi, sub.hi);
    if (fewest < 0n || sub.count < fewest) [plan.driver, fewest] = [group, sub.count];
  }
  return plan;
}

/**
 * Counts the matches, and keeps their seqs when there are at most LISTED: the first LISTED + 1
 * are read first, and only when there are more is the rest counted. With no index to drive
 * (cost or toolName alone) both read in seq order, the count resuming where the list stopped,
 * so the table is scanned once.
 */
function computeStats(store: StoreHandle, q: ReceiptQuery): Stats {
  const f = filtersOf(q, store.hasLineage);
  if (f.clauses.length === 0) {
    const sql = 'SELECT (SELECT count(*) FROM chio_tool_receipts), (SELECT min(seq) FROM chio_tool_receipts), (SELECT max(seq) FROM chio_tool_receipts)';
    const [count, lo, hi] = statement(store, 'count:', () => sql).get() as [bigint, bigint | null, bigint | null];
    return { count, lo: lo ?? 0n, hi: hi ?? -1n, driver: 'any', seqs: null };
  }
  const { driver, lo, hi } = planOf(store, q, f);
  if (lo > hi) return { count: 0n, lo: 0n, hi: -1n, driver, seqs: new BigInt64Array(0) };
  const scan = f.groups.length === 0;
  // With an index to drive, `+seq` bounds only filter its entries and must not become the driver.
  const filter = `FROM chio_tool_receipts WHERE ${where(f, driver)} AND ${scan ? 'seq' : '+seq'} BETWEEN @lo AND @hi`;
  const listSql = () => `SELECT seq ${filter}${scan ? ' ORDER BY seq' : ''} LIMIT @take`;
  const listed = statement(store, `list:${f.shape}:${driver}`, listSql).all({ ...f.params, lo, hi, take: LISTED + 1 }) as [bigint][];
  if (listed.length <= LISTED) {
    const seqs = BigInt64Array.from(listed, ([seq]) => seq).sort();
    return { count: BigInt(seqs.length), lo: seqs[0] ?? 0n, hi: seqs[seqs.length - 1] ?? -1n, driver, seqs };
  }
  const from = scan ? listed[LISTED]![0] + 1n : lo;
  const sql = () => `SELECT count(*), min(seq), max(seq) ${filter}`;
  const [rest, first, last] = statement(store, `count:${f.shape}:${driver}`, sql).get({ ...f.params, lo: from, hi }) as [bigint, bigint | null, bigint | null];
  if (!scan) return { count: rest, lo: first!, hi: last!, driver, seqs: null };
  return { count: BigInt(LISTED + 1) + rest, lo: listed[0]![0], hi: last ?? listed[LISTED]![0], driver, seqs: null };
}

type Row = [seq: bigint, raw: Buffer | null, type: string];

function fetchRows(store: StoreHandle, seqs: Iterable<bigint>): Row[] {
  const fetch = statement(store, 'fetch', () => `SELECT seq, ${RAW} FROM chio_tool_receipts WHERE seq = ?`);
  return Array.from(seqs, (seq) => fetch.get(seq) as Row);
}

/**
 * Filter sets answered by one index whose entries for them are in seq order (an equality on all
 * its columns): the index serves any page from `after` on, reading only the page's rows.
 */
const SEQ_ORDERED_SHAPES = new Set(['c', 'o', 'st', 'g']);

/**
 * Listed matches: a slice of the list. One seq-ordered index: that index. Dense matches (≥ DENSE
 * of their seq span): walk seq order without indexes, stopping after `take`. Otherwise: the seqs
 * through the driving index (sorted), then their rows.
 */
function readPage(store: StoreHandle, f: Filters, stats: Stats, after: bigint, take: number): Row[] {
  if (stats.seqs) {
    const seqs = stats.seqs;
    const from = firstAfter(seqs.length, (i) => seqs[i] ?? 0n, after);
    return fetchRows(store, stats.seqs.subarray(from, from + take));
  }
  const params = { ...f.params, after, hi: stats.hi, take };
  const range = 'seq > @after AND seq <= @hi ORDER BY seq LIMIT @take';
  const dense = Number(stats.count) / (Number(stats.hi - stats.lo) + 1) >= DENSE;
  if (dense && !SEQ_ORDERED_SHAPES.has(f.shape)) {
    const sql = () => `SELECT seq, ${RAW} FROM chio_tool_receipts WHERE ${where(f, null)} AND ${range}`;
    return statement(store, `walk:${f.shape}`, sql).all(params) as Row[];
  }
  const sql = () => `SELECT seq FROM chio_tool_receipts WHERE ${where(f, stats.driver)} AND ${range}`;
  const seqs = statement(store, `index:${f.shape}:${stats.driver}`, sql).all(params) as [bigint][];
  return fetchRows(
    store,
    seqs.map(([seq]) => seq),
  );
}

/** Room a page keeps for its head, tail and problems when it counts its receipts' bytes. */
const PAGE_RESERVE = 64 * 1024;
/** One page of `query` from an open store. Throws only on SQLite errors (a corrupt store). */
export function runReceiptQuery(store: StoreHandle, query: ReceiptQuery): ReceiptPage {
  const f = filtersOf(query, store.hasLineage);
  return store.db.transaction((): ReceiptPage => {
    const stats = statsOf(store, query);
    const after = max(min(query.cursor ?? -1n, I64_MAX), stats.lo - 1n);
    if (stats.count === 0n || after >= stats.hi) return { totalCount: stats.count, nextCursor: null, receipts: [], problems: [] };
    const rows = readPage(store, f, stats, after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const receipts: Uint8Array[] = [];
    const problems: RowProblem[] = [];
    let bytes = 0;
    for (let i = 0; i < page.length; i++) {
      const [seq, raw, type] = page[i]!;
      const checked = checkStoredRow('chio_tool_receipts', Number(seq), 'raw_json', type, raw);
      if (!checked.ok) {
        problems.push(checked.problem);
        continue;
      }
      // Valid JSON: whitespace (even a newline) is harmless inside the page's array.
      if (receipts.length > 0 && bytes + raw!.length + 1 > MAX_PAGE_BYTES - PAGE_RESERVE) {
        // Full: the page ends at the last row it holds, and the cursor says there is more.
        return { totalCount: stats.count, nextCursor: page[i - 1]![0], receipts, problems };
      }
      bytes += raw!.length + 1;
      receipts.push(raw!);
    }
    const nextCursor = rows.length > query.limit ? page[page.length - 1]![0] : null;
    return { totalCount: stats.count, nextCursor, receipts, problems };
  })();
}

const ascii = (s: string) => Buffer.from(s, 'latin1');
const COMMA = ascii(',');
const TAIL = ascii(']}');

/**
 * `{"totalCount":N,"nextCursor":N|null,"receipts":[<raw_json>,…]}` with the rows spliced in
 * verbatim, and `"problems":[…]` after them when some rows could not be.
 */
export function receiptPageBody(page: ReceiptPage): Uint8Array {
  const head = ascii(`{"totalCount":${page.totalCount},"nextCursor":${page.nextCursor ?? 'null'},"receipts":[`);
  const parts: Uint8Array[] = [head];
  page.receipts.forEach((r, i) => parts.push(...(i ? [COMMA, r] : [r])));
  parts.push(page.problems.length ? Buffer.from(`],"problems":[${page.problems.map(rowProblemJson).join(',')}]}`, 'utf8') : TAIL);
  return Buffer.concat(parts);
}

/**
 * Runs `query` on the store at `file` and returns the response body. An immutable handle takes
 * no locks, so if the store changed while it was read (a kernel started writing), the read, or
 * its error, is discarded once and the query runs again on a fresh handle.
 */
export function queryReceiptStore(file: string, query: ReceiptQuery): { ok: true; body: Uint8Array; page: ReceiptPage } | ({ ok: false } & StoreProblem) {
  for (let attempt = 0; ; attempt++) {
    const open = getStore(file);
    if (!open.ok) return open;
    const retry = () => attempt === 0 && open.store.mode === 'immutable' && storeChanged(open.store);
    let page: ReceiptPage;
    try {
      page = runReceiptQuery(open.store, query);
    } catch (e) {
      if (retry()) continue;
      throw e;
    }
    if (retry()) continue;
    return { ok: true, body: receiptPageBody(page), page };
  }
}
