// The pool strategy of RecordChecker (../verify/record-checker.ts): records are
// batched, handed to the least busy worker (bounded in flight, so reading waits
// for checking and memory stays flat), and each batch's output is delivered to
// the orchestrator, which numbered the records in reading order, so the report
// does not depend on which worker answers first. Takes a worker factory: the
// page's Web Workers, the command line's worker threads, or a test's. Each
// worker is behind a WorkerClient: a batch is a request with the client's id,
// a worker's death is the client's crash and fails the whole pool, and close()
// closes the clients.
import type { RecordBytes } from '../verify/log-sink';
import type { CheckerContext, CheckerFactory, RecordChecker } from '../verify/record-checker';
import type { RecordOrigin } from '../verify/record-output';
import type { RecordTask, VerifyRequest, VerifyResponse } from './protocol';
import { type WireBatch, batchToWire, outputFromWire } from './wire';
import { type WorkerLike as AnyWorkerLike, WorkerClient, WorkerClientError } from './worker-client';

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
  client: WorkerClient<VerifyRequest, VerifyResponse>;
  /** Batches sent to it and not yet settled. */
  busy: number;
}

/** A verify worker's death, as people (and the browser tests) know it. */
const workerFailed = (detail: string) => new Error(`a verify worker failed: ${detail || 'its script did not load'}`);

export class VerifyPool implements RecordChecker {
  private readonly slots: Slot[];
  private readonly batchSize: number;
  private readonly perWorker: number;
  private readonly wakers: (() => void)[] = [];
  private batch: RecordTask[] = [];
  /** The file the batch's records with a byte range are in, and where the first of them starts. */
  private batchBlob: Blob | null = null;
  private batchFrom = 0;
  private failure: Error | null = null;
  recordsChecked = 0;

  constructor(
    spawn: () => WorkerLike,
    options: PoolOptions,
    private readonly context: CheckerContext,
  ) {
    this.batchSize = options.batchSize ?? 256;
    this.perWorker = options.perWorker ?? 2;
    // Families are code, not data: a worker takes the ones named from those its entry holds.
    const families = context.families.map((f) => f.name);
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => {
      // A worker's death fails the whole pool, whether batches wait on it or not. One terminated
      // by close() while still loading its code reports a failed script load: the client, closed,
      // ignores it.
      const client = new WorkerClient<VerifyRequest, VerifyResponse>(spawn(), {
        name: 'a verify worker',
        idOf: (m) => m.id,
        onCrash: (_, detail) => this.fail(workerFailed(detail)),
      });
      client.post({ type: 'init', trust: [...context.trust.keys], views: context.views, families });
      return { client, busy: 0 };
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
    while (!this.failure && this.slots.some((s) => s.busy > 0)) await this.nextWake();
    if (this.failure) throw this.failure;
  }

  close(): void {
    this.fail(new Error('cancelled'));
    for (const s of this.slots) s.client.close();
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
    this.send(slot, batchToWire(records, blob), records.length);
  }

  private send(slot: Slot, wire: WireBatch, records: number): void {
    slot.busy++;
    slot.client
      .request((id) => ({ type: 'batch', id, records: wire }))
      .then(
        (answer) => this.answered(slot, answer, records),
        (error: unknown) => this.unanswered(slot, error),
      );
  }

  private leastBusy(): Slot {
    return this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  /** A batch's answer. Once the pool failed (or was closed), nothing more is delivered. */
  private answered(slot: Slot, msg: VerifyResponse, records: number): void {
    slot.busy--;
    if (!this.failure) {
      if (msg.type === 'error') this.fail(new Error(`verifying a batch failed: ${msg.message}`));
      else {
        this.recordsChecked += records;
        this.context.deliver(outputFromWire(msg.output));
      }
    }
    this.wake();
  }

  /** A batch that will never be answered: its worker died (the pool fails, naming it), or close(). */
  private unanswered(slot: Slot, error: unknown): void {
    slot.busy--;
    this.fail(error instanceof WorkerClientError && error.reason === 'crashed' ? workerFailed(error.detail) : (error as Error));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.wake();
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  private wake(): void {
    for (const w of this.wakers.splice(0)) w();
  }
}
