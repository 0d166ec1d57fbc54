// The receipt-dependent half of a package's checks (contract §5, part 2 §5.3):
// what the package loader read from manifest.json and query.json, held against
// the receipts once every receipt's checks have settled and the proofs are
// matched. `manifest`: counts.uncheckpointedReceipts, proofCoverage and
// receiptSemantics recompute; `scope`: package-scope.ts. The loader has already
// judged what the manifest alone decides (files, counts of lines, query.json,
// disclosureNotice, read_boundary). Pure.
import type { ReceiptEntry } from './entries';
import { type ScopeClaim, type SubjectOf, evaluateScope } from './package-scope';
import { type Problem, makeProblem } from '../verdict/problems';
import type { PackageReport } from '../verdict/report';
import { type SemanticCounts, compareSemantics, semanticRange } from './receipt-semantics';

/** What the loader tells the verifier about a package, beside its report (LogSink.addPackage). */
export interface PackageClaims {
  /** `counts.uncheckpointedReceipts` and `counts.toolReceipts`, where the manifest has them. */
  unprovenToolReceipts?: bigint;
  toolReceipts?: bigint;
  /** `proofCoverage`, where the manifest has it (well formed: the loader reports a malformed one). */
  proofCoverage?: { checkpointedReceipts: bigint; uncheckpointedReceipts: bigint };
  /** `receiptSemantics`, where the manifest has it (well formed). */
  receiptSemantics?: SemanticCounts;
  /** Records read from receipts.ndjson, readable or not (those never read cannot be counted). */
  toolRecords: number;
  /** The query to hold the receipts to, where the package states one. */
  scope?: ScopeClaim;
  /** What the loader's part of `manifest` covered, in words (a pass says what it covers). */
  covered?: string[];
}

const MANIFEST = { file: 'manifest.json' };

/**
 * Evaluates `claims` against `receipts` (the package's own, in log order) and records the
 * results in `pkg.checks` (`manifest` can only get worse; `scope` is set). Returns the problems.
 */
export function evaluatePackageClaims(pkg: PackageReport, claims: PackageClaims, receipts: readonly ReceiptEntry[], subjectOf?: SubjectOf): Problem[] {
  const problems: Problem[] = [];
  const manifestFails = (message: string) => {
    problems.push(makeProblem('manifest_mismatch', message, MANIFEST));
    pkg.checks.manifest = 'fail';
    pkg.details = { ...pkg.details, manifest: pkg.details?.manifest ?? message };
  };
  const tools = receipts.filter((r) => r.type === 'tool');
  const unproven = BigInt(tools.filter((r) => !r.proofCount).length);
  if (claims.unprovenToolReceipts !== undefined && claims.unprovenToolReceipts !== unproven) {
    manifestFails(`manifest.json counts ${claims.unprovenToolReceipts} uncheckpointedReceipts, but ${unproven} tool receipts have no inclusion proof`);
  }
  if (claims.proofCoverage) for (const m of coverageMismatches(claims, unproven)) manifestFails(m);
  if (claims.receiptSemantics) {
    const verdict = compareSemantics(claims.receiptSemantics, semanticRange(tools, Math.max(0, claims.toolRecords - tools.length)));
    if (verdict.status === 'fail') for (const m of verdict.mismatches) manifestFails(`manifest.json ${m}`);
    else if (verdict.status === 'skipped' && pkg.checks.manifest === 'pass') {
      // Everything else matched, but this part cannot be decided: not a pass.
      pkg.checks.manifest = 'skipped';
      pkg.details = { ...pkg.details, manifest: verdict.reason };
    }
  }
  if (pkg.checks.manifest === 'pass' && claims.covered) {
    const own = [
      claims.proofCoverage ? 'proofCoverage recomputes' : 'no proofCoverage stated',
      claims.receiptSemantics ? 'receiptSemantics recomputes' : 'no receiptSemantics stated (not compared)',
    ];
    pkg.details = { ...pkg.details, manifest: [...claims.covered, ...own].join('; ') };
  }
  if (claims.scope) {
    const scope = evaluateScope(claims.scope, receipts, subjectOf);
    pkg.checks.scope = scope.result.status;
    if (scope.result.detail !== undefined) pkg.details = { ...pkg.details, scope: scope.result.detail };
    problems.push(...scope.problems);
  }
  return problems;
}

/**
 * `proofCoverage` (§16.8, upstream `verify_manifest_counts`): `uncheckpointedReceipts` equals the
 * counts' (or, without counts, the receipts without a proof), and `checkpointedReceipts` equals
 * toolReceipts − uncheckpointedReceipts.
 */
function coverageMismatches(claims: PackageClaims, unproven: bigint): string[] {
  const pc = claims.proofCoverage!;
  const out: string[] = [];
  const u = claims.unprovenToolReceipts ?? unproven;
  const uFrom = claims.unprovenToolReceipts !== undefined ? 'counts.uncheckpointedReceipts' : 'the tool receipts without an inclusion proof';
  if (pc.uncheckpointedReceipts !== u) out.push(`manifest.json proofCoverage.uncheckpointedReceipts says ${pc.uncheckpointedReceipts}, but ${uFrom} give ${u}`);
  const t = claims.toolReceipts ?? BigInt(claims.toolRecords);
  const checkpointed = t > u ? t - u : 0n;
  if (pc.checkpointedReceipts !== checkpointed) {
    out.push(
      `manifest.json proofCoverage.checkpointedReceipts says ${pc.checkpointedReceipts}, but toolReceipts ${t} − uncheckpointedReceipts ${u} = ${checkpointed}`,
    );
  }
  return out;
}
