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
 * Checks of other runtimes' receipts (lib/dialects/audit.ts), reported after `parse` and
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

/** Reasons a skipped `inclusion` still allows a `verified` verdict (contract §6). */
export const UNCHECKPOINTED = 'uncheckpointed';
/**
 * `signer_trusted` with no key pinned (contract part 2 §11, its own words): the signature shows
 * the receipt is intact, not who signed it, so the receipt is `unverified`.
 */
export const NO_KEY_PINNED = 'no key pinned';

/**
 * Skip reasons of contract part 2 (§5.1, §5.4), each a check's whole `detail`, so readers
 * compare codes, never prose. `SKIP_REASON_TEXT` says each in words for people.
 */
export const SKIP_REASON = {
  /** `continuity`: the checkpoint its `previous_checkpoint_sha256` names is not in the log. */
  predecessorNotSupplied: 'predecessor_not_supplied',
  /** `chain`: some checkpoint of 1…seq is absent (or ambiguous) and no consistency record anchors it. */
  chainPrefixIncomplete: 'chain_prefix_incomplete',
  /** `chain`: a v2 checkpoint after seq 1 that carries no `chain_root` (built detached). */
  noChainCommitment: 'no_chain_commitment',
  /** `content_hash`: the envelope carries no output to hash (`outputKind` none, a bare receipt). */
  noOutput: 'no_output',
  /** `content_hash`: a streamed output needs its ordered chunks, which the envelope does not carry. */
  streamOutput: 'stream_output',
  /** `content_hash`: a denial under the redacted delivery-mismatch profile hashes no output. */
  redactedProfile: 'redacted_profile',
  /** `delivery`: the envelope carries no delivery acknowledgement (only `completed` outcomes do). */
  noDelivery: 'no_delivery',
  /**
   * `delivery`: every binding holds but `requestHash`, and the call was governed, so its request
   * carried approval members the envelope does not hold (UNCONFIRMED which ones).
   */
  approvalMembersUnknown: 'approval_members_unknown',
} as const;

/** `content_hash`/`delivery` skipped because the envelope carried nothing to check (part 2 §6). */
const FOR_WANT_OF_OUTPUT: ReadonlySet<string> = new Set([
  SKIP_REASON.noOutput,
  SKIP_REASON.streamOutput,
  SKIP_REASON.redactedProfile,
  SKIP_REASON.noDelivery,
  SKIP_REASON.approvalMembersUnknown,
]);

/**
 * A skip that leaves a receipt's verdict as it is (contract §6, part 2 §6): `inclusion` for the
 * uncheckpointed tail, `content_hash` and `delivery` for want of an output or acknowledgement.
 * Any other skip is something left unchecked.
 */
export function isExpectedSkip(check: string, reason: string | undefined): boolean {
  if (reason === undefined) return false;
  if (check === 'inclusion') return reason === UNCHECKPOINTED;
  return (check === 'content_hash' || check === 'delivery') && FOR_WANT_OF_OUTPUT.has(reason);
}

export const SKIP_REASON_TEXT: Record<string, string> = {
  [UNCHECKPOINTED]: 'no checkpoint covers it yet',
  [NO_KEY_PINNED]: 'no kernel key is pinned, so who signed is not checked',
  predecessor_not_supplied: 'the checkpoint before it is not in the log',
  chain_prefix_incomplete: 'earlier checkpoints are not in the log, so the chain root cannot be recomputed',
  no_chain_commitment: 'the checkpoint carries no chain_root (built detached from the chain)',
  no_output: 'the envelope carries no tool output to hash',
  stream_output: 'the output was streamed; its chunks are not in the envelope',
  redacted_profile: 'a delivery-mismatch denial commits to a redacted digest, not to an output',
  approval_members_unknown: 'a governed call: its request hash covers approval members the envelope does not carry',
  no_delivery: 'the envelope carries no delivery acknowledgement',
};
