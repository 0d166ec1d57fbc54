// The pool strategy of RecordChecker (../verify/record-checker.ts): records are
// batched, handed to the least busy worker (bounded in flight, so reading waits
// for checking and memory stays flat), and each batch's output is delivered to
// the orchestrator, which numbered the records in reading order, so the report
// does not depend on which worker answers first. Takes a worker factory: the
// page's Web Workers, the command line's worker threads, or a test's.
import type { RecordBytes } from '../verify/log-sink';
import type { CheckerContext, CheckerFactory, RecordChecker } from '../verify/record-checker';
import type { RecordOrigin } from '../verify/record-output';
import type { RecordTask, VerifyRequest, VerifyResponse } from './protocol';
import { batchToWire, outputFromWire } from './wire';
import type { WorkerLike as AnyWorkerLike } from './worker-client';

/** A verify worker as the pool sees it: the worker client's shape, typed by the verify protocol. */
export type WorkerLike = AnyWorkerLike<VerifyRequest, VerifyResponse>;

/** The most bytes of a file a batch spans (beyond its first record): the worker reads them at once. */
const MAX_SPAN = 8 * 1024 * 1024;

export interface PoolOptions {
  workers: number;
  /** Records per message (fewer, larger messages cost less than many small ones). */
  batchSize?: number;
  /** Batches waiting at each worker at most. */
  perWorker?: number;
}

/** Checks records in `options.workers` workers made by `spawn`. */
export function poolChecker(spawn: () => WorkerLike, options: PoolOptions): CheckerFactory {
  return (context) => new VerifyPool(spawn, options, context);
}

interface Slot {
  worker: WorkerLike;
  busy: number;
}

export class VerifyPool implements RecordChecker {
  private readonly slots: Slot[];
  private readonly batchSize: number;
  private readonly perWorker: number;
  private readonly waiting = new Map<number, { slot: Slot; records: number }>();
  private readonly wakers: (() => void)[] = [];
  private batch: RecordTask[] = [];
  /** The file the batch's records with a byte range are in, and where the first of them starts. */
  private batchBlob: Blob | null = null;
  private batchFrom = 0;
  private nextBatchId = 0;
  private failure: Error | null = null;
  private terminated = false;
  recordsChecked = 0;

  constructor(
    spawn: () => WorkerLike,
    options: PoolOptions,
    private readonly context: CheckerContext,
  ) {
    this.batchSize = options.batchSize ?? 256;
    this.perWorker = options.perWorker ?? 2;
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => {
      const worker = spawn();
      const slot: Slot = { worker, busy: 0 };
      worker.onmessage = (e) => this.onResult(slot, e.data);
      worker.onerror = (e) => {
        // Handled here: unhandled, a worker's error would also surface as an uncaught error of
        // the log worker. A worker terminated while still loading its code reports a failed
        // script load; after terminate() that is expected, not a failure.
        e.preventDefault?.();
        if (!this.terminated) this.fail(new Error(`a verify worker failed: ${e.message || 'its script did not load'}`));
      };
      // Families are code, not data: a worker takes the ones named from those its entry holds.
      const families = context.families.map((f) => f.name);
      worker.postMessage({ type: 'init', trust: [...context.trust.keys], views: context.views, families });
      return slot;
    });
  }

  /** Whether the pool has failed or was cancelled (every later record is refused). */
  get broken(): boolean {
    return this.failure !== null;
  }

  get workers(): number {
    return this.slots.length;
  }

  /**
   * `at`: the worker reads the record's bytes there instead of receiving its text. A batch's
   * records are in one file, and the worker reads the span from the first to the last in one
   * go: a record far from the batch's first (past skipped oversized lines, say) starts a new one.
   */
  async check(text: string, origin: RecordOrigin, order: number, at?: RecordBytes): Promise<void> {
    if (this.failure) throw this.failure;
    if (at && this.batchBlob !== null && (this.batchBlob !== at.blob || at.start < this.batchFrom || at.end - this.batchFrom > MAX_SPAN)) await this.dispatch();
    if (at) {
      if (this.batchBlob === null) this.batchFrom = at.start;
      this.batchBlob = at.blob;
      this.batch.push({ text: '', origin, order, at: { start: at.start, end: at.end } });
    } else this.batch.push({ text, origin, order });
    if (this.batch.length >= this.batchSize) await this.dispatch();
  }

  /** Sends what is left and waits for every batch. */
  async drain(): Promise<void> {
    await this.dispatch();
    while (this.waiting.size > 0) await this.nextWake();
    if (this.failure) throw this.failure;
  }

  close(): void {
    if (this.terminated) return;
    this.terminated = true;
    for (const s of this.slots) s.worker.terminate();
    this.fail(new Error('cancelled'));
  }

  private async dispatch(): Promise<void> {
    if (this.batch.length === 0) return;
    const records = this.batch;
    const blob = this.batchBlob;
    this.batch = [];
    this.batchBlob = null;
    let slot = this.leastBusy();
    while (slot.busy >= this.perWorker) {
      await this.nextWake();
      if (this.failure) throw this.failure;
      slot = this.leastBusy();
    }
    const id = this.nextBatchId++;
    slot.busy++;
    this.waiting.set(id, { slot, records: records.length });
    slot.worker.postMessage({ type: 'batch', id, records: batchToWire(records, blob) });
  }

  private leastBusy(): Slot {
    return this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  private onResult(slot: Slot, msg: VerifyResponse): void {
    const sent = this.waiting.get(msg.id);
    if (!sent) return;
    this.waiting.delete(msg.id);
    slot.busy--;
    if (msg.type === 'error') this.fail(new Error(`verifying a batch failed: ${msg.message}`));
    else {
      this.recordsChecked += sent.records;
      this.context.deliver(outputFromWire(msg.output));
    }
    this.wake();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.waiting.clear();
    this.wake();
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  private wake(): void {
    for (const w of this.wakers.splice(0)) w();
  }
}
