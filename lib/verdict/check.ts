// Per-check results (contract §1.2, §5): each check keeps its own status;
// `skipped` always carries the reason it could not run. A reason is a code of
// the closed list in check-text.ts, and `detail` is that code's text: decisions
// compare codes, the report and the command line print the text.
import { type CheckArgs, type CheckCode, checkText } from './check-text';

export type CheckStatus = 'pass' | 'fail' | 'skipped';

export interface CheckResult {
  status: CheckStatus;
  /** Why it failed or was skipped; for some passes, how (e.g. which leaf convention matched). */
  code?: CheckCode;
  /** `code`'s text (check-text.ts), present exactly when `code` is. */
  detail?: string;
}

const PASS: CheckResult = Object.freeze({ status: 'pass' });
const result = (status: CheckStatus, code: CheckCode, args: readonly unknown[]): CheckResult => ({
  status,
  code,
  detail: (checkText as (c: CheckCode, ...a: readonly unknown[]) => string)(code, ...args),
});

/** A pass; without a code it is one shared frozen object (a log holds millions of them). */
export function pass(): CheckResult;
export function pass<C extends CheckCode>(code: C, ...args: CheckArgs<C>): CheckResult;
export function pass(code?: CheckCode, ...args: unknown[]): CheckResult {
  return code === undefined ? PASS : result('pass', code, args);
}
export const fail = <C extends CheckCode>(code: C, ...args: CheckArgs<C>): CheckResult => result('fail', code, args);
export const skipped = <C extends CheckCode>(code: C, ...args: CheckArgs<C>): CheckResult => result('skipped', code, args);
/** Equal results have equal keys (for sharing one object among them). */
export const resultKey = (c: CheckResult): string => (c.code === undefined ? c.status : `${c.status}:${c.code}:${c.detail}`);

export type ReceiptCheckName =
  | 'parse'
  | 'signature'
  | 'receipt_id'
  | 'semantics'
  | 'parameter_hash'
  /** Envelope receipts only (contract part 2 §5.4): the carried output and the delivery acknowledgement. */
  | 'content_hash'
  | 'delivery'
  | 'inclusion'
  | 'signer_trusted';

/** `chain` applies to `chio.checkpoint_statement.v2` only (contract part 2 §5.1). */
export type CheckpointCheckName = 'signature' | 'structure' | 'continuity' | 'chain' | 'signer_trusted';

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

/** Report order of receipt checks. */
export const RECEIPT_CHECK_ORDER: ReceiptCheckName[] = [
  'parse',
  'signature',
  'receipt_id',
  'semantics',
  'parameter_hash',
  'content_hash',
  'delivery',
  'inclusion',
  'signer_trusted',
];
/**
 * Checks of other runtimes' receipts (lib/dialects: zeroclaw/audit.ts, codewhale/audit.ts), reported after `parse` and
 * `signature` in this order. ZeroClaw: `claims`. CodeWhale review receipts: `schema`,
 * `diff_fingerprint`, `unresolved_risk`, `checks_run`, `review_gate`. CodeWhale turn receipts:
 * `schema` and the draft's consistency rules.
 */
export const DIALECT_CHECK_ORDER = [
  'claims',
  'schema',
  'diff_fingerprint',
  'unresolved_risk',
  'checks_run',
  'review_gate',
  'reasoning_custody',
  'tool_lineage',
  'event_sequence',
  'approvals',
  'duration',
  'claim_ceiling',
] as const;
/** Every receipt check, Chio's then the dialects', in report order. */
export const ALL_RECEIPT_CHECKS: readonly string[] = [...RECEIPT_CHECK_ORDER, ...DIALECT_CHECK_ORDER];
export const CHECKPOINT_CHECK_ORDER: CheckpointCheckName[] = ['signature', 'structure', 'continuity', 'chain', 'signer_trusted'];

/** `content_hash`/`delivery` skipped because the envelope carried nothing to check (part 2 §6). */
const FOR_WANT_OF_OUTPUT: ReadonlySet<CheckCode> = new Set<CheckCode>([
  'no_output',
  'stream_output',
  'redacted_profile',
  'no_delivery',
  'approval_members_unknown',
]);

/**
 * A skip that leaves a receipt's verdict as it is (contract §6, part 2 §6): `inclusion` for the
 * uncheckpointed tail, `content_hash` and `delivery` for want of an output or acknowledgement.
 * Any other skip is something left unchecked.
 */
export function isExpectedSkip(check: string, code: CheckCode | undefined): boolean {
  if (code === undefined) return false;
  if (check === 'inclusion') return code === 'uncheckpointed';
  return (check === 'content_hash' || check === 'delivery') && FOR_WANT_OF_OUTPUT.has(code);
}
