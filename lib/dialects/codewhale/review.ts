// CodeWhale review receipts (other-dialects.md §2.2–§2.3): the JSON a
// `codewhale review --write-receipt` leaves to gate a push, and the rules of
// `--check-receipt`, in CodeWhale's order. The receipt is unsigned (no MAC, no
// signature): anyone can edit it, so passing these rules is an integrity check
// against a diff, never evidence of who reviewed. Pure.
import { sha256Hex } from '../../crypto/sha256';
import type { JsonValue } from '../../json/value';
import { Shape, arr, bool, field, obj, str, strOrNull, uint, uintOrNull } from '../shape';

export interface ReviewReceipt {
  schemaVersion: bigint;
  mode: string;
  generatedAt: string;
  target: string;
  diffFingerprint: string;
  diffBytes: bigint;
  diffLines: bigint;
  provider: string;
  model: string;
  checksRun: { name: string; status: string }[];
  findings: {
    summary: string;
    issueCount: bigint;
    suggestionCount: bigint;
    highestSeverity: string;
    issues: { severity: string; title: string; path: string | null; line: bigint | null }[];
  };
  unresolvedRisk: { unresolved: boolean; level: string; summary: string };
  reviewContentSha256: string;
}

export type ReviewParse = { ok: true; receipt: ReviewReceipt } | { ok: false; reason: string; path: string };

/** Reads a review receipt as CodeWhale's serde does: every field required, unknown fields ignored. */
export function parseReviewReceipt(v: JsonValue): ReviewParse {
  try {
    const o = obj(v, '$');
    const f = obj(field(o, 'findings', '$'), '$.findings');
    const r = obj(field(o, 'unresolved_risk', '$'), '$.unresolved_risk');
    return {
      ok: true,
      receipt: {
        schemaVersion: uint(o, 'schema_version', '$'),
        mode: str(o, 'mode', '$'),
        generatedAt: str(o, 'generated_at', '$'),
        target: str(o, 'target', '$'),
        diffFingerprint: str(o, 'diff_fingerprint', '$'),
        diffBytes: uint(o, 'diff_bytes', '$'),
        diffLines: uint(o, 'diff_lines', '$'),
        provider: str(o, 'provider', '$'),
        model: str(o, 'model', '$'),
        checksRun: arr(field(o, 'checks_run', '$'), '$.checks_run').map((c, i) => {
          const p = `$.checks_run[${i}]`;
          const co = obj(c, p);
          return { name: str(co, 'name', p), status: str(co, 'status', p) };
        }),
        findings: {
          summary: str(f, 'summary', '$.findings'),
          issueCount: uint(f, 'issue_count', '$.findings'),
          suggestionCount: uint(f, 'suggestion_count', '$.findings'),
          highestSeverity: str(f, 'highest_severity', '$.findings'),
          issues: arr(field(f, 'issues', '$.findings'), '$.findings.issues').map((x, i) => {
            const p = `$.findings.issues[${i}]`;
            const io = obj(x, p);
            return { severity: str(io, 'severity', p), title: str(io, 'title', p), path: strOrNull(io, 'path', p), line: uintOrNull(io, 'line', p) };
          }),
        },
        unresolvedRisk: {
          unresolved: bool(r, 'unresolved', '$.unresolved_risk'),
          level: str(r, 'level', '$.unresolved_risk'),
          summary: str(r, 'summary', '$.unresolved_risk'),
        },
        reviewContentSha256: str(o, 'review_content_sha256', '$'),
      },
    };
  } catch (err) {
    if (err instanceof Shape) return { ok: false, reason: err.message, path: err.path };
    throw err;
  }
}

/** CodeWhale's default `--max-chars`. */
export const DEFAULT_MAX_CHARS = 200_000;
const TRUNCATED = '\n...[truncated]\n';

/**
 * `sha256:<hex>` of the diff as CodeWhale reviews it: git's output decoded
 * lossily (invalid UTF-8 becomes U+FFFD), and past `maxChars` bytes cut at the
 * last character boundary within `maxChars - 16` bytes, with
 * "\n...[truncated]\n" appended.
 */
export function diffFingerprint(diff: Uint8Array, maxChars = DEFAULT_MAX_CHARS): string {
  let bytes = new TextEncoder().encode(new TextDecoder('utf-8').decode(diff));
  if (bytes.length > maxChars) {
    let cut = Math.max(0, maxChars - TRUNCATED.length);
    while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--; // back to a character boundary
    const tail = new TextEncoder().encode(TRUNCATED);
    const out = new Uint8Array(cut + tail.length);
    out.set(bytes.subarray(0, cut));
    out.set(tail, cut);
    bytes = out;
  }
  return `sha256:${sha256Hex(bytes)}`;
}

export type ReviewStatus = 'valid' | 'diff_mismatch' | 'unresolved_risk' | 'unsupported_schema' | 'check_failed' | 'invalid';

export interface ReviewCheck {
  passed: boolean;
  /** `--check-receipt --json`'s status, in its own order (which differs from the rules'). */
  status: ReviewStatus;
  reason: string;
  riskLevel: string;
  unresolved: boolean;
  /** Whether the diff rule ran (a diff was supplied); without one it is skipped and the receipt can pass only as "unchecked against a diff". */
  diffChecked: boolean;
}

const PASSING = new Set(['passed', 'pass', 'success', 'ok']);

/**
 * `validate_review_receipt_for_diff`: the first failing rule of schema, diff
 * fingerprint (when `currentFingerprint` is given), unresolved risk and
 * attached checks; then `review_receipt_validation_status`.
 */
export function checkReviewReceipt(r: ReviewReceipt, currentFingerprint?: string): ReviewCheck {
  let reason: string | null = null;
  if (r.schemaVersion !== 1n) reason = `unsupported review receipt schema version ${r.schemaVersion}`;
  else if (currentFingerprint !== undefined && r.diffFingerprint !== currentFingerprint) reason = 'current diff fingerprint does not match receipt';
  else if (r.unresolvedRisk.unresolved) reason = r.unresolvedRisk.summary;
  else {
    const bad = r.checksRun.find((c) => !PASSING.has(c.status.trim().toLowerCase()));
    if (bad) reason = `review receipt check '${bad.name}' did not pass: ${bad.status}`;
  }
  const passed = reason === null;
  const diffMismatch = currentFingerprint !== undefined && r.diffFingerprint !== currentFingerprint;
  const status: ReviewStatus = passed
    ? 'valid'
    : diffMismatch
      ? 'diff_mismatch'
      : r.unresolvedRisk.unresolved
        ? 'unresolved_risk'
        : reason!.startsWith('unsupported review receipt schema version')
          ? 'unsupported_schema'
          : reason!.startsWith('review receipt check ')
            ? 'check_failed'
            : 'invalid';
  return {
    passed,
    status,
    reason: reason ?? 'receipt matches current diff and has no unresolved risk',
    riskLevel: r.unresolvedRisk.level,
    unresolved: r.unresolvedRisk.unresolved,
    diffChecked: currentFingerprint !== undefined,
  };
}
