// The per-receipt checks of contract §5 that need only the receipt itself:
// `signature` (§4, with the legacy DEL/C1 retry of §3 and the algorithm rule),
// `receipt_id` and `semantics` (Gen B), `parameter_hash`.
import { sha256Hex } from '../crypto/sha256';
import { signatureAlgorithmOf, verifyChioSignature } from '../crypto/chio-signature';
import { canonicalBytes, containsC1OrDel } from '../json/canonicalize';
import { isJsonNumber } from '../json/value';
import type { DecodedReceipt, DecodedToolReceipt } from '../chio/types';
import { type CheckResult, fail, pass, skipped } from '../verdict/check';
import { STRICT_ED25519, type Signed } from '../verdict/check-text';
import { type Problem, type ProblemLocation, makeProblem } from '../verdict/problems';

export interface SignatureOutcome {
  check: CheckResult;
  problems: Problem[];
}

/** `signature`: the signature over the canonical signed body, by the receipt's kernel key (`signedBytes` when the caller has them already). */
export async function checkReceiptSignature(r: DecodedReceipt, where: ProblemLocation, signedBytes?: Uint8Array): Promise<SignatureOutcome> {
  const sigAlg = signatureAlgorithmOf(r.signature);
  if (r.algorithm !== undefined && sigAlg !== null && r.algorithm !== sigAlg) {
    const check = fail('algorithm_mismatch', r.algorithm, sigAlg);
    return { check, problems: [makeProblem('algorithm_mismatch', check.detail!, where)] };
  }
  const message = signedBytes ?? canonicalBytes(r.signingBody);
  const result = await verifyChioSignature(r.kernelKey, r.signature, message);
  if (result.status === 'pass') return { check: pass(), problems: [] };
  if (result.status === 'skipped') return { check: skipped('signature_not_checked', result.reason), problems: [] };

  // Legacy retry (contract §3): old Rust escaped DEL and C1 controls.
  const legacyEligible = result.reason === 'bad_signature' && r.generation !== 'B' && containsC1OrDel(r.signingBody);
  if (legacyEligible) {
    const legacy = await verifyChioSignature(r.kernelKey, r.signature, canonicalBytes(r.signingBody, { legacyC1: true }));
    if (legacy.status === 'pass') {
      const msg = 'the signature matches only when DEL and C1 control characters are escaped as \\u00xx (old Rust canonicalization)';
      return { check: pass('legacy_canonicalization'), problems: [makeProblem('legacy_canonicalization', msg, where)] };
    }
  }
  const check = signatureFailure(result.reason, result.detail, {});
  return { check, problems: [makeProblem('signature_invalid', check.detail!, where)] };
}

/**
 * A failed `signature` (verification.md §4) as its reason's code: of a receipt, or (`of.checkpointSeq`)
 * of a checkpoint. `reason` and `detail` are lib/crypto's.
 */
export function signatureFailure(reason: string, detail: string | undefined, of: Signed): CheckResult {
  if (reason === 'bad_signature' || reason === 'classical_failed' || reason === 'mldsa_bad_signature') return fail('signature_mismatch', of);
  if (STRICT_ED25519[reason]) return fail('signature_not_strict', of, reason);
  if (reason === 'malformed_key') return fail('kernel_key_malformed', of, detail);
  if (reason === 'malformed_signature') return fail('signature_malformed', of, detail);
  if (reason === 'key_signature_algorithm_mismatch') return fail('key_signature_algorithm_mismatch', of);
  return fail('signature_unusable', of, reason, detail);
}

/** `parameter_hash`: sha256 hex of JCS(action.parameters) equals `action.parameter_hash` (§3). */
export function checkParameterHash(r: DecodedToolReceipt): CheckResult {
  const actual = sha256Hex(canonicalBytes(r.parameters));
  if (actual === r.parameterHash) return pass();
  return fail('parameter_hash_mismatch', r.parameterHash, actual);
}

/** `receipt_id` (Gen B): the id is sha256 hex of JCS(id input) (§5). */
export function checkReceiptId(r: DecodedToolReceipt): CheckResult {
  if (!r.genB) return skipped('not_gen_b');
  const actual = sha256Hex(canonicalBytes(r.genB.idInput));
  if (actual === r.id) return pass();
  return fail('receipt_id_mismatch', actual, r.id);
}

const BBS_PROJECTION_VERSION = 'chio.bbs-projection.receipt.v1';

const ALLOWED: Record<string, { boundary: string; outcome: boolean; decision: boolean; trust: string }> = {
  mediated_decision: { boundary: 'prevent', outcome: false, decision: true, trust: 'mediated' },
  trace_observation: { boundary: 'detect_only', outcome: true, decision: false, trust: 'verified' },
  advisory_evaluation: { boundary: 'advisory_only', outcome: true, decision: false, trust: 'advisory' },
};

/** `semantics` (Gen B): the kind/boundary/outcome/decision/trust table and the BBS binding (§5). */
export function checkSemantics(r: DecodedToolReceipt): CheckResult {
  const b = r.genB;
  if (!b) return skipped('not_gen_b');
  if (b.boundaryClass === 'cannot_see') return fail('boundary_cannot_see');
  const rule = ALLOWED[b.receiptKind]!;
  const problems: string[] = [];
  if (b.boundaryClass !== rule.boundary) problems.push(`${b.receiptKind} requires boundary_class ${rule.boundary}, not ${b.boundaryClass}`);
  const hasOutcome = b.observationOutcome !== undefined;
  if (hasOutcome !== rule.outcome) problems.push(`${b.receiptKind} ${rule.outcome ? 'requires' : 'must not have'} observation_outcome`);
  const hasDecision = r.decision !== undefined;
  if (hasDecision !== rule.decision) problems.push(`${b.receiptKind} ${rule.decision ? 'requires' : 'must not have'} a decision`);
  if (r.trustLevel !== rule.trust) problems.push(`${b.receiptKind} requires trust_level ${rule.trust}, not ${r.trustLevel}`);
  const bbs = bbsBindingError(r);
  if (bbs) problems.push(bbs);
  return problems.length === 0 ? pass() : fail('semantics_invalid', problems);
}

function bbsBindingError(r: DecodedToolReceipt): string | null {
  const b = r.genB!;
  const hasVersion = b.bbsProjectionVersion !== undefined;
  const sig = b.bbsSignature;
  if (hasVersion !== (sig !== undefined)) return 'bbs_projection_version and bbs_signature must be present together';
  if (!sig) return null;
  if (b.bbsProjectionVersion !== BBS_PROJECTION_VERSION) return `bbs_projection_version must be ${BBS_PROJECTION_VERSION}`;
  const expect: Record<string, string> = {
    schema: 'chio.receipt.bbs_signature.v1',
    algorithm: 'bbs',
    ciphersuite: 'BBS_BLS12381G1_XMD:SHA-256_SSWU_RO_',
    projection_version: BBS_PROJECTION_VERSION,
  };
  for (const [k, v] of Object.entries(expect)) if (sig.get(k) !== v) return `bbs_signature.${k} must be ${v}`;
  const count = sig.get('message_count');
  if (!(isJsonNumber(count) && count.raw === '14')) return 'bbs_signature.message_count must be 14';
  const pk = sig.get('issuer_public_key_hex');
  if (typeof pk !== 'string' || !/^[0-9a-f]+$/.test(pk) || pk.length > 192) {
    return 'bbs_signature.issuer_public_key_hex must be lowercase hex of at most 192 characters';
  }
  return null;
}
