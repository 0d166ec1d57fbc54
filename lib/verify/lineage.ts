// The `lineage` check of contract part 2 §5.3.1 for one capability-lineage row
// (chio-format-v2.md §16.9, upstream `validate_for_transport`). Every rule is
// evaluated and each failing rule keeps its own code (upstream stops at the
// first): `lineage_downgraded` (no signed provenance), `lineage_signature_invalid`
// (no token, a token that fails schema validation, or an issuer signature that
// fails), `lineage_mismatch` (projection or delegation fields that differ from
// the token, a synthetic anchor that breaks its structure, a row that is its
// own federated parent). Pure apart from the signature check; never throws.
import { type DecodedCapabilityToken, decodeCapabilityToken } from '../chio/capability-token';
import type { DecodedLineageRow } from '../chio/lineage-row';
import { parseChioPublicKey, verifyChioSignature } from '../crypto/chio-signature';
import { canonicalBytes, canonicalize } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { isJsonObject } from '../json/value';
import type { LineageCode } from '../verdict/problems';

/** The order of §5.3.1's rules: a row's codes are reported in it. */
export const LINEAGE_RULE_ORDER: readonly LineageCode[] = ['lineage_downgraded', 'lineage_signature_invalid', 'lineage_mismatch'];

export interface LineageFailure {
  code: LineageCode;
  detail: string;
}

/** How a passing synthetic anchor is described: it never carries signed authority (§5.3.1 rule 4). */
export const ANCHOR_NOTE = 'unsigned federation anchor: its structure is valid, but it carries no signed authority';

/** Adds a failing rule's reason; one entry per code, reasons joined. */
export function addFailure(failures: LineageFailure[], code: LineageCode, detail: string): void {
  const known = failures.find((f) => f.code === code);
  if (known) known.detail += `; ${detail}`;
  else failures.push({ code, detail });
}

export interface LineageJudgement {
  /** A local-store row with neither a token nor signed provenance: unsigned context (§16.9), not judged. */
  context: boolean;
  failures: LineageFailure[];
  /** The token whose issuer signature is still to be checked (checkTokenSignature). */
  token?: DecodedCapabilityToken;
}

/** The rules a row's own fields decide. `local`: a row of the local store, where `legacy_projection` is allowed. */
export function judgeLineageRow(row: DecodedLineageRow, local: boolean): LineageJudgement {
  const failures: LineageFailure[] = [];
  const hasToken = row.token !== undefined || row.tokenUnreadable !== undefined;
  if (row.provenance === 'legacy_projection' && local && !hasToken) return { context: true, failures };
  if (row.federatedParentCapabilityId !== undefined && row.federatedParentCapabilityId === row.capabilityId) {
    addFailure(failures, 'lineage_mismatch', 'it names itself as its federated parent (federated_parent_capability_id = capability_id)');
  }
  if (row.provenance === 'synthetic_anchor') {
    for (const why of anchorBreaks(row, hasToken)) addFailure(failures, 'lineage_mismatch', why);
    return { context: false, failures };
  }
  if (row.provenance === 'legacy_projection') {
    const why = local
      ? 'it marks a signed token as a legacy projection'
      : `${row.provenanceWritten ? 'its provenance is legacy_projection' : 'it has no provenance (read as legacy_projection)'}, which is refused outside the local store: an unsigned projection`;
    addFailure(failures, 'lineage_downgraded', why);
  }
  if (!hasToken) {
    // Only signed_token gets here (legacy without a token stops at rule 1).
    if (row.provenance === 'signed_token')
      addFailure(failures, 'lineage_signature_invalid', 'it claims signed_token provenance but carries no signed_capability');
    return { context: false, failures };
  }
  if (row.tokenUnreadable !== undefined) {
    addFailure(failures, 'lineage_signature_invalid', row.tokenUnreadable);
    return { context: false, failures };
  }
  const decoded = decodeCapabilityToken(row.token!);
  for (const issue of decoded.issues)
    addFailure(failures, 'lineage_signature_invalid', `its token ${decoded.ok ? 'fails schema validation' : 'cannot be read'}: ${issue}`);
  if (!decoded.ok) return { context: false, failures };
  for (const why of projectionBreaks(row, decoded.token)) addFailure(failures, 'lineage_mismatch', why);
  return { context: false, failures, token: decoded.token };
}

/** A key shortened for messages (the full keys are in the row). */
const short = (s: string) => (s.length > 20 ? `${s.slice(0, 8)}…${s.slice(-4)}` : s);

/** Rule 3: the projection and delegation fields against the token. */
function projectionBreaks(row: DecodedLineageRow, t: DecodedCapabilityToken): string[] {
  const out: string[] = [];
  const differs = (field: string, mine: string, theirs: string, what: string, fmt = (x: string) => x) => {
    if (mine !== theirs) out.push(`${field} ${fmt(mine)} differs from the token's ${what} ${fmt(theirs)}`);
  };
  differs('capability_id', row.capabilityId, t.id, 'id', JSON.stringify);
  differs('subject_key', row.subjectKey, t.subject, 'subject', short);
  differs('issuer_key', row.issuerKey, t.issuer, 'issuer', short);
  differs('issued_at', String(row.issuedAt), String(t.issuedAt), 'issued_at');
  differs('expires_at', String(row.expiresAt), String(t.expiresAt), 'expires_at');
  const grants = parseJson(row.grantsJson);
  if (!grants.ok) out.push(`grants_json is not JSON (${grants.issue.message}), so it cannot equal the token's scope`);
  else if (canonicalize(grants.value) !== canonicalize(t.scope)) out.push("grants_json differs from the token's scope");
  const parent = t.chain.length > 0 ? t.chain[t.chain.length - 1]! : null;
  if (row.parentCapabilityId !== parent) {
    out.push(
      `parent_capability_id ${JSON.stringify(row.parentCapabilityId)} differs from the token's delegation chain (${parent === null ? 'empty: a root capability' : `last link ${JSON.stringify(parent)}`})`,
    );
  }
  if (row.delegationDepth !== BigInt(t.chain.length))
    out.push(`delegation_depth ${row.delegationDepth} differs from the token's delegation chain of ${t.chain.length} link(s)`);
  return out;
}

const FED_DEL = /^fed-del-[0-9a-f]{64}$/;

/** Rule 4: the structure of an unsigned federation anchor. */
function anchorBreaks(row: DecodedLineageRow, hasToken: boolean): string[] {
  const out: string[] = [];
  if (hasToken) out.push('a synthetic anchor must not carry a signed token');
  if (!FED_DEL.test(row.capabilityId)) out.push(`capability_id ${JSON.stringify(row.capabilityId)} is not fed-del- followed by 64 lowercase hex digits`);
  if (row.parentCapabilityId !== null || row.delegationDepth !== 0n)
    out.push('it places unsigned federation data in the signed lineage fields (parent_capability_id must be null and delegation_depth 0)');
  if (row.issuedAt >= row.expiresAt) out.push(`its validity window is empty or reversed (issued_at ${row.issuedAt}, expires_at ${row.expiresAt})`);
  for (const [field, key] of [
    ['subject_key', row.subjectKey],
    ['issuer_key', row.issuerKey],
  ] as const) {
    const parsed = parseChioPublicKey(key);
    if (!parsed.ok) out.push(`${field} is not a valid public key (${parsed.reason.replace(/_/g, ' ')})`);
  }
  const grants = parseJson(row.grantsJson);
  if (!grants.ok || !isJsonObject(grants.value)) out.push(`grants_json is not a JSON scope object${grants.ok ? '' : ` (${grants.issue.message})`}`);
  return out;
}

export type TokenSignatureResult = { status: 'pass' } | { status: 'fail' | 'skipped'; detail: string };

/**
 * Rule 2's signature: Ed25519 (or what the signature's prefix names) by the token's issuer over
 * the schema-aware body, else, for a plain token, over the body without `schema` (§16.9).
 */
export async function checkTokenSignature(t: DecodedCapabilityToken): Promise<TokenSignatureResult> {
  const first = await verifyChioSignature(t.issuer, t.signature, canonicalBytes(t.signingBody));
  if (first.status === 'pass') return { status: 'pass' };
  if (t.plainBody) {
    const plain = await verifyChioSignature(t.issuer, t.signature, canonicalBytes(t.plainBody));
    if (plain.status === 'pass') return { status: 'pass' };
  }
  if (first.status === 'skipped') return { status: 'skipped', detail: `the token's signature cannot be checked here (${first.reason.replace(/_/g, ' ')})` };
  const over = t.plainBody ? 'over its signing body (with or without schema)' : 'over its signing body';
  if (first.reason === 'malformed_signature')
    return { status: 'fail', detail: `its token's signature is not a valid signature encoding (${(first.detail ?? '').replace(/_/g, ' ')})` };
  if (first.reason === 'malformed_key')
    return { status: 'fail', detail: `its token's issuer is not a valid public key (${(first.detail ?? '').replace(/_/g, ' ')})` };
  if (first.reason === 'key_signature_algorithm_mismatch')
    return { status: 'fail', detail: "its token's issuer key and signature are of different algorithms" };
  if (first.reason === 'bad_signature' || first.reason === 'classical_failed' || first.reason === 'mldsa_bad_signature') {
    return {
      status: 'fail',
      detail: `its token's signature does not verify under the token's issuer ${over}: the token was changed after signing, or signed by another key`,
    };
  }
  return { status: 'fail', detail: `its token's signature is rejected (${first.reason.replace(/_/g, ' ')})` };
}
