// Server side only: a worker thread of `receipt-audit ingest` (./ingest.ts). It turns chunks of
// receipt lines into index rows (./records.ts): JSON.parse of every receipt is most of an
// ingest's work, and here it runs beside the thread that reads files and talks to ClickHouse.
import { parentPort } from 'node:worker_threads';
import { type IndexedReceipt, type PackageContext, Reject, indexReceipt } from './records';

export type ParseRequest =
  | { type: 'package'; pkg: number; kernel?: string; subjects: [string, string][]; batches: [string, string, string][]; source: string }
  | { type: 'chunk'; id: number; pkg: number; kind: 'tool' | 'child'; lines: string[]; nos: number[] };

export interface ParseReply {
  id: number;
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

/** One chunk, as the worker and (for a single worker's absence) the main thread run it. */
export function parseChunk(ctx: PackageContext, kind: 'tool' | 'child', lines: string[], nos: number[], id = 0): ParseReply {
  const reply: ParseReply = { id, rows: [], rejects: [] };
  lines.forEach((line, i) => {
    try {
      reply.rows.push({ ...indexReceipt(line, kind, ctx), n: nos[i]! });
    } catch (e) {
      const reason = rejectReason(e);
      if (reason === null) throw e;
      const seq = SEQ_HINT.exec(line)?.[1];
      reply.rejects.push({ n: nos[i]!, reason, ...(seq !== undefined ? { seq } : {}) });
    }
  });
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
      port.postMessage(parseChunk(packages.get(m.pkg)!, m.kind, m.lines, m.nos, m.id));
    } catch (e) {
      port.postMessage({ id: m.id, rows: [], rejects: [], error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies ParseReply);
    }
  });
}
