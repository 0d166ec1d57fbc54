// Verdicts (contract §6) and the report object of §8, shared by the command
// line and the browser. Checks that do not apply to a record are left out.
import type { FinanceReport } from '../finance/reconcile';
import {
  CHECKPOINT_CHECK_ORDER,
  type CheckResult,
  type CheckStatus,
  NO_KEY_PINNED,
  RECEIPT_CHECK_ORDER,
  type ReceiptCheckName,
  UNCHECKPOINTED,
} from '../verdict/check';
import type { CheckpointEntry, LineageEntry, ReceiptEntry, Verdict } from './entries';
import { ANCHOR_NOTE, LINEAGE_RULE_ORDER, type LineageCode } from './lineage';
import { type Problem, isDroppedRecord, makeProblem } from '../verdict/problems';

/** Receipts of other runtimes (lib/dialects/audit.ts). */
export type DialectReceiptType = 'zeroclaw' | 'codewhale-review' | 'codewhale-turn';
export type ReportReceiptType = ReceiptEntry['type'] | DialectReceiptType;

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

/** A check as the verdict reads it: its status and reason, from a receipt entry or a report row alike. */
type CheckLook = (name: ReceiptCheckName) => { status?: CheckStatus; detail?: string } | undefined;

/**
 * A receipt's verdict (contract §6, part 2 §6, §11), and whether it is intact with only its
 * signer unpinned: everything but `signer_trusted` holds, and that was skipped because no key is
 * pinned. `verified` needs `signer_trusted` to pass: a signature under a key taken from the
 * receipt itself proves it intact, not who signed it.
 */
function judge(
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
    (inc.status === 'pass' || (inc.status === 'skipped' && inc.detail === UNCHECKPOINTED));
  if (!intact) return { verdict: 'unverified', unpinned: false };
  const trusted = look('signer_trusted');
  if (trusted?.status === 'pass') return { verdict: 'verified', unpinned: false };
  return { verdict: 'unverified', unpinned: trusted?.status === 'skipped' && trusted.detail === NO_KEY_PINNED };
}

export function receiptVerdict(r: ReceiptEntry): Verdict {
  return judge(r.type, r.generation, Object.keys(r.checks), (name) => r.checks[name]).verdict;
}

/**
 * A Chio receipt that nothing failed and that would be `verified` under a pinned key: the page's
 * own state, "intact, signer not pinned" (part 2 §11), never shown as verified.
 */
export function isIntactUnpinned(r: ReportReceipt): boolean {
  if (r.verdict !== 'unverified' || r.checks?.signer_trusted !== 'skipped' || (r.type !== 'tool' && r.type !== 'child' && r.type !== 'http')) return false;
  return judge(r.type, r.generation, Object.keys(r.checks), (name) => {
    const status = r.checks[name];
    return status === undefined ? undefined : { status, detail: r.details?.[name] };
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
  if (c.verdict === 'verified' && c.checks.signer_trusted === 'skipped' && c.details?.signer_trusted === NO_KEY_PINNED) return 'unpinned';
  return c.verdict;
}

/** A checkpoint vouches for its batch only when signed, well-formed, continuous and (if pinned) trusted. */
export function checkpointVerdict(c: CheckpointEntry): 'verified' | 'failed' {
  if (Object.values(c.checks).some((r) => r?.status === 'fail')) return 'failed';
  if (c.checks.signature?.status !== 'pass' || c.checks.structure?.status !== 'pass') return 'failed';
  return 'verified';
}

export interface ReportInput {
  receipts: ReceiptEntry[];
  /** Other runtimes' receipts, already judged (lib/dialects/audit.ts), each at its place in log order. */
  dialect?: { order: number; report: ReportReceipt }[];
  checkpoints: CheckpointEntry[];
  /** Capability-lineage rows, settled (their token signatures checked). */
  lineage?: LineageEntry[];
  problems: Problem[];
  packages: PackageReport[];
  finance: FinanceReport;
  trustPinned: boolean;
  /** `signer_not_pinned` as a warning, not an error (the CLI's `--allow-unpinned`, part 2 §11). */
  allowUnpinned?: boolean;
  /** Records left out because they could not be read; default: counted from `problems` (isDroppedRecord). */
  unreadable?: number;
}

/**
 * `onReceipt`: takes each receipt's report object, in report order, instead of
 * the report holding them (its `receipts` is then empty). The browser encodes
 * a million of them as columns this way without keeping a million objects.
 */
export function buildReport(input: ReportInput, onReceipt?: (r: ReportReceipt) => void): VerificationReport {
  const receipts: ReportReceipt[] = [];
  const counts: Record<Verdict, number> = { verified: 0, failed: 0, unverified: 0 };
  const take = (r: ReportReceipt) => {
    counts[r.verdict]++;
    if (onReceipt) onReceipt(r);
    else receipts.push(r);
  };
  // Chio's receipts and the others', merged in log order.
  const dialect = [...(input.dialect ?? [])].sort((a, b) => a.order - b.order);
  let d = 0;
  for (const entry of [...input.receipts].sort((a, b) => a.order - b.order)) {
    while (d < dialect.length && dialect[d]!.order < entry.order) take(dialect[d++]!.report);
    take(toReportReceipt(entry));
  }
  while (d < dialect.length) take(dialect[d++]!.report);
  const sharedChecks = new Map<string, Record<string, CheckStatus>>();
  const checkpoints = [...input.checkpoints].sort((a, b) => a.order - b.order).map((c) => toReportCheckpoint(c, sharedChecks));
  const lineage = [...(input.lineage ?? [])].sort((a, b) => a.order - b.order).map(toReportLineage);
  const unpinned = input.trustPinned ? null : signerNotPinned(input, input.allowUnpinned === true);
  const problems = (unpinned ? [...input.problems, unpinned] : [...input.problems]).sort(compareProblems);
  const ok =
    counts.failed === 0 &&
    checkpoints.every((c) => c.verdict !== 'failed') &&
    lineage.every((l) => l.verdict !== 'failed') &&
    input.packages.every((p) => Object.values(p.checks).every((status) => status !== 'fail')) &&
    problems.every((p) => p.severity !== 'error');
  const summary: VerificationReport['summary'] = { receipts: input.receipts.length + dialect.length, ...counts, checkpoints: checkpoints.length };
  // Only a log with lineage rows has these keys: older reports stay byte for byte the same.
  if (lineage.length > 0) {
    summary.lineage = lineage.length;
    summary.lineage_failed = lineage.filter((l) => l.verdict === 'failed').length;
  }
  const unreadable = input.unreadable ?? input.problems.filter(isDroppedRecord).length;
  if (unreadable > 0) summary.unreadable = unreadable;
  return {
    ok,
    summary,
    receipts,
    checkpoints,
    ...(lineage.length > 0 ? { lineage } : {}),
    problems,
    finance: input.finance,
    packages: input.packages.map(inCheckOrder),
    trust: { pinned: input.trustPinned },
    keys: keysSeen(input.receipts, input.checkpoints),
  };
}

/**
 * Part 2 §11: a log of Chio receipts or checkpoints checked with no key pinned raises
 * `signer_not_pinned`, naming the keys that signed it (an error; a warning with `allowUnpinned`,
 * for pipelines that check integrity only, and the verdicts stay `unverified`). We raise it for
 * checkpoints alone too: nothing vouches for who signed them either.
 */
function signerNotPinned(input: ReportInput, allowUnpinned: boolean): Problem | null {
  if (input.receipts.length === 0 && input.checkpoints.length === 0) return null;
  const keys = keysSeen(input.receipts, input.checkpoints).map((k) => k.key);
  const shown = keys.slice(0, 3).join(', ') + (keys.length > 3 ? ` and ${keys.length - 3} more` : '');
  const p = makeProblem(
    'signer_not_pinned',
    `No kernel key is pinned, so no receipt is verified: signatures show the log is intact, not who signed it. ` +
      `Signed by ${keys.length === 1 ? 'key' : `${keys.length} keys`} ${shown || '(none readable)'}; pin the kernel's key (--trust-key, or Trust in the page) to verify.`,
  );
  return allowUnpinned ? { ...p, severity: 'warning' } : p;
}

/** A package's checks and details in PACKAGE_CHECK_ORDER (they are evaluated in another order). */
function inCheckOrder(p: PackageReport): PackageReport {
  const checks = { manifest: p.checks.manifest } as PackageReport['checks'];
  const details: NonNullable<PackageReport['details']> = {};
  for (const name of PACKAGE_CHECK_ORDER) {
    const status = p.checks[name];
    if (status !== undefined) checks[name] = status;
    const detail = p.details?.[name];
    if (detail !== undefined) details[name] = detail;
  }
  return { path: p.path, checks, ...(Object.keys(details).length ? { details } : {}) };
}

function keysSeen(receipts: ReceiptEntry[], checkpoints: CheckpointEntry[]): VerificationReport['keys'] {
  const keys = new Map<string, { key: string; receipts: number; checkpoints: number }>();
  const of = (key: string) => {
    let k = keys.get(key);
    if (!k) keys.set(key, (k = { key, receipts: 0, checkpoints: 0 }));
    return k;
  };
  for (const r of receipts) if (r.kernelKey !== null) of(r.kernelKey).receipts++;
  for (const c of checkpoints) of(c.cp.kernelKeyNormalized ?? c.cp.kernelKey).checkpoints++;
  return [...keys.values()].sort((a, b) => b.receipts + b.checkpoints - (a.receipts + a.checkpoints));
}

/** The statuses of the checks that ran, in contract order, and the details of those that have one. */
export function checksAndDetails<N extends string>(
  order: readonly N[],
  results: Partial<Record<N, CheckResult>>,
): { checks: Record<string, CheckStatus>; details?: Record<string, string> } {
  const checks: Record<string, CheckStatus> = {};
  const details: Record<string, string> = {};
  for (const name of order) {
    const c = results[name];
    if (!c) continue;
    checks[name] = c.status;
    if (c.detail !== undefined) details[name] = c.detail;
  }
  return Object.keys(details).length ? { checks, details } : { checks };
}

function toReportReceipt(r: ReceiptEntry): ReportReceipt {
  return {
    id: r.id,
    type: r.type,
    ...(r.seq !== undefined ? { seq: r.seq } : {}),
    ...(r.generation ? { generation: r.generation } : {}),
    verdict: receiptVerdict(r),
    ...checksAndDetails(RECEIPT_CHECK_ORDER, r.checks),
    file: r.file,
    line: r.line,
    ...(r.envelope ? { envelope: r.envelope } : {}),
  };
}

/**
 * `shared`: one frozen `checks` object per distinct set of statuses (a log of 650,000 checkpoints
 * has a handful), so the report holds per checkpoint only what differs.
 */
function toReportCheckpoint(c: CheckpointEntry, shared: Map<string, Record<string, CheckStatus>>): ReportCheckpoint {
  const { checks: own, details } = checksAndDetails(CHECKPOINT_CHECK_ORDER, c.checks);
  let key = '';
  for (const name in own) key += `${name}:${own[name]};`;
  let checks = shared.get(key);
  if (!checks) shared.set(key, (checks = Object.freeze(own)));
  // Literals, not spreads (the keys in the order the report has always had).
  return details === undefined
    ? {
        checkpoint_seq: c.cp.checkpointSeq,
        schema: c.cp.schema,
        verdict: checkpointVerdict(c),
        checks,
        batch_start_seq: c.cp.batchStartSeq,
        batch_end_seq: c.cp.batchEndSeq,
        file: c.file,
        line: c.line,
      }
    : {
        checkpoint_seq: c.cp.checkpointSeq,
        schema: c.cp.schema,
        verdict: checkpointVerdict(c),
        checks,
        details,
        batch_start_seq: c.cp.batchStartSeq,
        batch_end_seq: c.cp.batchEndSeq,
        file: c.file,
        line: c.line,
      };
}

function toReportLineage(e: LineageEntry): ReportLineage {
  const failed = LINEAGE_RULE_ORDER.map((code) => e.failures.find((f) => f.code === code)).filter((f) => f !== undefined);
  const problems = failed.map((f) => f.code);
  const [verdict, lineage, detail]: [ReportLineage['verdict'], CheckStatus, string | undefined] =
    failed.length > 0
      ? ['failed', 'fail', failed.map((f) => f.detail).join('; ')]
      : e.skipped !== undefined
        ? ['unverified', 'skipped', e.skipped]
        : ['verified', 'pass', e.provenance === 'synthetic_anchor' ? ANCHOR_NOTE : undefined];
  // Literals, not spreads: a log may hold a hundred thousand rows, and a spread costs microseconds.
  return detail === undefined
    ? { capability_id: e.capabilityId, provenance: e.provenance, verdict, checks: { lineage }, problems, file: e.file, line: e.line }
    : {
        capability_id: e.capabilityId,
        provenance: e.provenance,
        verdict,
        checks: { lineage },
        details: { lineage: detail },
        problems,
        file: e.file,
        line: e.line,
      };
}

function compareProblems(a: Problem, b: Problem): number {
  const fa = a.file ?? '\uffff';
  const fb = b.file ?? '\uffff';
  if (fa !== fb) return fa < fb ? -1 : 1;
  const la = a.line ?? 0;
  const lb = b.line ?? 0;
  if (la !== lb) return la - lb;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
