// The orchestrator of one log's verification (contract §5–§9), used by the command
// line, the page's log worker and tests: records stream in from the source loaders
// (a LogSink), are numbered in reading order and handed to a RecordChecker (inline
// or a pool of workers: record-checker.ts), and their outputs go to one
// LogAssembler, which evaluates the whole log on `finish()`. verify-log.ts runs it
// as a list of calls.
import type { Problem } from '../verdict/problems';
import type { AuditedFamily, DialectAudit, DialectOptions } from '../verdict/family';
import type { ReportReceipt, VerificationReport } from '../verdict/report';
import type { ReceiptView } from '../verdict/receipt-view';
import { TrustStore } from '../trust/trust-store';
import type { CheckpointEntry } from './entries';
import type { RememberedBatch } from './inclusion';
import { LogAssembler } from './log-assembler';
import type { LoadedPackage, LogSink, RecordBytes } from './log-sink';
import { type CheckerFactory, type RecordChecker, inlineChecker } from './record-checker';
import { ORDER_STRIDE, type RecordOrigin, type RecordOutput, markFailedViews } from './record-output';

export type { RecordOrigin } from './record-output';

export interface LogVerifierOptions {
  /** The pinned keys: with none, no receipt is `verified` (contract part 2 §11). */
  trust?: TrustStore;
  /** With no key pinned, `signer_not_pinned` is a warning rather than an error (contract part 2 §11). */
  allowUnpinned?: boolean;
  /** How records are checked: inline (the default) or by a pool of workers (../workers/pool.ts). */
  checker?: CheckerFactory;
  /** Receives each record's display fields (ReceiptView) once its checks settle, then the merged and dialect ones on `finish`. */
  onViews?: (views: ReceiptView[]) => void;
  /** ZeroClaw's HMAC key and the diff for CodeWhale review receipts, when the user supplies them. */
  dialect?: DialectOptions;
  /** Other runtimes' receipt families to read the log with (lib/dialects/families.ts); none: Chio's records only. */
  families?: readonly AuditedFamily[];
}

export class LogVerifier implements LogSink {
  private readonly trust: TrustStore;
  private readonly allowUnpinned: boolean;
  private readonly checker: RecordChecker;
  private readonly onViews: ((views: ReceiptView[]) => void) | undefined;
  private readonly dialectOptions: DialectOptions;
  private readonly families: readonly AuditedFamily[];
  private audit: DialectAudit | null = null;
  private readonly assembler = new LogAssembler();
  private recordCount = 0;
  private finished = false;

  constructor(options: LogVerifierOptions = {}) {
    this.trust = options.trust ?? TrustStore.empty();
    this.allowUnpinned = options.allowUnpinned === true;
    this.onViews = options.onViews;
    this.dialectOptions = options.dialect ?? {};
    this.families = options.families ?? [];
    const deliver = (out: RecordOutput) => this.take(out);
    const context = { trust: this.trust, views: this.onViews !== undefined, families: this.families, deliver };
    this.checker = (options.checker ?? inlineChecker())(context);
  }

  /** Adds one record's text. Awaiting it applies backpressure; never throws on bad input (only once checking failed or was cancelled). */
  async addRecord(text: string, origin: RecordOrigin, at?: RecordBytes): Promise<void> {
    this.assertOpen();
    await this.checker.check(text, origin, this.recordCount++ * ORDER_STRIDE, at);
  }

  /** A problem found by a source adapter (unreadable line, oversized record, bad row). */
  addProblem(problem: Problem): void {
    this.assertOpen();
    this.assembler.addProblem(problem);
  }

  /** A package's checks and claims, from the package loader. */
  addPackage(pkg: LoadedPackage, problems: Problem[]): void {
    this.assertOpen();
    this.assembler.addPackage(pkg, problems);
  }

  /** How a source's checkpoints cover its receipts (e.g. the order a store was found to use), shown with inclusion results. */
  setSpaceNote(space: string, note: string): void {
    this.assertOpen();
    this.assembler.setSpaceNote(space, note);
  }

  /** Checkpoints verified in earlier loads, by kernel key: their batches are never the tail (part 2 §12). */
  setRemembered(remembered: ReadonlyMap<string, RememberedBatch>): void {
    this.assertOpen();
    this.assembler.setRemembered(remembered);
  }

  /** Records added from now on come from the source `name` (LogSink.beginSource). */
  beginSource(name: string): void {
    this.assertOpen();
    this.assembler.beginSource(name, this.recordCount * ORDER_STRIDE);
  }

  /** The name of the source the record numbered `order` came from (source-names.ts). */
  sourceAt(order: number): string | undefined {
    return this.assembler.sourceAt(order);
  }

  /**
   * Waits for every record's checks, evaluates the whole log and builds the report, with the
   * trust given (pinned or not) and `allowUnpinned`. `onReceipt`: see LogAssembler.finish.
   */
  async finish(onReceipt?: (r: ReportReceipt) => void): Promise<VerificationReport> {
    this.assertOpen();
    this.finished = true;
    await this.checker.drain();
    this.checker.close();
    // Receipts reached in several envelopes are one each now: their rows join the others.
    this.views(this.assembler.settleEnvelopes());
    // ZeroClaw and CodeWhale receipts are judged only now: their rows come last.
    this.audit = await this.assembler.auditDialects(this.dialectOptions, this.families);
    this.views(this.audit.receipts.map((r) => r.view));
    return this.assembler.finish(!this.trust.isEmpty, onReceipt, this.allowUnpinned);
  }

  /** Stops checking (the page's Cancel; or a load that failed): every later record is refused. */
  close(): void {
    this.checker.close();
  }

  /** After `finish`: the ZeroClaw and CodeWhale receipts with their rows and facts. */
  get dialectAudit(): DialectAudit | null {
    return this.audit;
  }

  /** The log's checkpoints; after `finish`, with every check evaluated. */
  get checkpointEntries(): readonly CheckpointEntry[] {
    return this.assembler.checkpointEntries;
  }

  /** Receipts whose results came back so far (during `finish`, after the envelope merge: the report's count). */
  get receiptCount(): number {
    return this.assembler.receiptCount;
  }

  /** Records handed to the checker, and records whose checks came back (the page's progress). */
  get recordsRead(): number {
    return this.recordCount;
  }

  get recordsVerified(): number {
    return this.checker.recordsChecked;
  }

  /** Threads checking records. */
  get workers(): number {
    return this.checker.workers;
  }

  /** Whether checking failed or was cancelled (every later record is refused). */
  get broken(): boolean {
    return this.checker.broken;
  }

  private take(out: RecordOutput): void {
    this.assembler.add(out);
    if (this.onViews && out.views.length > 0) {
      markFailedViews(out);
      this.onViews(out.views);
    }
  }

  private views(views: ReceiptView[]): void {
    if (this.onViews && views.length > 0) this.onViews(views);
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('LogVerifier: finish() was already called');
  }
}
