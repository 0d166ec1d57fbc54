// The report's receipts as columns, for handing a million of them from a Web
// Worker to the page: typed arrays and a string table clone in milliseconds,
// where a million small objects (each with its checks and details) took the
// page's main thread 15 s to unpack. The page rebuilds the same ReportReceipt
// objects in slices between frames, keys in the report's own order, so the
// exported report stays byte-identical to the command line's.
import { type CheckStatus, RECEIPT_CHECK_ORDER } from './check';
import type { Verdict } from './entries';
import type { ReportReceipt } from './report';

const TYPES: readonly ReportReceipt['type'][] = ['tool', 'child', 'http'];
const GENERATIONS = [undefined, 'A', 'B'] as const;
const VERDICTS: readonly Verdict[] = ['verified', 'failed', 'unverified'];
const STATUSES: readonly (CheckStatus | undefined)[] = [undefined, 'pass', 'fail', 'skipped'];
const C = RECEIPT_CHECK_ORDER.length;

export interface ReceiptColumns {
  length: number;
  ids: string[];
  type: Uint8Array;
  generation: Uint8Array;
  verdict: Uint8Array;
  /** seq, when hasSeq. */
  seq: BigUint64Array;
  hasSeq: Uint8Array;
  /** Row-major, RECEIPT_CHECK_ORDER.length per receipt: index into [absent, pass, fail, skipped]. */
  checks: Uint8Array;
  /** Same layout: index into `strings` (0 = no detail). */
  details: Uint32Array;
  file: Uint32Array;
  line: Float64Array;
  /** The string table of details and files; entry 0 is unused. */
  strings: string[];
}

/** Encodes receipts as columns (in the worker). */
export function toReceiptColumns(receipts: readonly ReportReceipt[]): ReceiptColumns {
  const n = receipts.length;
  const strings: string[] = [''];
  const index = new Map<string, number>();
  const code = (s: string) => {
    let c = index.get(s);
    if (c === undefined) {
      c = strings.length;
      strings.push(s);
      index.set(s, c);
    }
    return c;
  };
  const cols: ReceiptColumns = {
    length: n,
    ids: new Array<string>(n),
    type: new Uint8Array(n),
    generation: new Uint8Array(n),
    verdict: new Uint8Array(n),
    seq: new BigUint64Array(n),
    hasSeq: new Uint8Array(n),
    checks: new Uint8Array(n * C),
    details: new Uint32Array(n * C),
    file: new Uint32Array(n),
    line: new Float64Array(n),
    strings,
  };
  receipts.forEach((r, i) => {
    cols.ids[i] = r.id;
    cols.type[i] = TYPES.indexOf(r.type);
    cols.generation[i] = r.generation === 'A' ? 1 : r.generation === 'B' ? 2 : 0;
    cols.verdict[i] = VERDICTS.indexOf(r.verdict);
    if (r.seq !== undefined) {
      cols.seq[i] = r.seq;
      cols.hasSeq[i] = 1;
    }
    RECEIPT_CHECK_ORDER.forEach((name, k) => {
      const s = r.checks[name];
      if (s !== undefined) cols.checks[i * C + k] = STATUSES.indexOf(s);
      const d = r.details?.[name];
      if (d !== undefined) cols.details[i * C + k] = code(d);
    });
    cols.file[i] = code(r.file);
    cols.line[i] = r.line;
  });
  return cols;
}

/** Rebuilds receipts [from, to) into `out` (on the page, a slice at a time), exactly as report.ts built them. */
export function fromReceiptColumns(cols: ReceiptColumns, from: number, to: number, out: ReportReceipt[]): void {
  for (let i = from; i < to; i++) {
    const checks: Record<string, CheckStatus> = {};
    const details: Record<string, string> = {};
    let hasDetails = false;
    for (let k = 0; k < C; k++) {
      const s = STATUSES[cols.checks[i * C + k]!];
      if (s === undefined) continue;
      const name = RECEIPT_CHECK_ORDER[k]!;
      checks[name] = s;
      const d = cols.details[i * C + k]!;
      if (d !== 0) {
        details[name] = cols.strings[d]!;
        hasDetails = true;
      }
    }
    const generation = GENERATIONS[cols.generation[i]!];
    out[i] = {
      id: cols.ids[i]!,
      type: TYPES[cols.type[i]!]!,
      ...(cols.hasSeq[i] ? { seq: cols.seq[i]! } : {}),
      ...(generation ? { generation } : {}),
      verdict: VERDICTS[cols.verdict[i]!]!,
      checks,
      ...(hasDetails ? { details } : {}),
      file: cols.strings[cols.file[i]!]!,
      line: cols.line[i]!,
    };
  }
}
