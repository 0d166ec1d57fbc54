// A LogSink over a pool of verify workers: records are batched, handed to the
// least busy worker (bounded in flight, so reading waits for checking and
// memory stays flat), and each batch's output goes to one LogAssembler. Order
// numbers are given here, in reading order, so the report does not depend on
// which worker answers first. Takes a worker factory, so it is testable anywhere.
import type { CheckpointEntry } from '../verify/entries';
import { DIALECT_FAMILIES } from '../dialects/families';
import type { DialectAudit, DialectOptions } from '../verdict/family';
import { LogAssembler } from '../verify/log-assembler';
import type { LoadedPackage, LogSink, RecordBytes } from '../verify/log-sink';
import type { Problem } from '../verdict/problems';
import { ORDER_STRIDE, type RecordOrigin, type RecordOutput, emptyOutput } from '../verify/record-verifier';
import type { ReportReceipt, VerificationReport } from '../verdict/report';
import type { RecordTask, VerifyRequest, VerifyResponse } from './protocol';
import type { RememberedBatch } from '../verify/inclusion';
import { batchToWire, outputFromWire } from './wire';
import type { PinnedKey } from '../trust/trust-store';

export interface WorkerLike {
  postMessage(message: VerifyRequest): void;
  onmessage: ((e: MessageEvent<VerifyResponse>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

/** The most bytes of a file a batch spans (beyond its first record): the worker reads them at once. */
const MAX_SPAN = 8 * 1024 * 1024;

export interface PoolOptions {
  workers: number;
  trust: PinnedKey[];
  /** Records per message (fewer, larger messages cost less than many small ones). */
  batchSize?: number;
  /** Batches waiting at each worker at most. */
  perWorker?: number;
  /** Called with each batch's output as it arrives (e.g. to stream rows to the page). */
  onOutput?: (out: RecordOutput) => void;
}

interface Slot {
  worker: WorkerLike;
  busy: number;
}

export class VerifyPool implements LogSink {
  private readonly assembler = new LogAssembler();
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
  recordsRead = 0;
  recordsVerified = 0;

  constructor(
    spawn: () => WorkerLike,
    private readonly options: PoolOptions,
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
      worker.postMessage({ type: 'init', trust: options.trust });
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
  async addRecord(text: string, origin: RecordOrigin, at?: RecordBytes): Promise<void> {
    if (this.failure) throw this.failure;
    if (at && this.batchBlob !== null && (this.batchBlob !== at.blob || at.start < this.batchFrom || at.end - this.batchFrom > MAX_SPAN)) await this.dispatch();
    const order = this.recordsRead++ * ORDER_STRIDE;
    if (at) {
      if (this.batchBlob === null) this.batchFrom = at.start;
      this.batchBlob = at.blob;
      this.batch.push({ text: '', origin, order, at: { start: at.start, end: at.end } });
    } else this.batch.push({ text, origin, order });
    if (this.batch.length >= this.batchSize) await this.dispatch();
  }

  addProblem(problem: Problem): void {
    this.assembler.addProblem(problem);
  }

  addPackage(pkg: LoadedPackage, problems: Problem[]): void {
    this.assembler.addPackage(pkg, problems);
  }

  setSpaceNote(space: string, note: string): void {
    this.assembler.setSpaceNote(space, note);
  }

  /** Checkpoints verified in earlier loads (part 2 §12): see LogAssembler.setRemembered. */
  setRemembered(remembered: ReadonlyMap<string, RememberedBatch>): void {
    this.assembler.setRemembered(remembered);
  }

  /** Records added from now on come from the source `name` (LogSink.beginSource). */
  beginSource(name: string): void {
    this.assembler.beginSource(name, this.recordsRead * ORDER_STRIDE);
  }

  /** The name of the source the record numbered `order` came from (source-names.ts). */
  sourceAt(order: number): string | undefined {
    return this.assembler.sourceAt(order);
  }

  /** Sends what is left, waits for every batch, and evaluates the whole log (`onReceipt`: see LogAssembler.finish). */
  async finish(
    trustPinned: boolean,
    onReceipt?: (r: ReportReceipt) => void,
    dialect: DialectOptions = {},
    onDialect?: (audit: DialectAudit) => void,
  ): Promise<VerificationReport> {
    await this.dispatch();
    while (this.waiting.size > 0) await this.nextWake();
    if (this.failure) throw this.failure;
    this.terminate();
    // Receipts reached in several envelopes are one each now: their rows join the explorer's.
    const views = this.assembler.settleEnvelopes();
    if (views.length > 0) this.options.onOutput?.({ ...emptyOutput(), views });
    onDialect?.(await this.assembler.auditDialects(dialect, DIALECT_FAMILIES));
    return this.assembler.finish(trustPinned, onReceipt);
  }

  /** Receipts whose results came back so far. */
  get receiptCount(): number {
    return this.assembler.receiptCount;
  }

  /** The log's checkpoints; after `finish`, with every check evaluated. */
  get checkpointEntries(): readonly CheckpointEntry[] {
    return this.assembler.checkpointEntries;
  }

  terminate(): void {
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
      const output = outputFromWire(msg.output);
      this.assembler.add(output);
      this.recordsVerified += sent.records;
      this.options.onOutput?.(output);
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
