// Server side only: the ingest's parse workers (./parse-worker.ts), loaded through tsx as the CLI
// is. Chunks are answered in the order they were given, so fleet positions follow the files.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PackageContext } from './records';
import type { ParseReply, ParseRequest } from './parse-worker';

const WORKER = new URL('./parse-worker.mjs', import.meta.url);

export class ParsePool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (r: ParseReply) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private nextPkg = 0;
  private turn = 0;

  /** One worker per core but one (the main thread reads, dedupes and inserts), 1 to 3. */
  constructor(size = Math.min(3, Math.max(1, os.availableParallelism?.() ?? os.cpus().length))) {
    this.workers = Array.from({ length: size }, () => {
      const w = new Worker(WORKER);
      w.unref(); // an ingest that fails half-way still lets the process exit
      w.on('message', (r: ParseReply) => {
        const waiter = this.waiting.get(r.id);
        this.waiting.delete(r.id);
        if (r.error !== undefined) waiter?.reject(new Error(`ingest parse worker: ${r.error}`));
        else waiter?.resolve(r);
      });
      w.on('error', (e) => {
        for (const waiter of this.waiting.values()) waiter.reject(e);
        this.waiting.clear();
      });
      return w;
    });
  }

  get size(): number {
    return this.workers.length;
  }

  /** Tells every worker about a package; returns its id for `parse`. */
  package(ctx: PackageContext): number {
    const pkg = this.nextPkg++;
    const m: ParseRequest = {
      type: 'package',
      pkg,
      ...(ctx.kernel !== undefined ? { kernel: ctx.kernel } : {}),
      subjects: [...ctx.subjects],
      batches: ctx.batches.map(([a, b, c]) => [String(a), String(b), String(c)]),
      source: ctx.source,
    };
    for (const w of this.workers) w.postMessage(m);
    return pkg;
  }

  /** Whole lines of a receipts file, as bytes; the bytes' buffer is handed over (detached here). */
  parse(pkg: number, kind: 'tool' | 'child', bytes: Uint8Array): Promise<ParseReply> {
    const id = this.nextId++;
    const w = this.workers[this.turn++ % this.workers.length]!;
    const reply = new Promise<ParseReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const m: ParseRequest = { type: 'chunk', id, pkg, kind, buffer: bytes.buffer as ArrayBuffer, length: bytes.byteLength };
      w.postMessage(m, [bytes.buffer as ArrayBuffer]);
    });
    reply.catch(() => {}); // the caller awaits it in turn; a failure must not go unhandled meanwhile
    return reply;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
