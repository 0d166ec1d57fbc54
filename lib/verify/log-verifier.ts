// The single-thread orchestrator (contract §5–§9), used by the command line and
// tests: records stream in, RecordVerifier checks each one at once (signatures
// run concurrently, many in flight), LogAssembler evaluates the whole log on
// `finish()`. The browser runs the same two halves, the first in Web Workers.
import { TrustStore } from '../trust/trust-store';
import type { AuditedFamily, DialectAudit, DialectOptions } from '../verdict/family';
import type { RememberedBatch } from './inclusion';
import type { CheckpointEntry } from './entries';
import { LogAssembler } from './log-assembler';
import type { LoadedPackage, LogSink } from './log-sink';
import type { Problem } from '../verdict/problems';
import { ORDER_STRIDE, type RecordOrigin, RecordVerifier, emptyOutput, markFailedViews } from './record-verifier';
import type { ReportReceipt, VerificationReport } from '../verdict/report';
import type { ReceiptView } from '../verdict/receipt-view';

export type { RecordOrigin } from './record-verifier';

export interface LogVerifierOptions {
  trust?: TrustStore;
  /** With no key pinned, `signer_not_pinned` is a warning rather than an error (contract part 2 §11). */
  allowUnpinned?: boolean;
  /** Signature checks allowed in flight before intake waits (keeps memory flat, WebCrypto busy). */
  maxInFlight?: number;
  /** Receives each record's display fields (ReceiptView) once its checks settle, as the browser's workers send them. */
  onViews?: (views: ReceiptView[]) => void;
  /** ZeroClaw's HMAC key and the diff for CodeWhale review receipts, when the user supplies them. */
  dialect?: DialectOptions;
  /** Other runtimes' receipt families to read the log with (lib/dialects/families.ts); none: Chio's records only. */
  families?: readonly AuditedFamily[];
}

export class LogVerifier implements LogSink {
  private readonly trust: TrustStore;
  private readonly allowUnpinned: boolean;
  private readonly maxInFlight: number;
  private readonly records: RecordVerifier;
  private readonly onViews: ((views: ReceiptView[]) => void) | undefined;
  private readonly dialectOptions: DialectOptions;
  private readonly families: readonly AuditedFamily[];
  private audit: DialectAudit | null = null;
  private readonly assembler = new LogAssembler();
  private pending: Promise<void>[] = [];
  private recordCount = 0;
  private finished = false;

  constructor(options: LogVerifierOptions = {}) {
    this.trust = options.trust ?? TrustStore.empty();
    this.allowUnpinned = options.allowUnpinned === true;
    this.maxInFlight = options.maxInFlight ?? 1024;
    this.onViews = options.onViews;
    this.dialectOptions = options.dialect ?? {};
    this.families = options.families ?? [];
    this.records = new RecordVerifier(this.trust, { views: this.onViews !== undefined, families: this.families });
  }

  /** Adds one record's text. Awaiting it applies backpressure; never throws on bad input. */
  async addRecord(text: string, origin: RecordOrigin): Promise<void> {
    this.assertOpen();
    const out = emptyOutput();
    const settled = this.records.verify(text, origin, this.recordCount++ * ORDER_STRIDE, out);
    // The assembler takes a record once its checks have settled (it keeps no list of the
    // record's own: a log of millions of records would hold one per record).
    const take = () => {
      this.assembler.add(out);
      if (this.onViews && out.views.length > 0) {
        markFailedViews(out);
        this.onViews(out.views);
      }
    };
    if (settled.length === 0) take();
    else this.pending.push(Promise.all(settled).then(take));
    if (this.pending.length >= this.maxInFlight) await this.settle();
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

  /** The log's checkpoints; after `finish`, with every check evaluated. */
  get checkpointEntries(): readonly CheckpointEntry[] {
    return this.assembler.checkpointEntries;
  }

  /** `onReceipt`: see LogAssembler.finish. */
  async finish(onReceipt?: (r: ReportReceipt) => void): Promise<VerificationReport> {
    this.assertOpen();
    this.finished = true;
    await this.settle();
    const views = this.assembler.settleEnvelopes();
    if (this.onViews && views.length > 0) this.onViews(views);
    this.audit = await this.assembler.auditDialects(this.dialectOptions, this.families);
    if (this.onViews && this.audit.receipts.length > 0) this.onViews(this.audit.receipts.map((r) => r.view));
    return this.assembler.finish(!this.trust.isEmpty, onReceipt, this.allowUnpinned);
  }

  /** After `finish`: the ZeroClaw and CodeWhale receipts with their rows and facts. */
  get dialectAudit(): DialectAudit | null {
    return this.audit;
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('LogVerifier: finish() was already called');
  }

  private async settle(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    await Promise.all(batch);
  }
}
