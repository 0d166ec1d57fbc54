// The explorer's rows, columnar: one typed array per column and dictionary
// codes for strings, so a million receipts cost tens of megabytes instead of a
// million objects, and filters scan arrays rather than objects. The log worker
// encodes the receipts' display fields (RowEncoder: codes assigned there, with
// the dictionaries' maps) and sends the new rows as a RowDelta of typed arrays
// it gives away; the page's RowStore only copies them in. Rows arrive in any
// order and get their verdicts when the log is assembled. Pure. The columns and row states are in
// ./row-columns.ts (re-exported here for the many files that read them), the encoder in
// ./row-encoder.ts.
import { PROBLEM_CODES, type ProblemCode } from '../verdict/problems';
import type { ReceiptView } from '../verdict/receipt-view';
import type { VerificationReport } from '../verdict/report';
import { radixSortRows } from './radix-sort';
import { STRING_COLUMNS, type RowVerdict, type StringColumn, VERDICTS, rowVerdictOf } from './row-columns';
import { type RowDelta, RowEncoder } from './row-encoder';
import { TextIndex } from './text-index';

export { STRING_COLUMNS, type RowVerdict, type StringColumn, VERDICTS, VERDICT_LABEL, rowVerdictOf } from './row-columns';

/** Beyond this many values, a lookup scans the values instead of building a map of them. */
const LOOKUP_MAP_MAX = 100_000;

/** A column's distinct values on the page (code = index; code 0, "", is "absent"). */
export class Dictionary {
  readonly values: string[] = [''];
  private readonly index = new Map<string, number>([['', 0]]);
  private indexed = 1;

  /** The code of `v`, if the column has it. `many`: more lookups follow, so index every value (once). */
  lookup(v: string, many = false): number | undefined {
    if (!many && this.values.length > LOOKUP_MAP_MAX && this.indexed < this.values.length) {
      // A column of (nearly) unique values, like receipt ids: one native scan, no million-entry map.
      const c = this.values.indexOf(v);
      return c < 0 ? undefined : c;
    }
    for (; this.indexed < this.values.length; this.indexed++)
      if (!this.index.has(this.values[this.indexed]!)) this.index.set(this.values[this.indexed]!, this.indexed);
    return this.index.get(v);
  }

  private readonly text = new TextIndex();
  /** One byte per code: 1 where the value contains `q` (lower-case), case-insensitively. */
  matches(q: string): Uint8Array {
    const hit = new Uint8Array(this.values.length);
    this.text.search(this.values, q, hit);
    return hit;
  }
  /** Prepares up to `maxValues` more values for search (idle time); true once all are ready. */
  warmSearch(maxValues: number): boolean {
    return this.text.warm(this.values, maxValues);
  }
}

/** Room for at least `min` entries, growing by half (a doubling leaves up to half of a million-row column unused). */
function grow<T extends Float64Array | Uint32Array | Uint16Array | Uint8Array | BigUint64Array>(a: T, min: number): T {
  if (a.length >= min) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(min, Math.ceil(a.length * 1.5), 1024));
  next.set(a as never);
  return next;
}

/** A column's codes: one byte a row while its dictionary has under 256 values, then two, then four. */
export type CodeArray = Uint8Array | Uint16Array | Uint32Array;

/** `a` with room for `min` rows and wide enough for `maxCode` (the first `rows` kept). */
function fitCodes(a: CodeArray, min: number, maxCode: number, rows: number): CodeArray {
  const Wide = maxCode < 2 ** 8 ? Uint8Array : maxCode < 2 ** 16 ? Uint16Array : Uint32Array;
  if (Wide.BYTES_PER_ELEMENT <= a.BYTES_PER_ELEMENT) return grow(a, min);
  const next = new Wide(Math.max(min, a.length, 1024));
  next.set(a.subarray(0, rows));
  return next;
}

/** A set of problem codes as the two words of RowStore.problems / problemsHi. */
export interface ProblemMask {
  lo: number;
  hi: number;
}

export function problemMask(codes: readonly string[]): ProblemMask {
  const m = { lo: 0, hi: 0 };
  for (const c of codes) {
    const i = (PROBLEM_CODES as readonly string[]).indexOf(c);
    if (i < 0) continue;
    if (i < 32) m.lo |= 1 << i;
    else m.hi |= 1 << (i - 32);
  }
  return m;
}

export class RowStore {
  length = 0;
  /** Bumped whenever rows or verdicts change (caches derived from the rows compare it). */
  version = 0;
  order = new Float64Array(1024);
  time = new Float64Array(1024);
  /** cost_charged in minor units (exact), with `hasCost` saying whether there is one. */
  cost = new BigUint64Array(1024);
  hasCost = new Uint8Array(1024);
  verdict = new Uint8Array(1024);
  /**
   * Bit i of word i >> 5 set: the row has a problem of PROBLEM_CODES[i]. Two words, since the
   * contract's closed list outgrew 32 codes; `problemMask` and `hasProblem` read them together.
   */
  problems = new Uint32Array(1024);
  problemsHi = new Uint32Array(1024);
  line = new Uint32Array(1024);
  readonly dict: Record<StringColumn, Dictionary>;
  readonly codes: Record<StringColumn, CodeArray>;
  /** Rows per dictionary code, counted as rows arrive, so facet menus never scan the rows. */
  private readonly counts: Record<StringColumn, Uint32Array>;
  /** Per id code: 1 + the first row with that id (0: none). */
  private rowOfIdCode = new Uint32Array(1024);

  constructor() {
    this.dict = Object.fromEntries(STRING_COLUMNS.map((c) => [c, new Dictionary()])) as Record<StringColumn, Dictionary>;
    this.codes = Object.fromEntries(STRING_COLUMNS.map((c) => [c, new Uint8Array(1024)])) as Record<StringColumn, CodeArray>;
    this.counts = Object.fromEntries(STRING_COLUMNS.map((c) => [c, new Uint32Array(1024)])) as Record<StringColumn, Uint32Array>;
  }

  /** Adds receipts directly (tests, Node): the same encoding the log worker does, applied here. */
  append(views: readonly ReceiptView[]): void {
    this.encoder ??= new RowEncoder();
    this.encoder.add(views);
    const d = this.encoder.take();
    if (d) this.applyDelta(d);
  }
  private encoder: RowEncoder | null = null;

  /** Copies in the rows of a delta from the log worker (deltas arrive in order). */
  applyDelta(d: RowDelta): void {
    if (d.from !== this.length) throw new Error(`rows ${d.from}… arrived after ${this.length} rows: a delta was lost or reordered`);
    const n = this.length + d.count;
    this.order = grow(this.order, n);
    this.time = grow(this.time, n);
    this.cost = grow(this.cost, n);
    this.hasCost = grow(this.hasCost, n);
    this.verdict = grow(this.verdict, n);
    this.problems = grow(this.problems, n);
    this.problemsHi = grow(this.problemsHi, n);
    this.line = grow(this.line, n);
    const at = this.length;
    this.order.set(d.order, at);
    this.time.set(d.time, at);
    this.cost.set(d.cost, at);
    this.hasCost.set(d.hasCost, at);
    this.verdict.set(d.verdict, at);
    this.line.set(d.line, at);
    for (const c of STRING_COLUMNS) {
      const values = this.dict[c].values;
      for (const v of d.values[c]) values.push(v);
      this.codes[c] = fitCodes(this.codes[c], n, values.length - 1, at);
      this.codes[c].set(d.codes[c], at);
      const counts = (this.counts[c] = grow(this.counts[c], values.length));
      const codes = d.codes[c];
      for (let i = 0; i < d.count; i++) counts[codes[i]!]!++;
    }
    // The first row of each id (the receipt page's lookup).
    this.rowOfIdCode = grow(this.rowOfIdCode, this.dict.id.values.length);
    const ids = d.codes.id;
    for (let i = 0; i < d.count; i++) if (this.rowOfIdCode[ids[i]!] === 0) this.rowOfIdCode[ids[i]!] = at + i + 1;
    this.length = n;
    this.version++;
  }

  /** Verdicts and problem codes from the assembled report (rows are matched by their order). */
  applyReport(report: VerificationReport): void {
    this.version++;
    const { rowAtPos } = this.positions();
    report.receipts.forEach((r, k) => {
      const row = rowAtPos[k];
      if (row !== undefined) this.verdict[row] = VERDICTS.indexOf(rowVerdictOf(r));
    });
    const many = report.problems.length > 16;
    for (const p of report.problems) {
      if (p.receipt_id === undefined) continue;
      const bit = PROBLEM_CODES.indexOf(p.code);
      const words = bit < 32 ? this.problems : this.problemsHi;
      for (const row of this.rowsAt(p.receipt_id, p.file, p.line, many)) words[row]! |= 1 << (bit & 31);
    }
  }

  /** The rows of receipt `id`, in arrival order (log order: see positions), at most `limit`. */
  rowsOfId(id: string, many = false, limit = Infinity): number[] {
    const code = this.dict.id.lookup(id, many);
    if (code === undefined || code === 0) return [];
    const first = this.rowOfIdCode[code]! - 1;
    if (first < 0) return [];
    if (this.counts.id[code]! <= 1) return [first];
    const next = this.sameIdChain();
    const out: number[] = [];
    for (let row = first; row >= 0 && out.length < limit; row = next[row]! - 1) out.push(row);
    return out;
  }

  /**
   * The rows a problem located at (`id`, `file`, `line`) concerns: the copy of the id read there.
   * A problem without a file concerns every copy. Two sources can hold the id at the same file and
   * line (two packages both have `receipts.ndjson`); a problem carries no source, so it then marks
   * each of them (the receipt page says the place is shared).
   */
  rowsAt(id: string, file: string | undefined, line: number | undefined, many = false): number[] {
    const rows = this.rowsOfId(id, many);
    if (file === undefined || rows.length <= 1) return rows;
    const at = rows.filter((r) => this.str('file', r) === file && (line === undefined || this.line[r] === line));
    return at.length > 0 ? at : rows;
  }

  /** Per row, 1 + the next row with the same id (0: none); built once per length, only when some id repeats. */
  private sameIdChain(): Uint32Array {
    if (this.idChain?.length === this.length) return this.idChain.next;
    const n = this.length;
    const next = new Uint32Array(n);
    const last = new Uint32Array(this.dict.id.values.length);
    const ids = this.codes.id;
    for (let row = 0; row < n; row++) {
      const c = ids[row]!;
      if (c === 0) continue;
      if (last[c]! !== 0) next[last[c]! - 1] = row + 1;
      last[c] = row + 1;
    }
    this.idChain = { length: n, next };
    return next;
  }
  private idChain: { length: number; next: Uint32Array } | null = null;

  private logOrder: { length: number; posOfRow: Uint32Array; rowAtPos: Uint32Array } | null = null;

  /**
   * Each row's position in log order and the row at each position (rows arrive
   * in worker-batch order, not log order), computed once per store length.
   */
  positions(): { posOfRow: Uint32Array; rowAtPos: Uint32Array } {
    if (this.logOrder?.length === this.length) return this.logOrder;
    // Orders are integers below 2^53: a radix sort of their two 32-bit words. Receipts of other
    // runtimes found in one record share its order's [order, order + 1) (lib/verify/family-audit.ts):
    // with any such fraction, a comparison sort (those logs are small).
    const n = this.length;
    const lo = new Uint32Array(n);
    const hi = new Uint32Array(n);
    let fractional = false;
    for (let i = 0; i < n; i++) {
      const o = this.order[i]!;
      if (!Number.isInteger(o)) fractional = true;
      lo[i] = o % 2 ** 32;
      hi[i] = Math.floor(o / 2 ** 32);
    }
    const rows = new Uint32Array(n);
    for (let i = 0; i < n; i++) rows[i] = i;
    const order = this.order;
    const rowAtPos = fractional ? rows.sort((a, b) => order[a]! - order[b]! || a - b) : radixSortRows(rows, lo, hi);
    const posOfRow = new Uint32Array(n);
    for (let k = 0; k < n; k++) posOfRow[rowAtPos[k]!] = k;
    this.logOrder = { length: n, posOfRow, rowAtPos };
    return this.logOrder;
  }

  /**
   * The id of the report's receipt at log position `k`: report receipts are the rows' receipts in
   * log order, so the page takes their ids from the rows rather than receive a million again. The
   * row at that position must be at the receipt's `file` and `line`; if not, the rows and the
   * report disagree, and this throws rather than show a receipt under another's id.
   */
  reportId(k: number, file: string, line: number): string {
    const row = k < this.length ? this.positions().rowAtPos[k] : undefined;
    if (row === undefined || this.line[row] !== line || this.str('file', row) !== file) {
      throw new Error(`the report's receipt ${k + 1} (${file}:${line}) is not the explorer's row ${k + 1} in log order: the rows and the report disagree`);
    }
    return this.str('id', row) ?? '';
  }

  rowById(id: string, many = false): number | undefined {
    const code = this.dict.id.lookup(id, many);
    const row = code === undefined || code === 0 ? 0 : this.rowOfIdCode[code]!;
    return row === 0 ? undefined : row - 1;
  }

  str(column: StringColumn, row: number): string | undefined {
    const c = this.codes[column][row]!;
    return c === 0 ? undefined : this.dict[column].values[c];
  }

  /**
   * The request tree around a row (child receipts; tool receipts through their
   * governed call chain): its parents (the row whose request_id is its
   * parent_request_id in the same session, or whose id is its
   * parent_receipt_id) and its children (the reverse), at most `limit` each.
   */
  related(row: number, limit = 200): { parents: number[]; children: number[] } {
    const c = this.codes;
    const code = (col: StringColumn, from: StringColumn) => {
      const v = this.str(from, row);
      return v === undefined ? 0 : (this.dict[col].lookup(v) ?? -1);
    };
    const session = c.sessionId[row]!;
    const parentReq = code('requestId', 'parentRequestId');
    const parentId = code('id', 'parentReceiptId');
    const ownReq = code('parentRequestId', 'requestId');
    const ownId = code('parentReceiptId', 'id');
    const parents: number[] = [];
    const children: number[] = [];
    for (let i = 0; i < this.length; i++) {
      if (i === row) continue;
      const sameSession = c.sessionId[i] === session;
      if (parents.length < limit && ((parentReq > 0 && sameSession && c.requestId[i] === parentReq) || (parentId > 0 && c.id[i] === parentId))) parents.push(i);
      if (children.length < limit && ((ownReq > 0 && sameSession && c.parentRequestId[i] === ownReq) || (ownId > 0 && c.parentReceiptId[i] === ownId)))
        children.push(i);
    }
    return { parents, children };
  }

  problemCodes(row: number): ProblemCode[] {
    return PROBLEM_CODES.filter((_, i) => ((i < 32 ? this.problems : this.problemsHi)[row]! & (1 << (i & 31))) !== 0);
  }

  /** Whether the row has any of the problems in `mask` (from problemMask), or any at all without one. */
  hasProblem(row: number, mask?: ProblemMask): boolean {
    if (!mask) return this.problems[row] !== 0 || this.problemsHi[row] !== 0;
    return (this.problems[row]! & mask.lo) !== 0 || (this.problemsHi[row]! & mask.hi) !== 0;
  }

  verdictOf(row: number): RowVerdict {
    return VERDICTS[this.verdict[row]!]!;
  }

  /** How many rows are in state `v`. */
  countVerdict(v: RowVerdict): number {
    const code = VERDICTS.indexOf(v);
    let n = 0;
    for (let i = 0; i < this.length; i++) if (this.verdict[i] === code) n++;
    return n;
  }

  /** Distinct values of a column with their row counts, most frequent first (for filter menus). */
  facet(column: StringColumn): { value: string; count: number }[] {
    const counts = this.counts[column];
    const out: { value: string; count: number }[] = [];
    this.dict[column].values.forEach((value, code) => {
      if (code !== 0 && counts[code]! > 0) out.push({ value, count: counts[code]! });
    });
    return out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  }
}
