// Builds the report of contract §8 from the assembled log, shared by the command
// line and the browser: verdicts (§6), checks in report order (checks that do
// not apply to a record are left out), problems, keys. The report's types and
// the verdict rule it applies are lib/verdict/report.ts.
import { CHECKPOINT_CHECK_ORDER, type CheckStatus, RECEIPT_CHECK_ORDER, checksAndDetails } from '../verdict/check';
import { type Problem, isDroppedRecord, makeProblem } from '../verdict/problems';
import {
  type FinanceReport,
  PACKAGE_CHECK_ORDER,
  type PackageReport,
  type ReportCheckpoint,
  type ReportLineage,
  type ReportReceipt,
  type Verdict,
  type VerificationReport,
  judgeReceipt,
} from '../verdict/report';
import type { CheckpointEntry, LineageEntry, ReceiptEntry } from './entries';
import { ANCHOR_NOTE, LINEAGE_RULE_ORDER } from './lineage';

/** A receipt's verdict from its entry's checks (lib/verdict/report.ts judgeReceipt). */
export function receiptVerdict(r: ReceiptEntry): Verdict {
  return judgeReceipt(r.type, r.generation, Object.keys(r.checks), (name) => r.checks[name]).verdict;
}

/** A checkpoint vouches for its batch only when signed, well-formed, continuous and (if pinned) trusted. */
export function checkpointVerdict(c: CheckpointEntry): 'verified' | 'failed' {
  if (Object.values(c.checks).some((r) => r?.status === 'fail')) return 'failed';
  if (c.checks.signature?.status !== 'pass' || c.checks.structure?.status !== 'pass') return 'failed';
  return 'verified';
}

export interface ReportInput {
  receipts: ReceiptEntry[];
  /** Other runtimes' receipts, already judged by their families (lib/verify/family-audit.ts), each at its place in log order. */
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
