// The whole-log half of verification (contract §5–§9): takes what
// RecordVerifier produced, from one thread or many workers in any order, and
// evaluates what needs the whole log — one record per receipt reached in
// several envelopes, checkpoint structure, continuity, chain and equivocation,
// inclusion, transparency records, package and bundle claims (counts,
// receiptSemantics, query scope), capability lineage links, budget
// reconciliation, verdicts — then builds the report. The report is ordered by
// each item's `order`, so it does not depend on which worker finished first.
import { reconcileBudgets } from '../finance/reconcile';
import { type BundleClaims, evaluateBundle } from './bundle-claims';
import type { CheckpointEntry, LineageEntry, ReceiptEntry, TransparencyEntry } from './entries';
import { evaluateCheckpoints } from './checkpoints';
import { EntryCompactor } from './entry-compactor';
import { auditFamilies } from './family-audit';
import { duplicateIdProblems } from './duplicate-ids';
import { type EnvelopeMerge, mergeEnvelopeCopies } from './envelope-dedup';
import { InclusionIndex, type RememberedBatch } from './inclusion';
import { linkLineage, verifiedSubjects } from './lineage-link';
import type { LoadedPackage } from './log-sink';
import { type PackageClaims, evaluatePackageClaims } from './package-claims';
import type { AuditedFamily, DialectAudit, DialectItem, DialectOptions } from '../verdict/family';
import { ProblemCap } from '../verdict/problem-cap';
import { type Problem, type ProblemLocation, isDroppedRecord, makeProblem } from '../verdict/problems';
import type { RecordOutput } from './record-output';
import type { ReceiptView } from '../verdict/receipt-view';
import { buildReport, checkpointVerdict } from './report';
import type { PackageReport, ReportReceipt, VerificationReport } from '../verdict/report';
import { SourceNames } from './source-names';
import { evaluateTransparency } from './transparency';

export class LogAssembler {
  private readonly receipts: ReceiptEntry[] = [];
  private readonly checkpoints: CheckpointEntry[] = [];
  private readonly inclusion = new InclusionIndex((p) => this.cap.take(p));
  private readonly transparency: TransparencyEntry[] = [];
  private readonly lineage: LineageEntry[] = [];
  /** Problems the cap does not take (those that name a receipt, or no file or line). */
  private readonly problems: Problem[] = [];
  /** Records left out because they could not be read (isDroppedRecord), counted before the cap keeps only some. */
  private unreadable = 0;
  /**
   * Problems of one code in one file that name no receipt, at most a hundred plus a counted
   * summary (problem-cap.ts): a hostile file must not hold millions (parse errors, proofs that
   * point at nothing, transparency records that match nothing, checkpoints that break).
   */
  private readonly cap = new ProblemCap();
  private readonly packages: PackageReport[] = [];
  /** Each package's seq space and what its manifest and query claim about its receipts. */
  private readonly packageClaims = new Map<PackageReport, { space: string; claims?: PackageClaims }>();
  /** Export bundles' own claims, from the records that carried them. */
  private readonly bundles: BundleClaims[] = [];
  private readonly compactor = new EntryCompactor();
  /** Other runtimes' records, and once audited (before `finish`), their receipts and problems. */
  private readonly dialect: DialectItem[] = [];
  private audit: DialectAudit = { receipts: [], problems: [] };
  /**
   * The explorer's rows of receipts read out of envelopes, held until their copies are merged
   * (settleEnvelopes): the page's rows and the report's receipts must be the same, one to one.
   */
  private readonly envelopeViews: ReceiptView[] = [];
  private envelopeMerge: EnvelopeMerge | null = null;
  /** Which source each record came from, when the caller names them (LogSink.beginSource). */
  private readonly sources = new SourceNames();

  /** Records numbered from `fromOrder` on come from the source `name`. */
  beginSource(name: string, fromOrder: number): void {
    this.sources.begin(name, fromOrder);
  }

  /** The name of the source the record numbered `order` came from, if sources were named. */
  sourceAt(order: number): string | undefined {
    return this.sources.at(order);
  }

  /** Each row gets the name of its source (the explorer's `source` column, the page's links). */
  private nameSources(views: readonly ReceiptView[]): void {
    if (this.sources.count === 0) return;
    for (const v of views) {
      const name = this.sources.at(v.order);
      if (name !== undefined) v.source = name;
    }
  }

  /**
   * Takes records' results, once their checks have settled (signatures included): their problems
   * are taken now, and the list is not kept.
   */
  add(out: RecordOutput): void {
    for (const c of out.checkpoints) {
      this.compactor.checkpoint(c);
      this.checkpoints.push(c);
      this.inclusion.addCheckpoint(c);
    }
    let enveloped: Set<number> | null = null;
    for (const r of out.receipts) {
      this.compactor.receipt(r);
      this.receipts.push(r);
      this.inclusion.addReceipt(r);
      if (r.envelope) (enveloped ??= new Set()).add(r.order);
    }
    this.nameSources(out.views);
    if (enveloped) this.holdViews(out.views, enveloped);
    for (const p of out.proofs) if (this.inclusion.addProof(p)) this.compactor.proof(p);
    // One at a time, not `push(...list)`: one record (an export bundle) can hold 200,000, past
    // what a call's arguments can take (the command line died of a stack overflow).
    for (const t of out.transparency) this.transparency.push(t);
    for (const l of out.lineage) {
      this.compactor.lineage(l);
      this.lineage.push(l);
    }
    for (const d of out.dialect) this.dialect.push(d);
    for (const b of out.bundles) this.bundles.push(b);
    for (const p of out.problems) this.keep(p);
  }

  /** Takes the views of envelope receipts out of `views` (in place) until settleEnvelopes. */
  private holdViews(views: ReceiptView[], orders: Set<number>): void {
    let kept = 0;
    for (const v of views) {
      if (orders.has(v.order)) this.envelopeViews.push(v);
      else views[kept++] = v;
    }
    views.length = kept;
  }

  /**
   * Once every record is in: merges the copies of each receipt reached in envelopes into one
   * entry (envelope-dedup.ts) and returns the rows of the envelope receipts that stay, in log
   * order, for the explorer. Called by `finish` if not before; later calls return nothing.
   */
  settleEnvelopes(): ReceiptView[] {
    if (this.envelopeMerge) return [];
    this.receipts.sort((a, b) => a.order - b.order);
    const { dropped } = (this.envelopeMerge = mergeEnvelopeCopies(this.receipts));
    if (dropped.size > 0) {
      let kept = 0;
      for (const r of this.receipts) if (!dropped.has(r)) this.receipts[kept++] = r;
      this.receipts.length = kept;
    }
    if (this.envelopeViews.length === 0) return [];
    const staying = new Set<number>();
    for (const r of this.receipts) if (r.envelope) staying.add(r.order);
    const views = this.envelopeViews.filter((v) => staying.has(v.order)).sort((a, b) => a.order - b.order);
    this.envelopeViews.length = 0;
    return views;
  }

  addProblem(problem: Problem): void {
    this.keep(problem);
  }

  /** Into the cap when it applies, else into the report's list. */
  private keep(p: Problem): void {
    if (isDroppedRecord(p)) this.unreadable++;
    if (!this.cap.take(p)) this.problems.push(p);
  }

  private keepAll(list: readonly Problem[]): void {
    for (const p of list) this.keep(p);
  }

  /** A package's checks so far and its claims, from the package loader. */
  addPackage(pkg: LoadedPackage, problems: Problem[]): void {
    const { space, claims, ...report } = pkg;
    this.packages.push(report);
    this.packageClaims.set(report, claims ? { space, claims } : { space });
    for (const p of problems) this.addProblem(p);
  }

  /** How a source's checkpoints cover its receipts, shown with inclusion results. */
  setSpaceNote(space: string, note: string): void {
    this.inclusion.setNote(space, note);
  }

  /** Checkpoints verified in earlier loads, by kernel key: their batches are never the tail (part 2 §12). */
  setRemembered(remembered: ReadonlyMap<string, RememberedBatch>): void {
    this.inclusion.setRemembered(remembered);
  }

  /** Receipts taken in so far (after the last batch, the report's count). */
  get receiptCount(): number {
    return this.receipts.length;
  }

  /** The log's checkpoints; after `finish`, with every check evaluated (e.g. to remember the verified ones). */
  get checkpointEntries(): readonly CheckpointEntry[] {
    return this.checkpoints;
  }

  /**
   * Audits the log's records of other runtimes' `families` (ZeroClaw, CodeWhale: they need the
   * whole log, a reply's claims against every tool result), with the key and diff the user
   * supplied. Call once every record is in, before `finish`, which reports them.
   */
  async auditDialects(options: DialectOptions = {}, families: readonly AuditedFamily[] = []): Promise<DialectAudit> {
    this.audit = await auditFamilies(families, this.dialect, options);
    this.dialect.length = 0;
    this.nameSources(this.audit.receipts.map((r) => r.view));
    return this.audit;
  }

  /**
   * `onReceipt`: see buildReport (the report's receipts, one at a time, instead of in the report).
   * `allowUnpinned`: `signer_not_pinned` is a warning, not an error (the CLI's --allow-unpinned).
   */
  finish(trustPinned: boolean, onReceipt?: (r: ReportReceipt) => void, allowUnpinned = false): VerificationReport {
    // Workers deliver in any order; every decision below reads entries in log order.
    this.settleEnvelopes();
    this.checkpoints.sort((a, b) => a.order - b.order);
    this.lineage.sort((a, b) => a.order - b.order);
    const merge = this.envelopeMerge!;
    merge.dropRepeats(this.problems);
    this.keepAll(merge.problems);
    // After the envelope merge: an id that still names several receipts is a problem at each.
    this.keepAll(duplicateIdProblems(this.receipts, (order) => this.sources.at(order)));
    const evaluated = evaluateCheckpoints(this.checkpoints, this.transparency);
    this.keepAll(evaluated.problems);
    const verified = (c: CheckpointEntry) => checkpointVerdict(c) === 'verified';
    this.keepAll(this.inclusion.finish(this.receipts, verified));
    const transparency = evaluateTransparency(this.transparency, this.checkpoints, evaluated.consistency, (p) => this.cap.take(p));
    this.keepAll(transparency.problems);
    this.setTransparencyChecks(transparency.bySpace);
    this.keepAll(this.audit.problems);
    const packageSpaces = new Set([...this.packageClaims.values()].map((p) => p.space));
    this.keepAll(linkLineage(this.lineage, this.receipts, packageSpaces));
    this.judgeClaims();
    const finance = reconcileBudgets(this.financeInputs());
    // Receipts by id, built only when a break needs locating (at a million receipts the map alone is tens of MB).
    let byId: Map<string, ReceiptEntry> | null = null;
    const find = (id: string) => (byId ??= new Map(this.receipts.map((r) => [r.id, r]))).get(id);
    for (const g of finance.budgets) {
      for (const b of g.break_details) {
        this.keep(makeProblem('reconciliation_break', `${g.capability_id} grant ${g.grant_index}: ${b.rule}`, locate(find(b.receipt_id))));
      }
    }
    for (const m of finance.malformed) {
      this.keep(makeProblem('reconciliation_break', `metadata.financial cannot be reconciled: ${m.error}`, locate(find(m.receipt_id))));
    }
    for (const p of this.cap.problems()) this.problems.push(p);
    const dialect = this.audit.receipts.map((r) => ({ order: r.view.order, report: r.report }));
    return buildReport(
      {
        receipts: this.receipts,
        dialect,
        checkpoints: this.checkpoints,
        lineage: this.lineage,
        problems: this.problems,
        packages: this.packages,
        finance,
        trustPinned,
        allowUnpinned,
        unreadable: this.unreadable,
      },
      onReceipt,
    );
  }

  /** Each package's `transparency` check (contract part 2 §5.3), where it supplied records. */
  private setTransparencyChecks(bySpace: Map<string, string | null>): void {
    for (const [pkg, { space }] of this.packageClaims) {
      if (!bySpace.has(space)) continue;
      const mismatch = bySpace.get(space)!;
      pkg.checks.transparency = mismatch === null ? 'pass' : 'fail';
      if (mismatch !== null) pkg.details = { ...pkg.details, transparency: mismatch };
    }
  }

  /**
   * Packages' and bundles' claims about their receipts (counts, proofCoverage, receiptSemantics,
   * query scope, uncheckpointedReceipts), once every receipt's checks settled and proofs matched.
   * An `agentSubject` query is held to the source's verified lineage rows (after linkLineage).
   */
  private judgeClaims(): void {
    const subjects = verifiedSubjects(this.lineage);
    const subjectOf = (space: string) => (capabilityId: string) => subjects.get(space)?.get(capabilityId);
    for (const [pkg, { space, claims }] of this.packageClaims) {
      if (!claims) continue;
      const own = this.receipts.filter((r) => r.space === space);
      this.keepAll(evaluatePackageClaims(pkg, claims, own, subjectOf(space)));
    }
    for (const b of this.bundles) {
      const own = this.receipts.filter((r) => r.space === b.space && r.order >= b.orderFrom && r.order < b.orderTo);
      this.keepAll(evaluateBundle(b, own, subjectOf(b.space)));
    }
  }

  private *financeInputs() {
    for (const r of this.receipts) {
      if (r.type !== 'tool' || (r.financial === undefined && r.financialError === undefined)) continue;
      yield {
        id: r.id,
        capabilityId: r.capabilityId ?? '',
        signatureValid: r.checks.signature?.status === 'pass',
        ...(r.financial ? { financial: r.financial } : {}),
        ...(r.financialError !== undefined ? { financialError: r.financialError } : {}),
      };
    }
  }
}

function locate(r: ReceiptEntry | undefined): ProblemLocation {
  return r ? { receipt_id: r.id, file: r.file, line: r.line } : {};
}
