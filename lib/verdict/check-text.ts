// What a check result says (contract §1.2, §5, part 2 §5): the closed list of
// reasons a check fails, is skipped or passes with a note, each a code, and the
// one table that words them. A result's `detail` is always its code's text
// (check.ts renders it), so the report and the command line carry the same
// strings as before codes existed, while every decision compares codes. Where
// the contract names a reason (`uncheckpointed`, `no key pinned`,
// `predecessor_not_supplied`, …) its text is that name, as the report writes it.
// Arguments are the specifics (seqs, hashes, file:line, values as shown);
// attacker-controlled text reaches a message only as an argument.

/** Who signed what a `signature` result is about: a receipt, or the checkpoint with this seq. */
export interface Signed {
  checkpointSeq?: bigint;
}

const at = (s: Signed) => (s.checkpointSeq === undefined ? '' : `checkpoint ${s.checkpointSeq}: `);
/** A code of another module (a crypto reason, say) in words. */
const words = (code: string) => code.replace(/_/g, ' ');

/** The strict Ed25519 rules a signature or key can break (lib/crypto), in words. */
export const STRICT_ED25519: Record<string, string> = {
  noncanonical_key: 'the kernel key is not a canonical Ed25519 point encoding',
  noncanonical_r: 'R is not a canonical Ed25519 point encoding',
  s_not_reduced: 'S is not reduced modulo the group order (a malleable signature)',
  small_order_r: 'R is a small-order point',
  small_order_key: 'the kernel key is a small-order point',
  key_not_in_prime_subgroup: 'the kernel key is not in the prime-order subgroup',
  r_not_in_prime_subgroup: 'R is not in the prime-order subgroup',
};

export const LEAF_KERNEL = 'leaf: full receipt (kernel convention)';
export const LEAF_ANCHOR = 'leaf: receipt body without signature (anchor convention)';

/** Chio's receipt and checkpoint checks. A string is the whole text; a function words its arguments. */
const CHIO_CHECK_TEXT = {
  // `signature` (§4): receipts and checkpoints alike.
  algorithm_mismatch: (declared: string, actual: string) => `algorithm says ${declared}, but the signature is ${actual}`,
  legacy_canonicalization: 'legacy canonicalization',
  /** The signature could not be checked on this engine: the crypto layer's reason as it gives it. */
  signature_not_checked: (reason: string) => reason,
  signature_mismatch: (s: Signed) =>
    `${at(s)}the signature does not match the signed fields: the ${s.checkpointSeq === undefined ? 'receipt' : 'checkpoint'} was changed after signing, or signed by another key`,
  signature_not_strict: (s: Signed, rule: string) => `${at(s)}the signature is rejected by the strict Ed25519 rules: ${STRICT_ED25519[rule]}`,
  kernel_key_malformed: (s: Signed, detail?: string) => `${at(s)}kernel_key is not a valid public key (${words(detail ?? 'malformed')})`,
  signature_malformed: (s: Signed, detail?: string) => `${at(s)}signature is not a valid signature encoding (${words(detail ?? 'malformed')})`,
  key_signature_algorithm_mismatch: (s: Signed) => `${at(s)}the kernel key and the signature are of different algorithms`,
  signature_unusable: (s: Signed, reason: string, detail?: string) =>
    `${at(s)}the signature cannot be checked: ${words(reason)}${detail ? ` (${words(detail)})` : ''}`,
  // `parameter_hash`, `receipt_id`, `semantics` (§3, §5).
  parameter_hash_mismatch: (stated: string, actual: string) => `action.parameter_hash is ${stated}, but the parameters hash to ${actual}`,
  not_gen_b: 'not a Gen B receipt',
  receipt_id_mismatch: (actual: string, id: string) => `the content hashes to ${actual}, not to the id ${id}`,
  boundary_cannot_see: 'boundary_class cannot_see is never valid in a signed receipt',
  semantics_invalid: (rules: readonly string[]) => rules.join('; '),
  // `inclusion` (§5, part 2 §5.2, §12).
  uncheckpointed: 'uncheckpointed',
  leaf_kernel: LEAF_KERNEL,
  leaf_anchor: LEAF_ANCHOR,
  batch_root_recomputed: (note?: string) => `batch root recomputed from the stored receipts (${LEAF_KERNEL}${note ? `; ${note}` : ''})`,
  remembered_checkpoint_missing: (seq: bigint, checkpointSeq: bigint, batchEndSeq: bigint) =>
    `seq ${seq} lies inside checkpoint ${checkpointSeq} (receipts up to seq ${batchEndSeq}), which this browser verified before, but this log brings no verified checkpoint that covers it`,
  proof_repeated: (seq: bigint) => `more than one inclusion proof for receipt seq ${seq}`,
  proof_checkpoint_absent: (checkpointSeq: bigint) => `its proof refers to checkpoint ${checkpointSeq}, which is not in the log`,
  proof_checkpoint_failed: (checkpointSeq: bigint) => `its proof refers to checkpoint ${checkpointSeq}, which failed verification`,
  seq_repeated: (seq: bigint, copies: number) => `receipt seq ${seq} appears ${copies} times in the log`,
  checkpoint_missing: (seq: bigint) => `no checkpoint covers seq ${seq}, although later receipts are checkpointed (a checkpoint is missing)`,
  covering_checkpoint_failed: (checkpointSeq: bigint) => `checkpoint ${checkpointSeq}, which covers it, failed verification`,
  signer_differs: (receiptKey: string | null, checkpointSeq: bigint, checkpointKey: string) =>
    `receipt signer differs from checkpoint signer: receipt ${receiptKey ?? '(no valid key)'}, checkpoint ${checkpointSeq} ${checkpointKey}`,
  checkpoint_root_unusable: (checkpointSeq: bigint) => `checkpoint ${checkpointSeq} has no usable root`,
  batch_not_enumerable: (checkpointSeq: bigint) =>
    `the receipts of checkpoint ${checkpointSeq}'s batch are not all in the log, so its root cannot be recomputed`,
  batch_receipts_missing: (missing: number, checkpointSeq: bigint) =>
    `${missing} receipt(s) of checkpoint ${checkpointSeq}'s batch are missing, so its root cannot be recomputed`,
  batch_root_mismatch: (checkpointSeq: bigint) =>
    `the root recomputed from the stored receipts of checkpoint ${checkpointSeq}'s batch differs from the signed root: a stored receipt differs from what was checkpointed`,
  receipt_replayed: (id: string, copies: number, others: readonly string[], displaced: boolean) =>
    `receipt ${id} appears ${copies} times in this log (also at ${others.join(', ')}); ${displaced ? 'its proof places it at another position than its seq' : 'no checkpoint places this copy'}, and a copy of a receipt is not a new entry`,
  /** `proofAt`: the proof's `file:line`. */
  proof_root_other: (proofAt: string, checkpointSeq: bigint) => `proof at ${proofAt} names a root other than checkpoint ${checkpointSeq}'s`,
  proof_leaf_indexes_differ: (proofAt: string) => `proof at ${proofAt} gives two different leaf indexes`,
  proof_leaf_outside_tree: (proofAt: string, leafIndex: bigint, treeSize: bigint) =>
    `proof at ${proofAt} has leaf_index ${leafIndex} outside a tree of ${treeSize}`,
  seq_outside_batch: (seq: bigint, checkpointSeq: bigint, start: bigint, end: bigint) =>
    `receipt seq ${seq} is outside checkpoint ${checkpointSeq}'s batch ${start}–${end}`,
  proof_path_malformed: (proofAt: string) => `proof at ${proofAt} has an audit path entry that is not 32 bytes of hex`,
  proof_tree_impossible: (proofAt: string) => `proof at ${proofAt} has an impossible tree size`,
  proof_leaf_unreached: (checkpointSeq: bigint, proofAt: string) =>
    `its leaf does not reach checkpoint ${checkpointSeq}'s root through the proof at ${proofAt}: the receipt as stored is not the one that was checkpointed`,
  // `signer_trusted` (§5, part 2 §11).
  no_key_pinned: 'no key pinned',
  signer_key_invalid: 'the signing key is not a valid public key',
  signer_not_pinned: 'the signing key is not pinned',
  /** A pass under a pinned key: the label it was pinned with. */
  signer_pinned: (label: string) => label,
  signer_outside_window: (atUnix: bigint) => `the signing key is pinned, but not for time ${atUnix} (outside its validity window)`,
  // `content_hash` and `delivery` (part 2 §5.4); `shown` values are as envelope-intake's `show` prints them.
  redacted_profile: 'redacted_profile',
  stream_output: 'stream_output',
  no_output: 'no_output',
  content_hash_mismatch: (bridge: boolean, got: string, signedShown: string) =>
    `sha256 of the canonical JSON of ${bridge ? "the bridge outcome's result" : '_meta.chioEvidence.output'} is ${got}, but the signed content_hash is ${signedShown}: this is not the output the kernel signed for`,
  no_delivery: 'no_delivery',
  approval_members_unknown: 'approval_members_unknown',
  delivery_not_object: (shown: string) => `the delivery acknowledgement is ${shown}, not an object`,
  delivery_unbound: (bindings: readonly string[]) => `the delivery acknowledgement does not bind this receipt: ${bindings.join('; ')}`,
  // Checkpoint `structure`, `continuity`, `chain` (§5, part 2 §5.1).
  structure_invalid: (errors: readonly string[]) => errors.join('; '),
  duplicate_checkpoint: (fileLine: string) => `duplicate of the checkpoint at ${fileLine}`,
  equivocation: 'another signed checkpoint claims the same place in the log (equivocation)',
  checkpoint_seq_zero: 'checkpoint_seq 0 has no place in the log (see structure)',
  genesis_names_predecessor: 'checkpoint 1 names a predecessor (previous_checkpoint_sha256), but nothing comes before it',
  genesis_start: (batchStartSeq: bigint) => `checkpoint 1 must start the log at entry 1, not at ${batchStartSeq}`,
  predecessor_digest_missing: 'previous_checkpoint_sha256 is missing, so nothing ties it to the checkpoint before it',
  /** The successor rule lib/chio/checkpoint.ts `continuityError` found broken, in its words. */
  continuity_broken: (error: string) => error,
  predecessor_other_body: (previousSeq: bigint, held: readonly string[]) =>
    `previous_checkpoint_sha256 names a body this log does not hold; the checkpoint ${previousSeq} it holds (${held.join(', ')}) has a different digest`,
  predecessor_not_supplied: 'predecessor_not_supplied',
  consistency_record_invalid: (recordAt: string, reason: string) => `the consistency record at ${recordAt} does not verify: ${reason}`,
  no_chain_commitment: 'no_chain_commitment',
  chain_recomputed: (checkpointSeq: bigint) => `chain_root recomputed from checkpoints 1–${checkpointSeq}`,
  chain_root_mismatch: (checkpointSeq: bigint) => `chain_root does not recompute from the chain leaves of checkpoints 1–${checkpointSeq}`,
  chain_prefix_incomplete: 'chain_prefix_incomplete',
  // Package `read_boundary` and `scope` (part 2 §5.3).
  no_query: 'the package states no query',
  query_unreadable: 'the package query cannot be read (see scope)',
  read_boundary_absent: 'query.readBoundary is absent',
  read_boundary_malformed: (file: string, rule: string) => `${file} query has no well-formed readBoundary: ${rule}`,
  /** `tenant`: the tenant as JSON, clipped; null for `admin_all`. */
  read_boundary_stated: (tenant: string | null, hasNotice: boolean) =>
    `${tenant === null ? 'admin_all' : `tenant_scoped, tenant ${tenant}`}, ${hasNotice ? 'with a disclosure notice' : 'no disclosure notice'}`,
  scope_query_unreadable: (error: string) => `the package query cannot be read (${error}), so its receipts cannot be held to it`,
  scope_violated: (findings: readonly string[]) => findings.join('; '),
  agent_subject_unchecked: (receipts: number) =>
    `query.agentSubject cannot be checked: it needs the verified capability lineage of ${receipts} tool receipts, which is not available`,
  scope_held: (tool: number, child: number, query: string, childReceiptScope: string | undefined) =>
    `${tool} tool and ${child} child receipts within the query (${query}); ${childReceiptScope !== undefined ? `childReceiptScope ${childReceiptScope} as the query implies` : 'no childReceiptScope stated'}`,
} satisfies Record<string, string | ((...args: never[]) => string)>;

/** Other runtimes' checks (lib/dialects; other-dialects.md). */
const DIALECT_CHECK_TEXT = {
  // ZeroClaw: `parse`, `signature` (its HMAC tag), `claims`.
  zc_not_a_receipt: (reason: string) => `not a ZeroClaw receipt: ${reason}`,
  key_ephemeral: 'key not available (ephemeral)',
  zc_call_not_in_log:
    "the log does not hold this call's tool name, arguments and output, which the tag covers: load the tool-call records or the transcript with its tool calls",
  zc_tag_forged: (toolName: string, timestamp: bigint, recordAt: string, tag: string) =>
    `HMAC-SHA256 over ${toolName}|args|result|${timestamp} from the record at ${recordAt}, with the key supplied, gives ${tag}, not the receipt's tag: the call record (tool, arguments, output or time) was changed, the receipt was forged, or the key is not this receipt scope's`,
  zc_tag_recomputed: (toolName: string, timestamp: bigint, at: string) =>
    `HMAC-SHA256 over ${toolName}|args|result|${timestamp} recomputes with the key supplied (from ${at})`,
  zc_args_unserializable: (reason: string) => `the arguments cannot be serialized as ZeroClaw does: ${reason}`,
  zc_transcript_differs: (at: string) =>
    `the tag does not recompute from the transcript at ${at}, which holds the output as the model saw it (ZeroClaw may have cut or rewritten it), not the raw output the tag covers; with the tool-call record it can be decided`,
  /** `claims`: each quote's outcome in lib/dialects/zeroclaw/claims.ts's words. */
  claims_failed: (outcomes: readonly string[]) => outcomes.join('; '),
  claims_unchecked: (outcome: string) => outcome,
  claims_matched: (quotes: number) => `quoted ${quotes} time(s), each quote matching a tool result that carries it`,
  // CodeWhale: unsigned; review receipts' and turn receipts' own checks.
  unsigned: 'unsigned: integrity, not authenticity',
  review_schema_v1: 'schema_version 1',
  review_schema_unsupported: (version: bigint) => `unsupported review receipt schema version ${version}`,
  no_diff: 'no diff supplied: the receipt cannot be tied to any code without the diff it was written for',
  diff_matches: (diffName: string, fingerprint: string) => `${diffName} gives ${fingerprint}`,
  diff_differs: (receiptFingerprint: string, diffName: string, fingerprint: string) =>
    `the receipt is for ${receiptFingerprint}; ${diffName} gives ${fingerprint} (a different diff, or the same one cut at another --max-chars)`,
  /** The receipt's own summary of the risk it leaves. */
  risk_unresolved: (summary: string) => summary,
  risk_resolved: (level: string) => `no unresolved risk (level ${level})`,
  attached_check_failed: (name: string, status: string) => `review receipt check '${name}' did not pass: ${status}`,
  no_attached_checks: 'no attached checks',
  attached_checks_passed: (count: number) => `${count} attached check(s) passed`,
  review_gate_failed: (status: string, reason: string, diffChecked: boolean) =>
    `${status}: ${reason}${diffChecked ? '' : ' (checked without the diff, which CodeWhale compares first)'}`,
  review_gate_valid: (reason: string) => `valid: ${reason}`,
  review_gate_needs_diff: "CodeWhale's --check-receipt compares the current diff first: supply the diff to run it",
  /** A turn receipt's consistency rule (lib/dialects/codewhale/turn.ts), in its words. */
  turn_rule_failed: (detail: string) => detail,
  turn_rule_warning: (detail: string) => `warning: ${detail}`,
  turn_rule_passed: (detail: string) => detail,
} satisfies Record<string, string | ((...args: never[]) => string)>;

/** The one code → text table. */
export const CHECK_TEXT = { ...CHIO_CHECK_TEXT, ...DIALECT_CHECK_TEXT };

/** Every reason a check result can give: the closed list. */
export type CheckCode = keyof typeof CHECK_TEXT;
export const CHECK_CODES = Object.keys(CHECK_TEXT) as CheckCode[];

/** The specifics a code's text takes (none for a fixed text). */
export type CheckArgs<C extends CheckCode> = (typeof CHECK_TEXT)[C] extends (...args: infer A) => string ? A : [];

/** The text of `code` with its specifics. */
export function checkText<C extends CheckCode>(code: C, ...args: CheckArgs<C>): string {
  const t = CHECK_TEXT[code] as string | ((...a: readonly unknown[]) => string);
  return typeof t === 'string' ? t : t(...args);
}

/** Fixed texts back to their codes: each is one code's alone (check-text.test.ts). */
const FIXED = new Map<string, CheckCode>(CHECK_CODES.flatMap((c) => (typeof CHECK_TEXT[c] === 'string' ? [[CHECK_TEXT[c] as string, c]] : [])));

/**
 * The code of a result as a report row carries it (`details[check]`): the report holds texts, and
 * the reasons it names (`uncheckpointed`, `no key pinned`, …) are fixed texts, so they read back
 * to their one code. Undefined for no detail or a text with specifics.
 */
export function checkCodeOf(detail: string | undefined): CheckCode | undefined {
  return detail === undefined ? undefined : FIXED.get(detail);
}

/** How the page says the contract's terse reasons to people (their report text is a bare name). */
export const REASON_WORDS: Partial<Record<CheckCode, string>> = {
  uncheckpointed: 'no checkpoint covers it yet',
  no_key_pinned: 'no kernel key is pinned, so who signed is not checked',
  predecessor_not_supplied: 'the checkpoint before it is not in the log',
  chain_prefix_incomplete: 'earlier checkpoints are not in the log, so the chain root cannot be recomputed',
  no_chain_commitment: 'the checkpoint carries no chain_root (built detached from the chain)',
  no_output: 'the envelope carries no tool output to hash',
  stream_output: 'the output was streamed; its chunks are not in the envelope',
  redacted_profile: 'a delivery-mismatch denial commits to a redacted digest, not to an output',
  approval_members_unknown: 'a governed call: its request hash covers approval members the envelope does not carry',
  no_delivery: 'the envelope carries no delivery acknowledgement',
};

/** A report row's detail as the page words it: a terse reason in words, any other text as it is. */
export function reasonWords(detail: string): string {
  const code = checkCodeOf(detail);
  return (code !== undefined ? REASON_WORDS[code] : undefined) ?? detail;
}
