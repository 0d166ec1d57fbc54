// Server side only: a worker thread of `receipt-audit ingest` (./ingest.ts). It turns chunks of
// receipt lines into index rows (./records.ts): JSON.parse of every receipt is most of an
// ingest's work, and here it runs beside the thread that reads files and talks to ClickHouse.
import { parentPort } from 'node:worker_threads';
import { type IndexedReceipt, type PackageContext, Reject, indexReceipt } from './records';

export type ParseRequest =
  | { type: 'package'; pkg: number; kernel?: string; subjects: [string, string][]; batches: [string, string, string][]; source: string }
  /** Whole lines (UTF-8) in the first `length` bytes of `buffer`. */
  | { type: 'chunk'; id: number; pkg: number; kind: 'tool' | 'child'; buffer: ArrayBuffer; length: number };

export interface ParseReply {
  id: number;
  /** Lines in the chunk, blank ones included: `n` counts from the chunk's first line (1). */
  lines: number;
  rows: (IndexedReceipt & { n: number })[];
  /** `seq` when the line's start names one. */
  rejects: { n: number; seq?: string; reason: string }[];
  error?: string;
}

/** Why a line was rejected, or null when the error is not about the line (a bug: rethrown). */
export function rejectReason(e: unknown): string | null {
  if (e instanceof Reject) return e.message;
  if (e instanceof SyntaxError) return `not JSON (${e.message})`;
  return null;
}

const SEQ_HINT = /^\{"seq":(\d{1,20})[,}]/;

const decoder = new TextDecoder('utf-8');

/** One chunk of whole lines: its receipts as index rows, and the lines that are not receipts. */
export function parseChunk(ctx: PackageContext, kind: 'tool' | 'child', bytes: Uint8Array, id = 0): ParseReply {
  const reply: ParseReply = { id, lines: 0, rows: [], rejects: [] };
  const text = decoder.decode(bytes);
  for (let start = 0; start < text.length; ) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = text.length;
    const n = ++reply.lines;
    let line = text.slice(start, nl);
    start = nl + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim() === '')) continue;
    try {
      const row = indexReceipt(line, kind, ctx) as IndexedReceipt & { n: number };
      row.n = n; // no spread: a helper call per row under tsx
      reply.rows.push(row);
    } catch (e) {
      const reason = rejectReason(e);
      if (reason === null) throw e;
      const seq = SEQ_HINT.exec(line)?.[1];
      reply.rejects.push(seq !== undefined ? { n, reason, seq } : { n, reason });
    }
  }
  return reply;
}

if (parentPort) {
  const port = parentPort;
  const packages = new Map<number, PackageContext>();
  port.on('message', (m: ParseRequest) => {
    if (m.type === 'package') {
      packages.set(m.pkg, { ...(m.kernel !== undefined ? { kernel: m.kernel } : {}), subjects: new Map(m.subjects), batches: m.batches.map(([a, b, c]) => [BigInt(a), BigInt(b), BigInt(c)]), source: m.source });
      return;
    }
    try {
      port.postMessage(parseChunk(packages.get(m.pkg)!, m.kind, new Uint8Array(m.buffer, 0, m.length), m.id));
    } catch (e) {
      port.postMessage({ id: m.id, lines: 0, rows: [], rejects: [], error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies ParseReply);
    }
  });
}
