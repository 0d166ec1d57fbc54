// Server side only: the ingest's worker threads (./parse-worker.ts, entered through
// ./parse-worker.mjs, which loads tsx there). A chunk stays with the worker that parsed it until
// the main thread has it inserted (or dropped).
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PackageContext } from './records';
import type { ChunkKeys, ChunkKind, InsertDone, ParseRequest } from './parse-worker';

const WORKER = new URL('./parse-worker.mjs', import.meta.url);

type Waiter = { resolve: (r: never) => void; reject: (e: Error) => void };

export class ParsePool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<string, Waiter>();
  private readonly owner = new Map<number, Worker>();
  private nextId = 0;
  private nextPkg = 0;
  private turn = 0;

  /** One worker per core (the main thread mostly waits), 1 to 3. */
  constructor(size = Math.min(3, Math.max(1, os.availableParallelism?.() ?? os.cpus().length))) {
    this.workers = Array.from({ length: size }, () => {
      const w = new Worker(WORKER);
      w.unref(); // an ingest that fails half-way still lets the process exit
      w.on('message', (r: (ChunkKeys & { kernels: string[] }) | InsertDone) => {
        const key = `${'kernels' in r ? 'keys' : 'insert'}:${r.id}`;
        const waiter = this.waiting.get(key);
        this.waiting.delete(key);
        if (r.error !== undefined) waiter?.reject(new Error(`ingest worker: ${r.error}`));
        else waiter?.resolve(r as never);
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

  private ask<T>(key: string, w: Worker, m: ParseRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    const reply = new Promise<T>((resolve, reject) => {
      this.waiting.set(key, { resolve: resolve as (r: never) => void, reject });
      w.postMessage(m, transfer);
    });
    reply.catch(() => {}); // the caller awaits it in turn; a failure must not go unhandled meanwhile
    return reply;
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

  /** Whole lines of a package file, as bytes (their buffer is handed over); the rows' keys come back. */
  parse(pkg: number, kind: ChunkKind, bytes: Uint8Array, fleetBase: bigint): Promise<ChunkKeys> {
    const id = this.nextId++;
    const w = this.workers[this.turn++ % this.workers.length]!;
    this.owner.set(id, w);
    const buffer = bytes.buffer as ArrayBuffer;
    return this.ask(`keys:${id}`, w, { type: 'chunk', id, pkg, kind, buffer, length: bytes.byteLength, fleetBase: String(fleetBase) }, [buffer]);
  }

  /** Inserts chunk `id`'s rows but those at `skip` into the cluster at `url`. */
  insert(id: number, url: string, skip: number[]): Promise<InsertDone> {
    const w = this.owner.get(id)!;
    this.owner.delete(id);
    return this.ask(`insert:${id}`, w, { type: 'insert', id, url, skip });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
