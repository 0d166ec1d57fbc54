// The orchestrator (contract §5–§9): records stream in, each is parsed and its
// own checks start at once (signatures run concurrently, many in flight);
// `finish()` settles them, then evaluates checkpoints, inclusion, trust,
// finance and verdicts, and builds the report. Reads as a list of calls.
import { canonicalBytes } from '../json/canonicalize';
import { leafHash } from '../merkle';
import { decodeCheckpoint, checkpointSha256, decodeInclusionProof } from '../chio/checkpoint';
import { decodeChildReceipt } from '../chio/child-receipt';
import { decodeHttpReceipt } from '../chio/http-receipt';
import { decodeToolReceipt } from '../chio/tool-receipt';
import type { DecodedReceipt } from '../chio/types';
import { verifyChioSignature } from '../crypto/chio-signature';
import { reconcileBudgets } from '../finance/reconcile';
import { TrustStore } from '../trust/trust-store';
import { type CheckResult, fail, pass } from './check';
import type { CheckpointEntry, ReceiptEntry, TransparencyEntry } from './entries';
import { evaluateCheckpoints } from './checkpoints';
import { InclusionIndex } from './inclusion';
import { type ItemKind, type LogItem, type RecordRole, intakeRecord } from './intake';
import { type Problem, type ProblemLocation, makeProblem } from './problems';
import { checkParameterHash, checkReceiptId, checkReceiptSignature, checkSemantics, signatureFailureMessage } from './receipt-checks';
import { type PackageReport, type VerificationReport, buildReport, checkpointVerdict } from './report';
import { evaluateTransparency } from './transparency';

/** Where one record came from. */
export interface RecordOrigin {
  /** Display path of the file (relative to its package), or `store.sqlite3#table`. */
  file: string;
  /** 1-based line (or row) where the record starts. */
  line: number;
  role: RecordRole;
  /** Seq space: one per source (package, store, or the loose files given together). */
  space: string;
  /** For store rows: the row's seq, when the record itself has no wrapper. */
  seq?: bigint;
  /** The position checkpoints cover (store: claim log entry_seq). Defaults to the wrapper seq of tool receipts. */
  logSeq?: bigint;
}

export interface LogVerifierOptions {
  trust?: TrustStore;
  /** Signature checks allowed in flight before intake waits (keeps memory flat, WebCrypto busy). */
  maxInFlight?: number;
}

export class LogVerifier {
  private readonly trust: TrustStore;
  private readonly maxInFlight: number;
  private readonly receipts: ReceiptEntry[] = [];
  private readonly checkpoints: CheckpointEntry[] = [];
  private readonly inclusion = new InclusionIndex();
  private readonly transparency: TransparencyEntry[] = [];
  private readonly problems: Problem[] = [];
  private readonly packages: PackageReport[] = [];
  private readonly packageSpaces = new Map<PackageReport, string>();
  private readonly unprovenExpected = new Map<string, bigint>();
  private pending: Promise<void>[] = [];
  private order = 0;
  private finished = false;

  constructor(options: LogVerifierOptions = {}) {
    this.trust = options.trust ?? TrustStore.empty();
    this.maxInFlight = options.maxInFlight ?? 1024;
  }

  /** Adds one record's text. Awaiting it applies backpressure; never throws on bad input. */
  async addRecord(text: string, origin: RecordOrigin): Promise<void> {
    this.assertOpen();
    const result = intakeRecord(text, origin.role);
    if (!result.ok) {
      const { issue } = result;
      const where = `${issue.path}: ${issue.message}`;
      this.problems.push(
        makeProblem(issue.code, `${origin.file}:${origin.line + issue.line - 1}: ${where}`, {
          file: origin.file,
          line: origin.line + issue.line - 1,
        }),
      );
      return;
    }
    for (const item of result.items) this.addItem(item, origin);
    if (this.pending.length >= this.maxInFlight) await this.settle();
  }

  /** A problem found by a source adapter (unreadable line, oversized record, bad row). */
  addProblem(problem: Problem): void {
    this.assertOpen();
    this.problems.push(problem);
  }

  /** A package's `manifest` check, from the package loader. */
  addPackage(pkg: PackageReport & { space: string }, problems: Problem[]): void {
    this.assertOpen();
    const { space, ...report } = pkg;
    this.packages.push(report);
    this.packageSpaces.set(report, space);
    this.problems.push(...problems);
  }

  /** How a source's checkpoints cover its receipts (e.g. the order a store was found to use), shown with inclusion results. */
  setSpaceNote(space: string, note: string): void {
    this.assertOpen();
    this.inclusion.setNote(space, note);
  }

  /** The manifest's `uncheckpointedReceipts`: tool receipts of `space` that must have no inclusion proof. */
  expectUnprovenToolReceipts(space: string, count: bigint): void {
    this.assertOpen();
    this.unprovenExpected.set(space, count);
  }

  async finish(): Promise<VerificationReport> {
    this.assertOpen();
    this.finished = true;
    await this.settle();
    this.problems.push(...evaluateCheckpoints(this.checkpoints));
    const verified = (c: CheckpointEntry) => checkpointVerdict(c) === 'verified';
    this.problems.push(...this.inclusion.finish(this.receipts, verified));
    this.problems.push(...evaluateTransparency(this.transparency, this.checkpoints));
    this.checkUnprovenCounts();
    const finance = reconcileBudgets(this.financeInputs());
    const byId = new Map(this.receipts.map((r) => [r.id, r]));
    for (const g of finance.budgets) {
      for (const b of g.break_details) {
        const r = byId.get(b.receipt_id);
        this.problems.push(makeProblem('reconciliation_break', `${g.capability_id} grant ${g.grant_index}: ${b.rule}`, locate(r)));
      }
    }
    for (const m of finance.malformed) {
      const r = byId.get(m.receipt_id);
      this.problems.push(makeProblem('reconciliation_break', `metadata.financial cannot be reconciled: ${m.error}`, locate(r)));
    }
    return buildReport({
      receipts: this.receipts,
      checkpoints: this.checkpoints,
      problems: this.problems,
      packages: this.packages,
      finance,
      trustPinned: !this.trust.isEmpty,
    });
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
        pkg.details = { manifest: pkg.details?.manifest ?? msg };
      }
    }
  }

  private assertOpen(): void {
    if (this.finished) throw new Error('LogVerifier: finish() was already called');
  }

  private async settle(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    await Promise.all(batch);
  }

  private addItem(item: LogItem, origin: RecordOrigin): void {
    const located = { file: origin.file, line: origin.line, order: this.order++ };
    switch (item.kind) {
      case 'tool':
      case 'child':
      case 'http':
        return this.addReceipt(item, origin, located);
      case 'checkpoint':
        return this.addCheckpoint(item, origin, located);
      case 'proof': {
        const decoded = decodeInclusionProof(item.value, item.path);
        if (!decoded.ok) return this.shapeProblem(decoded.issues, origin);
        this.inclusion.addProof({ ...located, space: origin.space, proof: decoded.value });
        return;
      }
      case 'publication':
      case 'witness':
      case 'consistency':
      case 'equivocation':
        this.transparency.push({ ...located, space: origin.space, kind: item.kind, value: item.value });
        return;
      case 'lineage':
        return;
    }
  }

  private shapeProblem(issues: { path: string; message: string }[], origin: RecordOrigin, receiptId?: string): void {
    const text = issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ') + (issues.length > 5 ? `; and ${issues.length - 5} more` : '');
    const where: ProblemLocation = { file: origin.file, line: origin.line };
    if (receiptId !== undefined) where.receipt_id = receiptId;
    this.problems.push(makeProblem('parse_error', `${origin.file}:${origin.line}: ${text}`, where));
  }

  private addReceipt(item: LogItem, origin: RecordOrigin, located: { file: string; line: number; order: number }): void {
    const kind: ItemKind = item.kind;
    const decoded =
      kind === 'tool' ? decodeToolReceipt(item.value, item.path) : kind === 'child' ? decodeChildReceipt(item.value, item.path) : decodeHttpReceipt(item.value, item.path);
    if (!decoded.ok) {
      const id = item.value.get('id');
      return this.shapeProblem(decoded.issues, origin, typeof id === 'string' ? id : undefined);
    }
    const r: DecodedReceipt = decoded.value;
    const seq = item.seq ?? origin.seq;
    const logSeq = origin.logSeq ?? (kind === 'tool' ? item.seq : undefined);
    // Gen A, child and HTTP receipts sign exactly their body, which is also the anchor-lane leaf.
    const anchorBytes = canonicalBytes(r.anchorBody);
    const entry: ReceiptEntry = {
      ...located,
      id: r.id,
      type: r.type,
      space: origin.space,
      timestamp: r.timestamp,
      kernelKey: r.kernelKeyNormalized,
      checks: { parse: pass() },
      leafHash: leafHash(canonicalBytes(r.fullTyped)),
      anchorLeafHash: leafHash(anchorBytes),
      ...(r.type === 'tool' ? { generation: r.generation } : {}),
      ...(seq !== undefined ? { seq } : {}),
      ...(logSeq !== undefined ? { logSeq } : {}),
    };
    const where: ProblemLocation = { receipt_id: r.id, file: origin.file, line: origin.line };
    if (r.type === 'tool') {
      entry.capabilityId = r.capabilityId;
      if (r.decision) entry.decision = r.decision.verdict;
      if (r.financial) entry.financial = r.financial;
      if (r.financialError !== undefined) entry.financialError = r.financialError;
      this.setCheck(entry, 'parameter_hash', checkParameterHash(r), 'parameter_hash_mismatch', where);
      if (r.generation === 'B') {
        this.setCheck(entry, 'receipt_id', checkReceiptId(r), 'receipt_id_mismatch', where);
        this.setCheck(entry, 'semantics', checkSemantics(r), 'semantics_invalid', where);
      }
    }
    if (r.unsigned.length > 0) {
      const shown = r.unsigned.slice(0, 20).join(', ') + (r.unsigned.length > 20 ? `, and ${r.unsigned.length - 20} more` : '');
      this.problems.push(makeProblem('unsigned_field', `${r.id} carries fields outside its signed set (shown, but not signed): ${shown}`, where));
    }
    this.setCheck(entry, 'signer_trusted', this.trust.check(r.kernelKeyNormalized, r.timestamp), 'untrusted_signer', where);
    this.receipts.push(entry);
    this.inclusion.addReceipt(entry);
    this.pending.push(
      checkReceiptSignature(r, where, r.generation === 'B' ? undefined : anchorBytes).then((outcome) => {
        entry.checks.signature = outcome.check;
        this.problems.push(...outcome.problems);
      }),
    );
  }

  private setCheck(entry: ReceiptEntry, name: keyof ReceiptEntry['checks'], result: CheckResult, code: Problem['code'], where: ProblemLocation): void {
    entry.checks[name] = result;
    if (result.status === 'fail') this.problems.push(makeProblem(code, `${entry.id}: ${result.detail}`, where));
  }

  private addCheckpoint(item: LogItem, origin: RecordOrigin, located: { file: string; line: number; order: number }): void {
    const decoded = decodeCheckpoint(item.value, item.path);
    if (!decoded.ok) return this.shapeProblem(decoded.issues, origin);
    const cp = decoded.value;
    const entry: CheckpointEntry = { ...located, space: origin.space, cp, sha256: checkpointSha256(cp), checks: {} };
    const where: ProblemLocation = { checkpoint_seq: cp.checkpointSeq, file: origin.file, line: origin.line };
    entry.checks.signer_trusted = this.trust.check(cp.kernelKeyNormalized, cp.issuedAt);
    if (entry.checks.signer_trusted.status === 'fail') {
      this.problems.push(makeProblem('untrusted_signer', `checkpoint ${cp.checkpointSeq}: ${entry.checks.signer_trusted.detail}`, where));
    }
    this.checkpoints.push(entry);
    this.inclusion.addCheckpoint(entry);
    this.pending.push(
      verifyChioSignature(cp.kernelKey, cp.signature, canonicalBytes(cp.body)).then((res) => {
        if (res.status === 'pass') entry.checks.signature = pass();
        else if (res.status === 'skipped') entry.checks.signature = { status: 'skipped', detail: res.reason };
        else {
          const msg = `checkpoint ${cp.checkpointSeq}: ${signatureFailureMessage(res.reason, res.detail).replace('the receipt was changed', 'the checkpoint was changed')}`;
          entry.checks.signature = fail(msg);
          this.problems.push(makeProblem('checkpoint_signature_invalid', msg, where));
        }
      }),
    );
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
