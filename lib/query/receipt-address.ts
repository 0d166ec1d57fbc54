// A receipt's address in the open log (issue 20). One id can name several receipts
// (`duplicate_receipt_id`: a forged copy beside the genuine one, the same receipt from two
// sources), so links name the copy: the receipt page's URL is
// `/receipts/<id>?file=<file>&line=<line>[&from=<source>]`, `from` only when the log has more than
// one source, and `source=<log>` first when the link opens a log of its own (a share link, a link
// within such a view). A page given no copy, or an address several copies fit, lists the copies
// rather than pick one. Pure: strings in, strings and row numbers out.
import type { RowStore } from './row-store';

/** Which copy of an id: where it was read. Any part may be absent (an id-only link). */
export interface CopyAddress {
  file?: string;
  line?: number;
  /** The source's name, as the explorer's `source` column has it. */
  from?: string;
}

const MAX_PARAM = 2048;

/** The receipt page's URL for `id`, at `at`, within the view of the log `view` (a `?source=` value) when given. */
export function receiptUrl(id: string, at: CopyAddress = {}, view?: string | null): string {
  const q = new URLSearchParams();
  if (view) q.set('source', view);
  if (at.file !== undefined) q.set('file', at.file);
  if (at.line !== undefined) q.set('line', String(at.line));
  if (at.from !== undefined) q.set('from', at.from);
  const query = q.toString();
  return `/receipts/${encodeURIComponent(id)}${query ? `?${query}` : ''}`;
}

/** The copy a URL names; malformed parts are dropped (a link never breaks the page, it lists the copies). */
export function copyAddressFromParams(p: URLSearchParams): CopyAddress {
  const at: CopyAddress = {};
  const file = p.get('file');
  const line = p.get('line');
  const from = p.get('from');
  if (file && file.length <= MAX_PARAM) at.file = file;
  if (line && /^\d{1,9}$/.test(line)) at.line = Number(line);
  if (from && from.length <= MAX_PARAM) at.from = from;
  return at;
}

/** Whether the open log's receipts come from more than one named source. */
export function manySources(store: RowStore): boolean {
  return store.dict.source.values.length > 2;
}

/** The address of the copy at `row`: file and line, and its source when the log has several. */
export function copyAddressOf(store: RowStore, row: number): CopyAddress {
  const at: CopyAddress = { line: store.line[row]! };
  const file = store.str('file', row);
  if (file !== undefined) at.file = file;
  const from = store.str('source', row);
  if (from !== undefined && manySources(store)) at.from = from;
  return at;
}

/** The receipt page's URL for the copy at `row`. */
export function rowUrl(store: RowStore, row: number, view?: string | null): string {
  return receiptUrl(store.str('id', row) ?? '', copyAddressOf(store, row), view);
}

/** Every row with receipt id `id`, in log order. */
export function copiesOf(store: RowStore, id: string): number[] {
  const rows = store.rowsOfId(id);
  if (rows.length <= 1) return rows;
  const { posOfRow } = store.positions();
  return rows.sort((a, b) => posOfRow[a]! - posOfRow[b]!);
}

/** The copies among `rows` that `at` fits (all of them when it names nothing). */
export function matchCopies(store: RowStore, rows: readonly number[], at: CopyAddress): number[] {
  return rows.filter(
    (r) =>
      (at.file === undefined || store.str('file', r) === at.file) &&
      (at.line === undefined || store.line[r] === at.line) &&
      (at.from === undefined || store.str('source', r) === at.from),
  );
}

/** Whether the address names a copy at all. */
export function namesCopy(at: CopyAddress): boolean {
  return at.file !== undefined || at.line !== undefined || at.from !== undefined;
}
