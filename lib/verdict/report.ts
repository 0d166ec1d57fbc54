// The report of contract §8 as data (its types, the explorer's row, the finance
// section of §9) and the pure states read off it: a receipt's verdict from its
// checks (§6, part 2 §6, §11), whether it is intact with only its signer
// unpinned, a log's and a checkpoint's state as a page headlines them. The
// builder is lib/verify/report.ts; readers, pages and the CLI read these.
import type { CheckStatus, ReceiptCheckName } from './check';
import { type CheckCode, checkCodeOf } from './check-text';
import type { LineageCode, Problem } from './problems';

export type Verdict = 'verified' | 'failed' | 'unverified';

/** Receipts of other runtimes (lib/dialects). */
export type DialectReceiptType = 'zeroclaw' | 'codewhale-review' | 'codewhale-turn';
/** Chio's receipts (`tool`, `child`, `http`: lib/chio), then the other runtimes'. */
export type ReportReceiptType = 'tool' | 'child' | 'http' | DialectReceiptType;

export interface ReportReceipt {
  id: string;
  type: ReportReceiptType;
  seq?: bigint;
  generation?: 'A' | 'B';
  verdict: Verdict;
  checks: Record<string, CheckStatus>;
  /** Why a check failed or was skipped, or how it passed (e.g. the leaf convention). */
  details?: Record<string, string>;
  file: string;
  line: number;
  /**
   * What an envelope around the receipt claimed (contract part 2 §5.4, §1 principle 6): shown as
   * claimed, never a verdict. Present only for receipts read out of an envelope.
   */
  envelope?: ReportEnvelope;
}

/**
 * The unsigned wrapper a receipt arrived in, and what it claimed (lib/verify/envelope-intake.ts).
 * Claims are as written (a claim over 100 characters is cut, saying so).
 */
export interface ReportEnvelope {
  /** The wrapper that makes the claims: `chio-bridge-outcome` or `mcp-tool-result`. */
  kind: string;
  /** The transcript it was found in as text: `claude-code-stream-json` or `codex-exec-json`. */
  host?: string;
  /** The bridge's `state`; the MCP edge's `terminalState`. */
  state?: string;
  /** The bridge's `evidence` (`verified` means the bridge says it checked the receipt). */
  evidence?: string;
  /** The MCP edge's `outputKind` (`value`, `stream`, `none`). */
  output_kind?: string;
  /** The MCP edge's `_meta.chio.decision` (a projection of the signed decision). */
  decision?: string;
  /** Always true: nothing here is verified by the wrapper's say-so. */
  claimed: true;
}

export interface ReportCheckpoint {
  checkpoint_seq: bigint;
  /** `chio.checkpoint_statement.v1` or `…v2` (as written). */
  schema: string;
  verdict: 'verified' | 'failed';
  checks: Record<string, CheckStatus>;
  details?: Record<string, string>;
  batch_start_seq: bigint;
  batch_end_seq: bigint;
  file: string;
  line: number;
}

/** Package checks (contract §5, part 2 §5.3): `manifest` always; the others when the package has what they read. */
export type PackageCheckName = 'manifest' | 'read_boundary' | 'scope' | 'transparency';
export const PACKAGE_CHECK_ORDER: readonly PackageCheckName[] = ['manifest', 'read_boundary', 'scope', 'transparency'];

export interface PackageReport {
  path: string;
  checks: { manifest: CheckStatus } & Partial<Record<Exclude<PackageCheckName, 'manifest'>, CheckStatus>>;
  details?: Partial<Record<PackageCheckName, string>>;
}

/** One capability-lineage row (contract part 2 §5.3.1, §8). */
export interface ReportLineage {
  capability_id: string;
  /** As written (`signed_token`, `synthetic_anchor`, `legacy_projection`), or `legacy_projection` when absent. */
  provenance: string;
  /**
   * `unverified` only when nothing failed but this engine could not check the token's signature
   * (an ECDSA or ML-DSA issuer): never collapsed into either of the contract's two verdicts.
   */
  verdict: 'verified' | 'failed' | 'unverified';
  checks: { lineage: CheckStatus };
  /** Why it failed, could not be checked, or (a synthetic anchor) what its pass means. */
  details?: { lineage: string };
  /** The error codes its failing rules raised, in rule order. */
  problems: LineageCode[];
  file: string;
  line: number;
}

export interface VerificationReport {
  ok: boolean;
  /**
   * `unreadable`: records left out because they could not be read (a line that does not parse, a
   * record with a repeated key, a store row that cannot be decoded): in no other count. Present
   * only when there are any, like the lineage counts, so a clean log's report keeps its shape.
   */
  summary: {
    receipts: number;
    verified: number;
    failed: number;
    unverified: number;
    checkpoints: number;
    lineage?: number;
    lineage_failed?: number;
    unreadable?: number;
  };
  receipts: ReportReceipt[];
  checkpoints: ReportCheckpoint[];
  /** Capability-lineage rows, when the log carries any (left out otherwise). */
  lineage?: ReportLineage[];
  problems: Problem[];
  finance: FinanceReport;
  packages: PackageReport[];
  /** Whether kernel keys were pinned (without them `signer_trusted` is skipped). */
  trust: { pinned: boolean };
  /** Every signing key seen, with how many receipts and checkpoints it signed. */
  keys: { key: string; receipts: number; checkpoints: number }[];
}

/** A check as the verdict reads it: its status and reason's code, from a receipt entry or a report row alike. */
export type CheckLook = (name: ReceiptCheckName) => { status?: CheckStatus; code?: CheckCode } | undefined;

/**
 * A receipt's verdict (contract §6, part 2 §6, §11), and whether it is intact with only its
 * signer unpinned: everything but `signer_trusted` holds, and that was skipped because no key is
 * pinned. `verified` needs `signer_trusted` to pass: a signature under a key taken from the
 * receipt itself proves it intact, not who signed it.
 */
export function judgeReceipt(
  type: ReportReceiptType,
  generation: 'A' | 'B' | undefined,
  checks: readonly string[],
  look: CheckLook,
): { verdict: Verdict; unpinned: boolean } {
  if (checks.some((name) => look(name as ReceiptCheckName)?.status === 'fail')) return { verdict: 'failed', unpinned: false };
  const required: ReceiptCheckName[] = ['parse', 'signature'];
  if (type === 'tool') required.push('parameter_hash');
  if (generation === 'B') required.push('receipt_id', 'semantics');
  const inc = look('inclusion');
  const intact =
    required.every((name) => look(name)?.status === 'pass') &&
    inc !== undefined &&
    (inc.status === 'pass' || (inc.status === 'skipped' && inc.code === 'uncheckpointed'));
  if (!intact) return { verdict: 'unverified', unpinned: false };
  const trusted = look('signer_trusted');
  if (trusted?.status === 'pass') return { verdict: 'verified', unpinned: false };
  return { verdict: 'unverified', unpinned: trusted?.status === 'skipped' && trusted.code === 'no_key_pinned' };
}

/**
 * A Chio receipt that nothing failed and that would be `verified` under a pinned key: the page's
 * own state, "intact, signer not pinned" (part 2 §11), never shown as verified.
 */
export function isIntactUnpinned(r: ReportReceipt): boolean {
  if (r.verdict !== 'unverified' || r.checks?.signer_trusted !== 'skipped' || (r.type !== 'tool' && r.type !== 'child' && r.type !== 'http')) return false;
  return judgeReceipt(r.type, r.generation, Object.keys(r.checks), (name) => {
    const status = r.checks[name];
    return status === undefined ? undefined : { status, code: checkCodeOf(r.details?.[name]) };
  }).unpinned;
}

/**
 * The log as a page headlines it: `failed` when anything but the unpinned signer failed;
 * `unpinned` when nothing failed but no key is pinned, so nothing is verified (part 2 §11,
 * `signer_not_pinned` as an error or, under --allow-unpinned, a warning); `ok` otherwise.
 */
export function logState(report: VerificationReport): 'ok' | 'unpinned' | 'failed' {
  const failed =
    report.summary.failed > 0 ||
    report.checkpoints.some((c) => c.verdict === 'failed') ||
    (report.lineage ?? []).some((l) => l.verdict === 'failed') ||
    report.packages.some((p) => Object.values(p.checks).includes('fail')) ||
    report.problems.some((p) => p.severity === 'error' && p.code !== 'signer_not_pinned');
  if (failed) return 'failed';
  return report.problems.some((p) => p.code === 'signer_not_pinned') ? 'unpinned' : 'ok';
}

/**
 * What a page calls a checkpoint: a `verified` checkpoint whose signer no pinned key vouches for
 * is "intact, signer not pinned" (part 2 §11: it still vouches for its batch's inclusion, but
 * never in the words of verified).
 */
export function checkpointState(c: ReportCheckpoint): 'verified' | 'failed' | 'unpinned' {
  if (c.verdict === 'verified' && c.checks.signer_trusted === 'skipped' && checkCodeOf(c.details?.signer_trusted) === 'no_key_pinned') return 'unpinned';
  return c.verdict;
}

/** Budget reconciliation (contract §9, lib/finance/reconcile.ts): a rule a receipt breaks. */
export interface BudgetBreak {
  receipt_id: string;
  rule: string;
}

export interface BudgetGroup {
  capability_id: string;
  grant_index: bigint;
  currency: string;
  root_budget_holder: string;
  budget_total: bigint;
  charged: bigint;
  /** budget_remaining of the group's last counted receipt, as the kernel signed it. */
  remaining: bigint;
  receipts: number;
  /** Charged amounts per settlement status. */
  by_settlement: { settled: bigint; pending: bigint; failed: bigint };
  /** Ids of the receipts that break a rule (details in `break_details` and the problems). */
  breaks: string[];
  break_details: BudgetBreak[];
}

export interface FinanceReport {
  budgets: BudgetGroup[];
  /** Financial receipts left out because their signature did not pass. */
  excluded: string[];
  /** Receipts whose `metadata.financial` does not have the FinancialReceiptMetadata shape. */
  malformed: { receipt_id: string; error: string }[];
}
