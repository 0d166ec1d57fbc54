// The report's receipts as columns, for handing a million of them from a Web
// Worker to the page: typed arrays and a string table clone in milliseconds,
// where a million small objects (each with its checks and details) took the
// page's main thread 15 s to unpack. The page rebuilds ReportReceipt objects
// in slices between frames, keys in the report's own order, so the exported
// report stays byte-identical to the command line's (the claims of an envelope
// a receipt arrived in included). The ids do not travel:
// the page has every receipt's id already, in the explorer's rows (see
// RowStore.reportId), and a million of them again cost about 150 MB.
import { ALL_RECEIPT_CHECKS, type CheckStatus, RECEIPT_CHECK_ORDER } from '../verdict/check';

import type { ReportEnvelope, ReportReceipt, Verdict } from '../verdict/report';

const TYPES: readonly ReportReceipt['type'][] = ['tool', 'child', 'http', 'zeroclaw', 'codewhale-review', 'codewhale-turn'];
const GENERATIONS = [undefined, 'A', 'B'] as const;
const VERDICTS: readonly Verdict[] = ['verified', 'failed', 'unverified'];
const STATUSES: readonly (CheckStatus | undefined)[] = [undefined, 'pass', 'fail', 'skipped'];

export interface ReceiptColumns {
  length: number;
  /** The checks a receipt row has room for, in report order: Chio's, and the dialects' when the log has their receipts. */
  checkNames: readonly string[];
  type: Uint8Array;
  generation: Uint8Array;
  verdict: Uint8Array;
  /** seq, when hasSeq. */
  seq: BigUint64Array;
  hasSeq: Uint8Array;
  /** Row-major, checkNames.length per receipt: index into [absent, pass, fail, skipped]. */
  checks: Uint8Array;
  /** Same layout: index into `strings` (0 = no detail), as wide as the table needs. */
  details: Uint8Array | Uint16Array | Uint32Array;
  file: Uint32Array;
  line: Float64Array;
  /** Index into `strings` (0 = none) of the receipt's envelope claims as JSON text (`report.ts` ReportEnvelope). */
  envelope: Uint8Array | Uint16Array | Uint32Array;
  /** The string table of details, files and envelope claims; entry 0 is unused. */
  strings: string[];
}

type Grown = 'type' | 'generation' | 'verdict' | 'seq' | 'hasSeq' | 'checks' | 'details' | 'file' | 'line' | 'envelope';
/** Columns of string codes, as wide as the string table needs. */
type CodeColumn = 'details' | 'envelope';

/** The receipt at position `i` of the report has this id (the page: from its rows, checked against `file` and `line`). */
export type IdAt = (i: number, file: string, line: number) => string;

/**
 * Encodes receipts as columns (in the worker) one at a time, as the report is
 * built, so their objects need not all exist at once. `expected`: how many
 * receipts will come, so the columns are made once at their size (growing by
 * doubling leaves a copy behind at each step and up to half unused).
 */
export class ReceiptColumnsEncoder {
  private n = 0;
  private capacity = 0;
  private readonly strings: string[] = [''];
  private readonly index = new Map<string, number>();
  private cols: Pick<ReceiptColumns, Grown>;
  private readonly names: readonly string[];

  /** `dialects`: the log has ZeroClaw or CodeWhale receipts, so rows also hold their checks (a Chio-only log pays nothing for them). */
  constructor(expected = 0, dialects = false) {
    this.capacity = expected;
    this.names = dialects ? ALL_RECEIPT_CHECKS : RECEIPT_CHECK_ORDER;
    this.cols = allocate(expected, this.names.length);
  }

  add(r: ReportReceipt): void {
    if (this.n === this.capacity) this.grow();
    const i = this.n++;
    const cols = this.cols;
    cols.type[i] = TYPES.indexOf(r.type);
    cols.generation[i] = r.generation === 'A' ? 1 : r.generation === 'B' ? 2 : 0;
    cols.verdict[i] = VERDICTS.indexOf(r.verdict);
    if (r.seq !== undefined) {
      cols.seq[i] = r.seq;
      cols.hasSeq[i] = 1;
    }
    const C = this.names.length;
    this.names.forEach((name, k) => {
      const s = r.checks[name];
      if (s !== undefined) cols.checks[i * C + k] = STATUSES.indexOf(s);
      const d = r.details?.[name];
      if (d !== undefined) this.setCode('details', i * C + k, this.code(d));
    });
    cols.file[i] = this.code(r.file);
    cols.line[i] = r.line;
    // Claims are strings only, so their JSON text is exact (and equal claims share one string).
    if (r.envelope) this.setCode('envelope', i, this.code(JSON.stringify(r.envelope)));
  }

  /** The columns, each exactly as long as the receipts added (the encoder's own when it was sized right). */
  finish(): ReceiptColumns {
    const n = this.n;
    const c = this.cols;
    const C = this.names.length;
    if (n === this.capacity) return { length: n, checkNames: this.names, ...c, strings: this.strings };
    return {
      length: n,
      checkNames: this.names,
      type: c.type.slice(0, n),
      generation: c.generation.slice(0, n),
      verdict: c.verdict.slice(0, n),
      seq: c.seq.slice(0, n),
      hasSeq: c.hasSeq.slice(0, n),
      checks: c.checks.slice(0, n * C),
      details: c.details.slice(0, n * C),
      file: c.file.slice(0, n),
      line: c.line.slice(0, n),
      envelope: c.envelope.slice(0, n),
      strings: this.strings,
    };
  }

  private code(s: string): number {
    let c = this.index.get(s);
    if (c === undefined) {
      c = this.strings.length;
      this.strings.push(s);
      this.index.set(s, c);
    }
    return c;
  }

  /** Sets a string code, widening the column first when the code needs it. */
  private setCode(column: CodeColumn, at: number, code: number): void {
    const Wide = code > 0xffff ? Uint32Array : code > 0xff ? Uint16Array : Uint8Array;
    if (Wide.BYTES_PER_ELEMENT > this.cols[column].BYTES_PER_ELEMENT) this.cols[column] = Wide.from(this.cols[column]);
    this.cols[column][at] = code;
  }

  private grow(): void {
    this.capacity = Math.max(1024, this.capacity * 2);
    const next = allocate(this.capacity, this.names.length);
    const widthOf = (column: CodeColumn) => this.cols[column].constructor as new (n: number) => ReceiptColumns[CodeColumn];
    next.details = new (widthOf('details'))(this.capacity * this.names.length);
    next.envelope = new (widthOf('envelope'))(this.capacity);
    for (const k of Object.keys(next) as Grown[]) (next[k] as { set(a: ArrayLike<number | bigint>): void }).set(this.cols[k] as ArrayLike<number | bigint>);
    this.cols = next;
  }
}

function allocate(n: number, C: number): Pick<ReceiptColumns, Grown> {
  return {
    type: new Uint8Array(n),
    generation: new Uint8Array(n),
    verdict: new Uint8Array(n),
    seq: new BigUint64Array(n),
    hasSeq: new Uint8Array(n),
    checks: new Uint8Array(n * C),
    details: new Uint8Array(n * C),
    file: new Uint32Array(n),
    line: new Float64Array(n),
    envelope: new Uint8Array(n),
  };
}

/** Per columns, the shared checks/details objects already made, by their codes. */
const sharedChecks = new WeakMap<ReceiptColumns, Map<string, Pick<ReportReceipt, 'checks' | 'details'>>>();
/** Per columns, the envelope objects already made, by their string codes. */
const sharedEnvelopes = new WeakMap<ReceiptColumns, Map<number, ReportEnvelope>>();

function envelopeAt(cols: ReceiptColumns, i: number): ReportEnvelope | undefined {
  const code = cols.envelope[i]!;
  if (code === 0) return undefined;
  let made = sharedEnvelopes.get(cols);
  if (!made) sharedEnvelopes.set(cols, (made = new Map()));
  let env = made.get(code);
  // Plain JSON of strings written by the encoder above (not a signed or hashed value).
  if (!env) made.set(code, (env = Object.freeze(JSON.parse(cols.strings[code]!) as ReportEnvelope)));
  return env;
}

/**
 * Rebuilds receipts [from, to) into `out` (on the page, a slice at a time) with
 * the values report.ts gave them. Receipts with the same checks and details
 * share one frozen `checks` (and `details`) object, and every receipt has the
 * same fields, absent ones `undefined` (which the report's JSON leaves out, as
 * it does for fields never set): a million receipts then cost tens of
 * megabytes, not hundreds.
 */
export function fromReceiptColumns(cols: ReceiptColumns, from: number, to: number, out: ReportReceipt[], idAt: IdAt): void {
  let shared = sharedChecks.get(cols);
  if (!shared) sharedChecks.set(cols, (shared = new Map()));
  const C = cols.checkNames.length;
  for (let i = from; i < to; i++) {
    let key = '';
    for (let k = 0; k < C; k++) key += `${cols.checks[i * C + k]!},${cols.details[i * C + k]!};`;
    let both = shared.get(key);
    if (!both) {
      const checks: Record<string, CheckStatus> = {};
      const details: Record<string, string> = {};
      let hasDetails = false;
      for (let k = 0; k < C; k++) {
        const s = STATUSES[cols.checks[i * C + k]!];
        if (s === undefined) continue;
        const name = cols.checkNames[k]!;
        checks[name] = s;
        const d = cols.details[i * C + k]!;
        if (d !== 0) {
          details[name] = cols.strings[d]!;
          hasDetails = true;
        }
      }
      both = { checks: Object.freeze(checks), details: hasDetails ? Object.freeze(details) : undefined };
      shared.set(key, both);
    }
    const file = cols.strings[cols.file[i]!]!;
    const line = cols.line[i]!;
    out[i] = {
      id: idAt(i, file, line),
      type: TYPES[cols.type[i]!]!,
      seq: cols.hasSeq[i] ? cols.seq[i]! : undefined,
      generation: GENERATIONS[cols.generation[i]!],
      verdict: VERDICTS[cols.verdict[i]!]!,
      checks: both.checks,
      details: both.details,
      file,
      line,
      envelope: envelopeAt(cols, i),
    };
  }
}

/** The typed arrays of `cols`, to give away in postMessage (the sender keeps none of them). */
export function receiptTransfer(cols: ReceiptColumns): ArrayBuffer[] {
  return [cols.type, cols.generation, cols.verdict, cols.seq, cols.hasSeq, cols.checks, cols.details, cols.file, cols.line, cols.envelope].map(
    (a) => a.buffer as ArrayBuffer,
  );
}
