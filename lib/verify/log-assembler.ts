// The whole-log half of verification (contract §5–§9): takes what
// RecordVerifier produced, from one thread or many workers in any order, and
// evaluates what needs the whole log — checkpoint structure, continuity and
// equivocation, inclusion, transparency records, manifest counts, capability
// lineage links, budget reconciliation, verdicts — then builds the report. The report is ordered by
// each item's `order`, so it does not depend on which worker finished first.
import { type DialectAudit, type DialectItem, type DialectOptions, auditDialects } from '../dialects/audit';
import { reconcileBudgets } from '../finance/reconcile';
import type { CheckpointEntry, LineageEntry, ReceiptEntry, TransparencyEntry } from './entries';
import { evaluateCheckpoints } from './checkpoints';
import { EntryCompactor } from './entry-compactor';
import { InclusionIndex } from './inclusion';
import { linkLineage } from './lineage-link';
import { ParseErrorCap } from './parse-error-cap';
import { type Problem, type ProblemLocation, makeProblem } from './problems';
import type { RecordOutput } from './record-verifier';
import { type PackageReport, type ReportReceipt, type VerificationReport, buildReport, checkpointVerdict } from './report';
import { evaluateTransparency } from './transparency';

export class LogAssembler {
  private readonly receipts: ReceiptEntry[] = [];
  private readonly checkpoints: CheckpointEntry[] = [];
  private readonly inclusion = new InclusionIndex();
  private readonly transparency: TransparencyEntry[] = [];
  private readonly lineage: LineageEntry[] = [];
  private readonly problems: Problem[] = [];
  /** Parse errors, at most a hundred per file plus a summary (a garbage file must not hold millions). */
  private readonly parseErrors = new ParseErrorCap();
  /** Records' problem lists, kept by reference: signature checks still running append to them. */
  private readonly recordProblems: Problem[][] = [];
  private readonly packages: PackageReport[] = [];
  private readonly packageSpaces = new Map<PackageReport, string>();
  private readonly unprovenExpected = new Map<string, bigint>();
  private readonly compactor = new EntryCompactor();
  /** Other runtimes' records, and once audited (before `finish`), their receipts and problems. */
  private readonly dialect: DialectItem[] = [];
  private audit: DialectAudit = { receipts: [], problems: [] };

  /**
   * Takes records' results. Receipts and checkpoints may still be waiting for
   * their signatures (same thread); everything must be settled before `finish`.
   */
  add(out: RecordOutput): void {
    for (const c of out.checkpoints) {
      this.compactor.checkpoint(c);
      this.checkpoints.push(c);
      this.inclusion.addCheckpoint(c);
    }
    for (const r of out.receipts) {
      this.compactor.receipt(r);
      this.receipts.push(r);
      this.inclusion.addReceipt(r);
    }
    for (const p of out.proofs) if (this.inclusion.addProof(p)) this.compactor.proof(p);
    this.transparency.push(...out.transparency);
    for (const l of out.lineage) {
      this.compactor.lineage(l);
      this.lineage.push(l);
    }
    for (const d of out.dialect) this.dialect.push(d);
    this.keepUncapped(out.problems);
    this.recordProblems.push(out.problems);
  }

  addProblem(problem: Problem): void {
    if (!this.parseErrors.take(problem)) this.problems.push(problem);
  }

  /** Moves `list`'s parse errors into the cap, in place: checks still running append to the same list. */
  private keepUncapped(list: Problem[]): void {
    let kept = 0;
    for (const p of list) if (!this.parseErrors.take(p)) list[kept++] = p;
    list.length = kept;
  }

  /** A package's `manifest` check, from the package loader. */
  addPackage(pkg: PackageReport & { space: string }, problems: Problem[]): void {
    const { space, ...report } = pkg;
    this.packages.push(report);
    this.packageSpaces.set(report, space);
    for (const p of problems) this.addProblem(p);
  }

  /** How a source's checkpoints cover its receipts, shown with inclusion results. */
  setSpaceNote(space: string, note: string): void {
    this.inclusion.setNote(space, note);
  }

  /** The manifest's `uncheckpointedReceipts`: tool receipts of `space` that must have no inclusion proof. */
  expectUnprovenToolReceipts(space: string, count: bigint): void {
    this.unprovenExpected.set(space, count);
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
   * Audits the log's ZeroClaw and CodeWhale records (they need the whole log: a reply's claims
   * against every tool result), with the key and diff the user supplied. Call once every record
   * is in, before `finish`, which reports them.
   */
  async auditDialects(options: DialectOptions = {}): Promise<DialectAudit> {
    this.audit = await auditDialects(this.dialect, options);
    this.dialect.length = 0;
    return this.audit;
  }

  /** `onReceipt`: see buildReport (the report's receipts, one at a time, instead of in the report). */
  finish(trustPinned: boolean, onReceipt?: (r: ReportReceipt) => void): VerificationReport {
    // Workers deliver in any order; every decision below reads entries in log order.
    this.receipts.sort((a, b) => a.order - b.order);
    this.checkpoints.sort((a, b) => a.order - b.order);
    this.lineage.sort((a, b) => a.order - b.order);
    for (const list of this.recordProblems) {
      this.keepUncapped(list);
      this.problems.push(...list);
    }
    this.recordProblems.length = 0;
    this.problems.push(...this.parseErrors.problems());
    this.problems.push(...evaluateCheckpoints(this.checkpoints));
    const verified = (c: CheckpointEntry) => checkpointVerdict(c) === 'verified';
    this.problems.push(...this.inclusion.finish(this.receipts, verified));
    this.problems.push(...evaluateTransparency(this.transparency, this.checkpoints));
    this.problems.push(...this.audit.problems);
    this.problems.push(...linkLineage(this.lineage, this.receipts, new Set(this.packageSpaces.values())));
    this.checkUnprovenCounts();
    const finance = reconcileBudgets(this.financeInputs());
    // Receipts by id, built only when a break needs locating (at a million receipts the map alone is tens of MB).
    let byId: Map<string, ReceiptEntry> | null = null;
    const find = (id: string) => (byId ??= new Map(this.receipts.map((r) => [r.id, r]))).get(id);
    for (const g of finance.budgets) {
      for (const b of g.break_details) {
        this.problems.push(makeProblem('reconciliation_break', `${g.capability_id} grant ${g.grant_index}: ${b.rule}`, locate(find(b.receipt_id))));
      }
    }
    for (const m of finance.malformed) {
      this.problems.push(makeProblem('reconciliation_break', `metadata.financial cannot be reconciled: ${m.error}`, locate(find(m.receipt_id))));
    }
    const dialect = this.audit.receipts.map((r) => ({ order: r.view.order, report: r.report }));
    return buildReport({ receipts: this.receipts, dialect, checkpoints: this.checkpoints, lineage: this.lineage, problems: this.problems, packages: this.packages, finance, trustPinned }, onReceipt);
  }

  /** The manifest count of unproven tool receipts, against the proofs actually in the package. */
  private checkUnprovenCounts(): void {
    for (const [space, expected] of this.unprovenExpected) {
      const actual = this.receipts.filter((r) => r.space === space && r.type === 'tool' && !r.proofCount).length;
      if (BigInt(actual) === expected) continue;
      const msg = `manifest.json counts ${expected} uncheckpointedReceipts, but ${actual} tool receipts have no inclusion proof`;
      this.problems.push(makeProblem('manifest_mismatch', msg, { file: 'manifest.json' }));
      for (const [pkg, s] of this.packageSpaces) {
        if (s !== space) continue;
        pkg.checks.manifest = 'fail';
        pkg.details = { ...pkg.details, manifest: pkg.details?.manifest ?? msg };
      }
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
