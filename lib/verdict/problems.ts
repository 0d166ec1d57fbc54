// Problem codes of the contract (verification.md §7): a closed list with fixed
// severities (one exception, `duplicate_receipt_id`: see LESSER_SEVERITY). User-facing
// text is a code → message table plus a specific detail.

export const PROBLEM_SEVERITY = {
  parse_error: 'error',
  duplicate_key: 'error',
  signature_invalid: 'error',
  receipt_id_mismatch: 'error',
  semantics_invalid: 'error',
  parameter_hash_mismatch: 'error',
  algorithm_mismatch: 'error',
  untrusted_signer: 'error',
  inclusion_failed: 'error',
  missing_receipt: 'error',
  checkpoint_signature_invalid: 'error',
  checkpoint_structure_invalid: 'error',
  checkpoint_continuity_broken: 'error',
  checkpoint_equivocation: 'error',
  manifest_mismatch: 'error',
  unsigned_field: 'warning',
  legacy_canonicalization: 'warning',
  reconciliation_break: 'warning',
  // Contract part 2 (verification-v2.md §7): checkpoint v2, signed lineage, envelopes, packages.
  checkpoint_chain_invalid: 'error',
  checkpoint_prefix_incomplete: 'warning',
  transparency_record_mismatch: 'error',
  lineage_signature_invalid: 'error',
  lineage_downgraded: 'error',
  lineage_mismatch: 'error',
  lineage_missing: 'warning',
  attribution_mismatch: 'warning',
  content_hash_mismatch: 'error',
  delivery_mismatch: 'error',
  envelope_invalid: 'error',
  read_boundary_missing: 'warning',
  query_scope_violation: 'error',
  inclusion_position_mismatch: 'warning',
  // Part 2 §11: an error, or a warning under the CLI's --allow-unpinned (lib/verify/report.ts).
  signer_not_pinned: 'error',
  fabricated_tool_call: 'error',
  review_gate_failed: 'error',
  turn_receipt_inconsistent: 'error',
  // This project's addition (issue 20): one receipt id, several receipts (duplicate-ids.ts).
  duplicate_receipt_id: 'error',
} as const;

export type ProblemCode = keyof typeof PROBLEM_SEVERITY;
/** The codes of the `lineage` check's rules (part 2 §5.3.1; lib/verify/lineage.ts). */
export type LineageCode = Extract<ProblemCode, 'lineage_downgraded' | 'lineage_signature_invalid' | 'lineage_mismatch'>;
export type Severity = 'error' | 'warning';

export const PROBLEM_CODES = Object.keys(PROBLEM_SEVERITY) as ProblemCode[];
/**
 * The one code whose severity depends on the case; PROBLEM_SEVERITY gives its highest.
 * `duplicate_receipt_id` is an error when the copies of the id differ (different signed bytes: at
 * most one of them is the receipt the id names) and a warning when they are byte-identical (the
 * same receipt loaded twice, say from the server and from a download of its package).
 */
export const LESSER_SEVERITY: Partial<Record<ProblemCode, Severity>> = { duplicate_receipt_id: 'warning' };
/** Raised only for other runtimes' receipts (lib/dialects: zeroclaw/audit.ts, codewhale/audit.ts): claims, review gates, turn receipts. */
export const DIALECT_PROBLEM_CODES: readonly ProblemCode[] = ['fabricated_tool_call', 'review_gate_failed', 'turn_receipt_inconsistent'];
/** The codes Chio logs can raise. */
export const CHIO_PROBLEM_CODES: readonly ProblemCode[] = PROBLEM_CODES.filter((c) => !DIALECT_PROBLEM_CODES.includes(c));
/**
 * Raised only for receipts read out of an envelope (a bridge outcome, an MCP result, a host
 * transcript), which an evidence package never holds: their own adversarial suite requires each
 * (lib/verify/envelope-adversarial.test.ts).
 */
export const ENVELOPE_PROBLEM_CODES: readonly ProblemCode[] = ['content_hash_mismatch', 'delivery_mismatch', 'envelope_invalid'];
/**
 * Raised by how a log is checked, not by what was done to it: `signer_not_pinned` when no key is
 * pinned (part 2 §11). The adversary pins the kernel's key, so no variant raises it; its test is
 * lib/verify/problem-codes.test.ts.
 */
export const TRUST_PROBLEM_CODES: readonly ProblemCode[] = ['signer_not_pinned'];
/** The codes a tampered evidence package can raise: the package adversary (test/support/adversary.ts) must require each. */
export const PACKAGE_PROBLEM_CODES: readonly ProblemCode[] = CHIO_PROBLEM_CODES.filter(
  (c) => !ENVELOPE_PROBLEM_CODES.includes(c) && !TRUST_PROBLEM_CODES.includes(c),
);

/** A short plain-English headline per code; the problem's message adds the specifics. */
export const PROBLEM_TITLE: Record<ProblemCode, string> = {
  parse_error: 'Record cannot be read',
  duplicate_key: 'Record repeats a key',
  signature_invalid: 'Receipt signature does not verify',
  receipt_id_mismatch: 'Receipt id does not match its content',
  semantics_invalid: 'Receipt kind, boundary and decision do not fit together',
  parameter_hash_mismatch: 'Parameter hash does not match the parameters',
  algorithm_mismatch: 'Algorithm field disagrees with the signature',
  untrusted_signer: 'Signed by a key that is not trusted',
  inclusion_failed: 'Receipt is not in the signed checkpoint',
  missing_receipt: 'A checkpoint or proof points at a receipt that is not in the log',
  checkpoint_signature_invalid: 'Checkpoint signature does not verify',
  checkpoint_structure_invalid: 'Checkpoint breaks a structure rule',
  checkpoint_continuity_broken: 'Checkpoint does not follow its predecessor',
  checkpoint_equivocation: 'Two different checkpoints claim the same place in the log',
  manifest_mismatch: 'Package file does not match its manifest',
  unsigned_field: 'Receipt carries fields that are not signed',
  legacy_canonicalization: 'Signature matched only under the old escaping rule',
  reconciliation_break: 'Budget does not reconcile',
  checkpoint_chain_invalid: 'Checkpoint chain root does not recompute',
  checkpoint_prefix_incomplete: 'Earlier checkpoints are not in the log, so the chain could not be checked',
  transparency_record_mismatch: 'Transparency record differs from the signed checkpoints',
  lineage_signature_invalid: 'Capability token signature does not verify',
  lineage_downgraded: 'Capability lineage without its signed token',
  lineage_mismatch: 'Capability lineage differs from its signed token',
  lineage_missing: 'Receipt capability has no lineage row',
  attribution_mismatch: 'Receipt attribution differs from its capability lineage',
  content_hash_mismatch: 'Tool output does not match the receipt content hash',
  delivery_mismatch: 'Delivery acknowledgement does not bind this receipt',
  envelope_invalid: 'Envelope contradicts the receipt it carries',
  read_boundary_missing: 'Package query has no read boundary',
  query_scope_violation: 'Receipt lies outside the package query',
  inclusion_position_mismatch: 'Proof position differs from the checkpoint batch',
  signer_not_pinned: 'No kernel key is pinned: intact, but who signed is not checked',
  fabricated_tool_call: 'A reply claims a tool call no tool result backs',
  review_gate_failed: 'CodeWhale review receipt would not let the push through',
  turn_receipt_inconsistent: 'CodeWhale turn receipt contradicts itself',
  duplicate_receipt_id: 'One receipt id names more than one receipt',
};

export interface Problem {
  code: ProblemCode;
  severity: Severity;
  message: string;
  receipt_id?: string;
  checkpoint_seq?: number | bigint;
  file?: string;
  line?: number;
}

/**
 * A problem that means a record was left out of the log: it could not be read (`parse_error`, or
 * `duplicate_key`, which makes a record ambiguous) and names no receipt or checkpoint it belongs
 * to. Such a record is in no count of receipts, so every headline must say it is missing.
 */
export function isDroppedRecord(p: Problem): boolean {
  return (p.code === 'parse_error' || p.code === 'duplicate_key') && p.severity === 'error' && p.receipt_id === undefined && p.checkpoint_seq === undefined;
}

export interface ProblemLocation {
  receipt_id?: string;
  checkpoint_seq?: number | bigint;
  file?: string;
  line?: number;
}

/**
 * The longest message a problem keeps. Messages quote what they are about (keys, ids, paths), and
 * a hostile record can make those megabytes long: a hundred kept problems of a file must not be.
 */
export const MAX_PROBLEM_MESSAGE = 4096;

/** `message` cut to MAX_PROBLEM_MESSAGE characters (never inside a surrogate pair), saying by how much. */
export function clipMessage(message: string, max = MAX_PROBLEM_MESSAGE): string {
  if (message.length <= max) return message;
  let end = max - 40;
  const c = message.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${message.slice(0, end)}… (${message.length - end} more characters)`;
}

/** `lesser`: the code's LESSER_SEVERITY applies (only codes that have one). */
export function makeProblem(code: ProblemCode, message: string, where: ProblemLocation = {}, lesser = false): Problem {
  const p: Problem = { code, severity: (lesser ? LESSER_SEVERITY[code] : undefined) ?? PROBLEM_SEVERITY[code], message: clipMessage(message) };
  if (where.receipt_id !== undefined) p.receipt_id = where.receipt_id;
  if (where.checkpoint_seq !== undefined) p.checkpoint_seq = where.checkpoint_seq;
  if (where.file !== undefined) p.file = where.file;
  if (where.line !== undefined) p.line = where.line;
  return p;
}
