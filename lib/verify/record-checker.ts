// How a log's records are checked (the per-record half of contract §5–§7), as a
// strategy the orchestrator (log-verifier.ts) takes: inline, in this thread
// (below), or by a pool of workers (../workers/pool.ts: the page's Web Workers,
// the command line's worker threads). The orchestrator numbers the records and
// assembles their outputs, so the report never depends on which strategy ran.
import type { TrustStore } from '../trust/trust-store';
import type { AuditedFamily } from '../verdict/family';
import type { RecordBytes } from './log-sink';
import { chioRecords } from './chio-records';
import { RecordVerifier } from './record-verifier';
import { type RecordOrigin, type RecordOutput, emptyOutput } from './record-output';

/** What the orchestrator gives a checker: one trust store, whether rows are wanted, the families, and where outputs go. */
export interface CheckerContext {
  trust: TrustStore;
  /** Also produce each receipt's display fields (ReceiptView), for the page's rows. */
  views: boolean;
  /** Other runtimes' receipt families the log is read with (their records are set aside for the audit). */
  families: readonly AuditedFamily[];
  /** Takes records' output once their checks settled (signatures included), in any order. */
  deliver(out: RecordOutput): void;
}

export interface RecordChecker {
  /**
   * Checks the record numbered `order` (ORDER_STRIDE apart, in reading order). Awaiting it applies
   * backpressure; it throws only once checking failed or was cancelled (`broken`). `at`: where
   * the record's UTF-8 bytes can be read again (a worker reads them there instead of the text).
   */
  check(text: string, origin: RecordOrigin, order: number, at?: RecordBytes): Promise<void>;
  /** Resolves once every record's output was delivered; throws if checking failed. */
  drain(): Promise<void>;
  /** Stops checking (cancel, or done): every later `check` throws. Safe to call twice. */
  close(): void;
  /** Threads checking records (1 inline). */
  readonly workers: number;
  /** Records whose output was delivered. */
  readonly recordsChecked: number;
  /** Checking failed or was cancelled. */
  readonly broken: boolean;
}

/**
 * The record verifier every checker runs, in this thread or in a worker: Chio's records checked as
 * they arrive (its checked family, chosen here and nowhere else), other families' set aside.
 */
export function recordVerifier(trust: TrustStore, options: { views?: boolean; families?: readonly AuditedFamily[] } = {}): RecordVerifier {
  return new RecordVerifier(chioRecords({ trust, views: options.views ?? false }), options.families);
}

/** How the orchestrator makes its checker, once it knows the context. */
export type CheckerFactory = (context: CheckerContext) => RecordChecker;

/** Checks in this thread. `maxInFlight`: records whose signatures may be pending before `check` waits. */
export function inlineChecker(options: { maxInFlight?: number } = {}): CheckerFactory {
  return (context) => new InlineChecker(context, options.maxInFlight ?? 1024);
}

class InlineChecker implements RecordChecker {
  readonly workers = 1;
  recordsChecked = 0;
  private readonly records: RecordVerifier;
  private pending: Promise<void>[] = [];
  private failure: Error | null = null;

  constructor(
    private readonly context: CheckerContext,
    private readonly maxInFlight: number,
  ) {
    this.records = recordVerifier(context.trust, { views: context.views, families: context.families });
  }

  get broken(): boolean {
    return this.failure !== null;
  }

  async check(text: string, origin: RecordOrigin, order: number): Promise<void> {
    if (this.failure) throw this.failure;
    const out = emptyOutput();
    const settled = this.records.verify(text, origin, order, out);
    // Delivered once its checks have settled (signatures run concurrently, many in flight).
    const take = () => {
      this.recordsChecked++;
      this.context.deliver(out);
    };
    if (settled.length === 0) take();
    else this.pending.push(Promise.all(settled).then(take));
    if (this.pending.length >= this.maxInFlight) await this.drain();
  }

  async drain(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    await Promise.all(batch);
  }

  close(): void {
    this.failure ??= new Error('cancelled');
  }
}
