// Server side only: a worker thread of `receipt-audit ingest` (./ingest.ts). It takes chunks of
// whole lines of a package file as bytes, decodes, splits and parses them into index rows
// (./records.ts), and tells the main thread only each row's key. The main thread checks the keys
// against the cluster (records already there are skipped) and then asks the worker to insert the
// chunk's rows, which never leave the worker: JSON.parse of every receipt was most of an ingest,
// and moving each row's kilobytes between threads was most of the rest.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { ClickHouse, tsvField } from './clickhouse';
import { JSON_COLUMNS, PROOF_COLUMNS, RECEIPT_COLUMNS, type PackageContext, Reject, indexReceipt, proofOf } from './records';
import { col, list, sql, table } from './sql';

/** What a chunk holds: tool or child receipts, or inclusion proofs. */
export type ChunkKind = 'tool' | 'child' | 'proof';

export type ParseRequest =
  | { type: 'package'; pkg: number; kernel?: string; subjects: [string, string][]; batches: [string, string, string][]; source: string }
  /**
   * Whole lines (UTF-8) in the first `length` bytes of `buffer`. Receipts get fleet positions
   * `fleetBase + n - 1` (n: the line's number in the chunk, from 1).
   */
  | { type: 'chunk'; id: number; pkg: number; kind: ChunkKind; buffer: ArrayBuffer; length: number; fleetBase: string }
  /** Inserts the chunk's rows but those at `skip` (indexes into its keys), then forgets it. */
  | { type: 'insert'; id: number; url: string; skip: number[] };

export interface ChunkKeys {
  id: number;
  /** Lines in the chunk, blank ones included. */
  lines: number;
  /** Per row: its kernel, seq, identity (receipt id; a proof's MD5) and line number in the chunk. */
  kernels: string[];
  seqs: string[];
  identities: string[];
  ns: number[];
  /** `seq` when the line's start names one. */
  rejects: { n: number; seq?: string; reason: string }[];
  error?: string;
}

export interface InsertDone {
  id: number;
  inserted: number;
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

/** One chunk of whole lines: its rows as TSV (kept by the caller) and their keys. */
export function parseChunk(
  ctx: PackageContext,
  kind: ChunkKind,
  bytes: Uint8Array,
  fleetBase: bigint,
  id = 0,
): { keys: ChunkKeys; rows: string[]; bodies: string[] } {
  const keys: ChunkKeys = { id, lines: 0, kernels: [], seqs: [], identities: [], ns: [], rejects: [] };
  const rows: string[] = [];
  const bodies: string[] = [];
  const text = decoder.decode(bytes);
  for (let start = 0; start < text.length; ) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = text.length;
    const n = ++keys.lines;
    let line = text.slice(start, nl);
    start = nl + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim() === '')) continue;
    try {
      if (kind === 'proof') {
        if (ctx.kernel === undefined) throw new Reject('an inclusion proof, but the package has no checkpoint');
        const p = proofOf(line);
        rows.push([ctx.kernel, p.seq, p.checkpointSeq, ctx.source, p.raw].map(tsvField).join('\t'));
        keys.kernels.push(ctx.kernel);
        keys.seqs.push(String(p.seq));
        keys.identities.push(createHash('md5').update(p.raw).digest('hex'));
      } else {
        const r = indexReceipt(line, kind, ctx);
        const fleetSeq = fleetBase + BigInt(n - 1);
        rows.push(`${fleetSeq}\t${r.tail}`);
        bodies.push(`${tsvField(r.kernel)}\t${fleetSeq}\t${r.raw}`);
        keys.kernels.push(r.kernel);
        keys.seqs.push(String(r.seq));
        keys.identities.push(r.id);
      }
      keys.ns.push(n);
    } catch (e) {
      const reason = rejectReason(e);
      if (reason === null) throw e;
      const seq = SEQ_HINT.exec(line)?.[1];
      keys.rejects.push(seq !== undefined ? { n, reason, seq } : { n, reason });
    }
  }
  return { keys, rows, bodies };
}

/** Where a chunk's rows go (synchronously: the next chunk is checked against them). */
const INTO = {
  receipts: sql`${table('receipts')} (${list(RECEIPT_COLUMNS.map((c) => col(c)))})`,
  proofs: sql`${table('proofs')} (${list(PROOF_COLUMNS.map((c) => col(c)))})`,
  json: sql`${table('receipt_json')} (${list(JSON_COLUMNS.map((c) => col(c)))})`,
};
const SETTINGS = { insert_distributed_sync: '1' };

if (parentPort) {
  const port = parentPort;
  const packages = new Map<number, PackageContext>();
  const chunks = new Map<number, { rows: string[]; bodies: string[]; kind: ChunkKind }>();
  const clients = new Map<string, ClickHouse>();
  const error = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));
  port.on('message', (m: ParseRequest) => {
    if (m.type === 'package') {
      packages.set(m.pkg, {
        ...(m.kernel !== undefined ? { kernel: m.kernel } : {}),
        subjects: new Map(m.subjects),
        batches: m.batches.map(([a, b, c]) => [BigInt(a), BigInt(b), BigInt(c)]),
        source: m.source,
      });
    } else if (m.type === 'chunk') {
      try {
        const { keys, rows, bodies } = parseChunk(packages.get(m.pkg)!, m.kind, new Uint8Array(m.buffer, 0, m.length), BigInt(m.fleetBase), m.id);
        chunks.set(m.id, { rows, bodies, kind: m.kind });
        port.postMessage(keys);
      } catch (e) {
        port.postMessage({ id: m.id, lines: 0, kernels: [], seqs: [], identities: [], ns: [], rejects: [], error: error(e) } satisfies ChunkKeys);
      }
    } else {
      const { rows, bodies, kind } = chunks.get(m.id) ?? { rows: [], bodies: [], kind: 'tool' };
      chunks.delete(m.id);
      const skip = new Set(m.skip);
      const keep = skip.size ? rows.filter((_, i) => !skip.has(i)) : rows;
      const keepBodies = skip.size ? bodies.filter((_, i) => !skip.has(i)) : bodies;
      if (keep.length === 0) return void port.postMessage({ id: m.id, inserted: 0 } satisfies InsertDone);
      let ch = clients.get(m.url);
      if (!ch) clients.set(m.url, (ch = new ClickHouse(m.url)));
      const client = ch;
      // A receipt's JSON goes in first: a receipts row is never there without its body.
      const inserted =
        kind === 'proof'
          ? client.insert(INTO.proofs, keep, SETTINGS)
          : client.insert(INTO.json, keepBodies, SETTINGS).then(() => client.insert(INTO.receipts, keep, SETTINGS));
      inserted.then(
        () => port.postMessage({ id: m.id, inserted: keep.length } satisfies InsertDone),
        (e: unknown) => port.postMessage({ id: m.id, inserted: 0, error: error(e) } satisfies InsertDone),
      );
    }
  });
}
