// The verify workers' messages in a compact form. A structured clone writes
// every object's keys and every string in full, each time: a batch of 256
// receipts' results came to about 400 KB, more than the records' own text, with
// "kernelKey", the kernel key, "receipts.ndjson", the policy hash and the guard
// trail repeated in every receipt. Chromium keeps a received message's
// serialized bytes until the garbage collector takes its MessageEvent, which at
// a million receipts was hundreds of MB waiting in the log worker.
//
// Here arrays of similar objects travel as columns: each key once, and each
// string column as a dictionary of its distinct values plus one code a row.
// Check results of a batch are shared objects, which a clone writes once.
// Decoding gives back objects with the same fields and values (a field that was
// undefined is left out, which no reader tells apart). Pure.
import { decodeRecord } from '../sources/record-bytes';
import { type CheckResult, resultKey } from '../verdict/check';
import type { ReceiptEntry } from '../verify/entries';
import type { RecordOrigin, RecordOutput } from '../verify/record-output';
import type { ReceiptView } from '../verdict/receipt-view';
import type { RecordTask } from './protocol';

type Codes = Uint8Array | Uint16Array | Uint32Array;

/** One key of every row: a string dictionary with a code a row (0 = absent), or the values as they are. */
type Column = { key: string; dict: string[]; codes: Codes } | { key: string; values: unknown[] };

export interface Columns {
  rows: number;
  columns: Column[];
}

function codesFor(rows: number, distinct: number): Codes {
  return distinct < 2 ** 8 ? new Uint8Array(rows) : distinct < 2 ** 16 ? new Uint16Array(rows) : new Uint32Array(rows);
}

/** Rows as columns, keys in first-seen order. */
export function toColumns(rows: readonly object[]): Columns {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const k in row) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  const columns = keys.map((key): Column => {
    const values = rows.map((row) => (row as Record<string, unknown>)[key]);
    if (!values.every((v) => v === undefined || typeof v === 'string')) return { key, values };
    const index = new Map<string, number>();
    const dict: string[] = [];
    for (const v of values) {
      if (v !== undefined && !index.has(v as string)) {
        index.set(v as string, dict.length + 1);
        dict.push(v as string);
      }
    }
    const codes = codesFor(values.length, dict.length + 1);
    values.forEach((v, i) => {
      if (v !== undefined) codes[i] = index.get(v as string)!;
    });
    return { key, dict, codes };
  });
  return { rows: rows.length, columns };
}

/** The rows back: each an object with the fields it had, in column order. */
export function fromColumns<T>(c: Columns): T[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < c.rows; i++) {
    const row: Record<string, unknown> = {};
    for (const col of c.columns) {
      const v = 'dict' in col ? (col.codes[i] === 0 ? undefined : col.dict[col.codes[i]! - 1]) : col.values[i];
      if (v !== undefined) row[col.key] = v;
    }
    out.push(row);
  }
  return out as T[];
}

export interface WireOutput extends Omit<RecordOutput, 'receipts' | 'views'> {
  receipts: Columns;
  /** Each receipt's checks, as columns of their own. */
  checks: Columns;
  views: Columns;
}

/** A batch's output for postMessage. Its check results become shared objects (never changed in place: verifiers assign new ones). */
export function outputToWire(out: RecordOutput): WireOutput {
  const results = new Map<string, CheckResult>();
  const shared = (c: CheckResult) => {
    const key = resultKey(c);
    let s = results.get(key);
    if (!s) results.set(key, (s = c));
    return s;
  };
  const checks = out.receipts.map((r) => {
    const own: Record<string, CheckResult> = {};
    for (const [name, c] of Object.entries(r.checks)) if (c !== undefined) own[name] = shared(c);
    return own;
  });
  const receipts = out.receipts.map(({ checks: _, ...rest }) => rest);
  return { ...out, receipts: toColumns(receipts), checks: toColumns(checks), views: toColumns(out.views) };
}

export function outputFromWire(w: WireOutput): RecordOutput {
  const { checks: checkColumns, ...rest } = w;
  const receipts = fromColumns<ReceiptEntry>(w.receipts);
  const checks = fromColumns<ReceiptEntry['checks']>(checkColumns);
  receipts.forEach((r, i) => (r.checks = checks[i]!));
  const views = fromColumns<ReceiptView>(w.views);
  // A receipt's row holds the entry's own id string, not a second copy of it (the ids are most of
  // the explorer's distinct values, and its encoder keeps every one).
  if (views.length === receipts.length) {
    views.forEach((v, i) => {
      const r = receipts[i]!;
      if (v.order === r.order && v.id === r.id) v.id = r.id;
    });
  }
  return { ...rest, receipts, views };
}

/**
 * A batch of records for a verify worker. A record read from a file the worker
 * can read too (a File: it crosses postMessage as a handle) travels as where its
 * bytes are, and the worker reads them: the gigabytes of a large log never wait
 * in received messages for a full collection. Others travel as text.
 */
export interface WireBatch {
  texts: string[];
  orders: number[];
  origins: Columns;
  /** The file of the records with a byte range, and each record's [start, end) in it (-1, -1: its text is in `texts`). */
  blob?: Blob;
  ranges?: number[];
}

export function batchToWire(records: readonly RecordTask[], blob?: Blob | null): WireBatch {
  const wire: WireBatch = { texts: records.map((r) => r.text), orders: records.map((r) => r.order), origins: toColumns(records.map((r) => r.origin)) };
  if (blob && records.some((r) => r.at)) {
    wire.blob = blob;
    wire.ranges = records.flatMap((r) => (r.at ? [r.at.start, r.at.end] : [-1, -1]));
  }
  return wire;
}

/** The batch's records, each with its text (read from the blob where the batch gives a range). */
export async function batchFromWire(b: WireBatch): Promise<RecordTask[]> {
  const origins = fromColumns<RecordOrigin>(b.origins);
  const texts = b.texts;
  const ranges = b.ranges;
  if (b.blob && ranges) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < ranges.length; i += 2) {
      if (ranges[i]! < 0) continue;
      lo = Math.min(lo, ranges[i]!);
      hi = Math.max(hi, ranges[i + 1]!);
    }
    const first = origins[ranges.findIndex((v) => v >= 0) / 2]!;
    const buffer = await b.blob
      .slice(lo, hi)
      .arrayBuffer()
      .catch((err: unknown) => {
        throw new Error(
          `${first.file} could not be read again at line ${first.line} (${err instanceof Error ? err.message : String(err)}): was it changed or removed while it was verified?`,
        );
      });
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < texts.length; i++) {
      const start = ranges[2 * i]!;
      if (start < 0) continue;
      const end = ranges[2 * i + 1]!;
      // The splitter's own decoding, so the text is the one it checked.
      const text = end - lo <= bytes.length ? decodeRecord(bytes.subarray(start - lo, end - lo)) : null;
      if (text === null) {
        const o = origins[i]!;
        throw new Error(`${o.file}:${o.line} reads differently now than when it was split: was the file changed while it was verified?`);
      }
      texts[i] = text;
    }
  }
  return texts.map((text, i) => ({ text, origin: origins[i]!, order: b.orders[i]! }));
}
