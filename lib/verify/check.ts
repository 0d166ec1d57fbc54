// Per-check results (contract §1.2, §5): each check keeps its own status;
// `skipped` always carries the reason it could not run.

export type CheckStatus = 'pass' | 'fail' | 'skipped';

export interface CheckResult {
  status: CheckStatus;
  /** Why it failed or was skipped; for some passes, how (e.g. which leaf convention matched). */
  detail?: string;
}

const PASS: CheckResult = Object.freeze({ status: 'pass' });
/** A pass; without a detail it is one shared frozen object (a log holds millions of them). */
export const pass = (detail?: string): CheckResult => (detail === undefined ? PASS : { status: 'pass', detail });
export const fail = (detail: string): CheckResult => ({ status: 'fail', detail });
export const skipped = (detail: string): CheckResult => ({ status: 'skipped', detail });
/** Equal results have equal keys (for sharing one object among them). */
export const resultKey = (c: CheckResult): string => (c.detail === undefined ? c.status : `${c.status}:${c.detail}`);

export type ReceiptCheckName =
  | 'parse'
  | 'signature'
  | 'receipt_id'
  | 'semantics'
  | 'parameter_hash'
  | 'inclusion'
  | 'signer_trusted';

export type CheckpointCheckName = 'signature' | 'structure' | 'continuity' | 'signer_trusted';

/** Report order of receipt checks. */
export const RECEIPT_CHECK_ORDER: ReceiptCheckName[] = [
  'parse', 'signature', 'receipt_id', 'semantics', 'parameter_hash', 'inclusion', 'signer_trusted',
];
/**
 * Checks of other runtimes' receipts (lib/dialects/audit.ts), reported after `parse` and
 * `signature` in this order. ZeroClaw: `claims`. CodeWhale review receipts: `schema`,
 * `diff_fingerprint`, `unresolved_risk`, `checks_run`, `review_gate`. CodeWhale turn receipts:
 * `schema` and the draft's consistency rules.
 */
export const DIALECT_CHECK_ORDER = [
  'claims', 'schema', 'diff_fingerprint', 'unresolved_risk', 'checks_run', 'review_gate',
  'reasoning_custody', 'tool_lineage', 'event_sequence', 'approvals', 'duration', 'claim_ceiling',
] as const;
/** Every receipt check, Chio's then the dialects', in report order. */
export const ALL_RECEIPT_CHECKS: readonly string[] = [...RECEIPT_CHECK_ORDER, ...DIALECT_CHECK_ORDER];
export const CHECKPOINT_CHECK_ORDER: CheckpointCheckName[] = ['signature', 'structure', 'continuity', 'signer_trusted'];

/** Reasons a skipped `inclusion` still allows a `verified` verdict (contract §6). */
export const UNCHECKPOINTED = 'uncheckpointed';
