// The log worker's side of the explorer's rows (./row-store.ts): RowEncoder turns receipts'
// display fields into RowDeltas, assigning each string column's dictionary codes and keeping the
// dictionaries' maps, and a delta's typed arrays are given away in postMessage. Pure.
import type { ReceiptView } from '../verdict/receipt-view';
import { STRING_COLUMNS, type StringColumn, VERDICTS } from './row-columns';

/** New rows for a RowStore: columns for rows `from`…`from + count - 1` and each dictionary's new values. */
export interface RowDelta {
  from: number;
  count: number;
  order: Float64Array;
  time: Float64Array;
  cost: BigUint64Array;
  hasCost: Uint8Array;
  /** Verdict codes known already (a receipt whose own checks failed), else 0 (pending). */
  verdict: Uint8Array;
  line: Uint32Array;
  codes: Record<StringColumn, Uint32Array>;
  /** Values first seen in these rows, in code order, continuing each dictionary. */
  values: Record<StringColumn, string[]>;
}

/** The typed arrays a delta can give away in postMessage (none of them is kept by the sender). */
export function deltaTransfer(d: RowDelta): ArrayBuffer[] {
  return [d.order, d.time, d.cost, d.hasCost, d.verdict, d.line, ...STRING_COLUMNS.map((c) => d.codes[c])].map((a) => a.buffer as ArrayBuffer);
}

/**
 * Encodes receipts' display fields into RowDeltas (in the log worker): assigns
 * dictionary codes, holding a map per column, and keeps no rows once taken.
 */
export class RowEncoder {
  private rows = 0;
  private readonly maps = Object.fromEntries(STRING_COLUMNS.map((c) => [c, new Map<string, number>([['', 0]])])) as Record<StringColumn, Map<string, number>>;
  private pending: ReceiptView[] = [];

  add(views: readonly ReceiptView[]): void {
    for (const v of views) this.pending.push(v);
  }

  /** The rows added since the last take, or null if none. */
  take(): RowDelta | null {
    const views = this.pending;
    if (views.length === 0) return null;
    this.pending = [];
    const n = views.length;
    const d: RowDelta = {
      from: this.rows,
      count: n,
      order: new Float64Array(n),
      time: new Float64Array(n),
      cost: new BigUint64Array(n),
      hasCost: new Uint8Array(n),
      verdict: new Uint8Array(n),
      line: new Uint32Array(n),
      codes: Object.fromEntries(STRING_COLUMNS.map((c) => [c, new Uint32Array(n)])) as Record<StringColumn, Uint32Array>,
      values: Object.fromEntries(STRING_COLUMNS.map((c) => [c, []])) as unknown as Record<StringColumn, string[]>,
    };
    const failed = VERDICTS.indexOf('failed');
    views.forEach((v, i) => {
      d.order[i] = v.order;
      d.time[i] = v.time ?? NaN;
      d.line[i] = v.line;
      // A check of the record itself failed: the verdict is already final (the log cannot mend it).
      if (v.failedEarly) d.verdict[i] = failed;
      if (v.cost !== undefined && /^\d+$/.test(v.cost) && BigInt(v.cost) < 2n ** 64n) {
        d.cost[i] = BigInt(v.cost);
        d.hasCost[i] = 1;
      }
      for (const c of STRING_COLUMNS) {
        const value = v[c as keyof ReceiptView] as string | null | undefined;
        if (value === undefined || value === null) continue; // absent (a null kernel key too), never a value of its column
        const map = this.maps[c];
        let code = map.get(value);
        if (code === undefined) {
          code = map.size;
          map.set(value, code);
          d.values[c].push(value);
        }
        d.codes[c][i] = code;
      }
    });
    this.rows += n;
    return d;
  }
}
