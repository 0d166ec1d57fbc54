// What each explorer column shows for a row (the text, before the page reveals
// hidden characters), and for each column the few texts that bound its width
// over a set of rows (the whole log, or a preset's rows), so the table can size
// its columns to their content without rendering a million rows: the longest
// values of a dictionary among those rows, the largest amount of each
// currency. One pass over the rows per column. Pure.
import { formatMinor } from '../finance/money';
import type { ColumnKey } from './explorer-columns';
import { type RowStore, type StringColumn, VERDICTS, VERDICT_LABEL } from './row-store';
import { RUNTIMES, runtimeOf } from './runtimes';
import { formatUtc } from './utc-time';

/** A cell shows at most this many characters (the rest is clipped, and says so). */
export const CELL_MAX_CHARS = 60;

/** Where a row was read: `file:line`, then its source when the log has several and the file does not name it. */
export function whereOf(store: RowStore, row: number, many: boolean): string {
  const file = store.str('file', row) ?? '?';
  const source = store.str('source', row);
  return `${file}:${store.line[row]}${many && source !== undefined && source !== file ? ` in ${source}` : ''}`;
}

/** Ids (receipts', capabilities') longer than this show their start and end (the tail is what tells UUIDv7 ids of one second apart). */
export const ID_SHOWN_CHARS = 24;
const PLAIN_ID = /^[\x21-\x7e]+$/;

/**
 * The id as its cell shows it: `rcpt-019b76da…6e0db50440` for a long plain id (its row's link,
 * the receipt page and exports have it whole); any other id whole (its hidden characters must
 * stay in view, and the cell clips it).
 */
export function shortId(id: string): string {
  if (id.length <= ID_SHOWN_CHARS || !PLAIN_ID.test(id)) return id;
  const head = 13;
  return `${id.slice(0, head)}…${id.slice(id.length - (ID_SHOWN_CHARS - head - 1))}`;
}

/** The cost cell: the charged amount, exact, or what a denial refused to charge. */
export function costText(store: RowStore, row: number): string {
  if (store.hasCost[row]) return formatMinor(store.cost[row]!, store.str('currency', row));
  const attempted = store.str('attemptedCost', row);
  return attempted ? `(${attempted} refused)` : '';
}

/** The text of column `key` for `row`; `many`: the log has several sources. */
export function cellText(store: RowStore, row: number, key: ColumnKey, many: boolean): string {
  const s = (c: StringColumn) => store.str(c, row);
  switch (key) {
    case 'time':
      return formatUtc(store.time[row]!);
    case 'runtime':
      return runtimeOf(s('type'))?.label ?? s('type') ?? '—';
    case 'toolServer':
      return s('toolServer') ?? '—';
    case 'toolName':
      return s('toolName') ?? s('operationKind') ?? '—';
    case 'decision':
      return s('decision') ?? s('receiptKind') ?? '—';
    case 'kind':
      return s('receiptKind') ?? s('type') ?? '';
    case 'cost':
      return costText(store, row);
    case 'problems':
      return store.problemCodes(row).join(', ');
    case 'verdict':
      return VERDICT_LABEL[store.verdictOf(row)];
    case 'where':
      return whereOf(store, row, many);
    case 'id':
    case 'capabilityId':
      return shortId(s(key) ?? '');
    default:
      return s(key) ?? '';
  }
}

/** True when some id names more than one row, or the rows come from several sources. */
export function hasCopies(store: RowStore, many: boolean): boolean {
  return many || store.dict.id.values.length - 1 < store.length;
}

/** Rows to look at: `rows`, or every row. */
type Over = Uint32Array | undefined;
const each = (store: RowStore, rows: Over, f: (row: number) => void) => {
  if (rows) for (let j = 0; j < rows.length; j++) f(rows[j]!);
  else for (let i = 0; i < store.length; i++) f(i);
};

/** Past this many distinct values (ids), a column's values are looked at with a stride: a width needs no exact maximum (it is capped). */
const LOOK_AT_MOST = 100_000;

/** The `k` longest values of some dictionaries among the rows, cut as a cell cuts them. */
function longest(store: RowStore, columns: StringColumn[], rows: Over, k = 12): string[] {
  const top: string[] = [];
  for (const c of columns) {
    const values = store.dict[c].values;
    let used: Uint8Array | undefined;
    if (rows) {
      used = new Uint8Array(values.length);
      const codes = store.codes[c];
      for (let j = 0; j < rows.length; j++) used[codes[rows[j]!]!] = 1;
    }
    const stride = Math.max(1, Math.ceil(values.length / LOOK_AT_MOST));
    for (let code = 1; code < values.length; code += stride) {
      if (used && !used[code]) continue;
      const v = values[code]!;
      if (top.length < k) top.push(v);
      else if (v.length > top[k - 1]!.length) top[k - 1] = v;
      else continue;
      top.sort((a, b) => b.length - a.length);
    }
  }
  return top.map((v) => v.slice(0, CELL_MAX_CHARS + 1));
}

/** The largest charge of each currency, formatted: the widest amount of each (digits are tabular). */
function widestAmounts(store: RowStore, rows: Over): string[] {
  // Compared as the two 32-bit words of each u64 (no BigInt per row: a million rows).
  const words = new Uint32Array(store.cost.buffer, store.cost.byteOffset, store.cost.length * 2);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const [H, L] = little ? [1, 0] : [0, 1];
  // Per currency code: 1 + the row of its largest charge so far (0: none yet).
  const best = new Uint32Array(store.dict.currency.values.length);
  const currency = store.codes.currency;
  const hasCost = store.hasCost;
  const n = rows ? rows.length : store.length;
  for (let j = 0; j < n; j++) {
    const i = rows ? rows[j]! : j;
    if (!hasCost[i]) continue;
    const c = currency[i]!;
    const b = best[c]! - 1;
    if (b < 0 || words[2 * i + H]! > words[2 * b + H]! || (words[2 * i + H] === words[2 * b + H] && words[2 * i + L]! > words[2 * b + L]!)) best[c] = i + 1;
  }
  const out: string[] = [];
  best.forEach((r, c) => r > 0 && out.push(formatMinor(store.cost[r - 1]!, c === 0 ? undefined : store.dict.currency.values[c])));
  return out;
}

/**
 * Texts at least as wide as any cell of `key` among `rows` (all rows when absent), measured by
 * the page in the table's font; `many`: the log has several sources. Empty for a column no row fills.
 */
export function widthSamples(store: RowStore, key: ColumnKey, many: boolean, rows?: Uint32Array): string[] {
  const top = (columns: StringColumn[], k?: number) => longest(store, columns, rows, k);
  const none = (rows ? rows.length : store.length) === 0;
  switch (key) {
    case 'time':
      return none ? [] : ['0000-00-00 00:00:00'];
    case 'runtime':
      return RUNTIMES.map((r) => r.label);
    case 'toolName':
      return [...top(['toolName', 'operationKind']), '—'];
    case 'decision':
      return [...top(['decision', 'receiptKind']), '—'];
    case 'toolServer':
      return [...top(['toolServer']), '—'];
    case 'kind':
      return top(['receiptKind', 'type']);
    case 'id':
    case 'capabilityId':
      return top([key]).map(shortId);
    case 'cost':
      return [...widestAmounts(store, rows), ...top(['attemptedCost'], 3).map((a) => `(${a} refused)`)];
    case 'problems': {
      const any = new Set<string>();
      each(store, rows, (i) => {
        if (any.size < 8 && (store.problems[i] !== 0 || store.problemsHi[i] !== 0)) for (const c of store.problemCodes(i)) any.add(c);
      });
      return [[...any].join(', ').slice(0, CELL_MAX_CHARS + 1)];
    }
    case 'verdict': {
      const seen = new Uint8Array(VERDICTS.length);
      each(store, rows, (i) => (seen[store.verdict[i]!] = 1));
      return VERDICTS.filter((_, i) => seen[i]).map((v) => VERDICT_LABEL[v]);
    }
    case 'where': {
      let line = 0;
      each(store, rows, (i) => (line = Math.max(line, store.line[i]!)));
      const files = top(['file'], 4);
      if (!files.length) files.push('?');
      const sources = many ? top(['source'], 2) : [];
      if (!sources.length) sources.push('');
      return files.flatMap((f) => sources.map((src) => `${f}:${line}${src ? ` in ${src}` : ''}`.slice(0, CELL_MAX_CHARS + 1)));
    }
    default:
      return top([key]);
  }
}
