// The Chio wire layer for keys and signatures (chio-format.md §2) and the
// signature check of spec/verification.md §4: bare hex = Ed25519, `p256:` /
// `p384:` = ECDSA (SEC1 key, DER signature), `hybrid:<classical>:<pq>:<alg_set>`.
// Parsing follows Rust `PublicKey::from_hex` / `Signature::from_hex`; all text
// here is attacker-controlled and nothing throws on it.
import { fromHex, toHex } from '../bytes/hex';
import { verifyClassical, type ClassicalAlgorithm } from './classical';
import { ML_DSA_65_PUBLIC_KEY_BYTES, ML_DSA_65_SIGNATURE_BYTES, hybridAlgSetFor, verifyHybrid, type HybridAlgSet, type HybridOptions } from './hybrid';

export type ChioAlgorithm = ClassicalAlgorithm | 'hybrid';

export type ChioParseReason =
  | 'not_a_string'
  | 'bad_hex'
  | 'bad_length'
  | 'bad_sec1_prefix' // a P-256/P-384 key that is not uncompressed (0x04…)
  | 'bad_hybrid_format' // fewer than three non-empty `:`-separated parts
  | 'hybrid_nested'
  | 'hybrid_alg_set_mismatch'; // alg_set unknown or not the classical half's algorithm

interface Classical {
  algorithm: ClassicalAlgorithm;
  bytes: Uint8Array;
  /** Exactly what Rust `to_hex()` writes: lowercase, no `0x`. */
  normalized: string;
}

export type ChioPublicKey = Classical | { algorithm: 'hybrid'; classical: Classical; mldsaPublicKey: Uint8Array; algSet: HybridAlgSet; normalized: string };
export type ChioSignature = Classical | { algorithm: 'hybrid'; classical: Classical; mldsaSignature: Uint8Array; algSet: HybridAlgSet; normalized: string };

export type ParseChioPublicKeyResult = { ok: true; key: ChioPublicKey } | { ok: false; reason: ChioParseReason };
export type ParseChioSignatureResult = { ok: true; signature: ChioSignature } | { ok: false; reason: ChioParseReason };

export type SignatureCheck =
  | { status: 'pass'; algorithm: ChioAlgorithm }
  | { status: 'fail'; algorithm?: ChioAlgorithm; reason: string; detail?: string }
  | { status: 'skipped'; algorithm: ChioAlgorithm; reason: string; detail?: string };

type Kind = 'key' | 'signature';
type Parsed<T> = { ok: true; value: T } | { ok: false; reason: ChioParseReason };

const HYBRID = 'hybrid:';

function parseClassical(text: string, kind: Kind): Parsed<Classical> {
  const algorithm: ClassicalAlgorithm = text.startsWith('p256:') ? 'p256' : text.startsWith('p384:') ? 'p384' : 'ed25519';
  const prefix = algorithm === 'ed25519' ? '' : algorithm + ':';
  let body = text.slice(prefix.length);
  if (body.startsWith('0x')) body = body.slice(2); // Rust strips one lowercase `0x`
  const bytes = fromHex(body);
  if (bytes === null) return { ok: false, reason: 'bad_hex' };
  if (algorithm === 'ed25519') {
    if (bytes.length !== (kind === 'key' ? 32 : 64)) return { ok: false, reason: 'bad_length' };
  } else if (kind === 'key') {
    // DER signatures are checked strictly at verification, as in Rust.
    if (bytes.length !== (algorithm === 'p256' ? 65 : 97)) return { ok: false, reason: 'bad_length' };
    if (bytes[0] !== 0x04) return { ok: false, reason: 'bad_sec1_prefix' };
  }
  return { ok: true, value: { algorithm, bytes, normalized: prefix + toHex(bytes) } };
}

type HybridParts = { classical: Classical; pq: Uint8Array; algSet: HybridAlgSet; normalized: string };

/** `rest` after `hybrid:`, split from the right like Rust `rsplitn(3, ':')`. */
function parseHybrid(rest: string, kind: Kind): Parsed<HybridParts> {
  const last = rest.lastIndexOf(':');
  const middle = last < 0 ? -1 : rest.lastIndexOf(':', last - 1);
  if (last < 0 || middle < 0) return { ok: false, reason: 'bad_hybrid_format' };
  const classicalText = rest.slice(0, middle);
  const pqHex = rest.slice(middle + 1, last);
  const algSet = rest.slice(last + 1);
  if (classicalText === '' || pqHex === '' || algSet === '') return { ok: false, reason: 'bad_hybrid_format' };
  if (classicalText.startsWith(HYBRID)) return { ok: false, reason: 'hybrid_nested' };
  const classical = parseClassical(classicalText, kind);
  if (!classical.ok) return classical;
  const pq = fromHex(pqHex); // no `0x` here: Rust decodes this part as is
  if (pq === null) return { ok: false, reason: 'bad_hex' };
  if (algSet !== hybridAlgSetFor(classical.value.algorithm)) return { ok: false, reason: 'hybrid_alg_set_mismatch' };
  if (pq.length !== (kind === 'key' ? ML_DSA_65_PUBLIC_KEY_BYTES : ML_DSA_65_SIGNATURE_BYTES)) {
    return { ok: false, reason: 'bad_length' };
  }
  const normalized = `${HYBRID}${classical.value.normalized}:${toHex(pq)}:${algSet}`;
  return { ok: true, value: { classical: classical.value, pq, algSet: algSet as HybridAlgSet, normalized } };
}

/** Parses a Chio public key string (`kernel_key`, `signer_key`, …). */
export function parseChioPublicKey(text: string): ParseChioPublicKeyResult {
  if (typeof text !== 'string') return { ok: false, reason: 'not_a_string' };
  if (text.startsWith(HYBRID)) {
    const h = parseHybrid(text.slice(HYBRID.length), 'key');
    if (!h.ok) return h;
    const { classical, pq, algSet, normalized } = h.value;
    return { ok: true, key: { algorithm: 'hybrid', classical, mldsaPublicKey: pq, algSet, normalized } };
  }
  const c = parseClassical(text, 'key');
  return c.ok ? { ok: true, key: c.value } : c;
}

/** Parses a Chio signature string. */
export function parseChioSignature(text: string): ParseChioSignatureResult {
  if (typeof text !== 'string') return { ok: false, reason: 'not_a_string' };
  if (text.startsWith(HYBRID)) {
    const h = parseHybrid(text.slice(HYBRID.length), 'signature');
    if (!h.ok) return h;
    const { classical, pq, algSet, normalized } = h.value;
    return { ok: true, signature: { algorithm: 'hybrid', classical, mldsaSignature: pq, algSet, normalized } };
  }
  const c = parseClassical(text, 'signature');
  return c.ok ? { ok: true, signature: c.value } : c;
}

/**
 * The algorithm a signature string declares (its prefix decides), for
 * comparing against a record's `algorithm` field; null when the string is
 * not a well-formed Chio signature.
 */
export function signatureAlgorithmOf(signatureText: string): ChioAlgorithm | null {
  const parsed = parseChioSignature(signatureText);
  return parsed.ok ? parsed.signature.algorithm : null;
}

export type VerifyChioOptions = HybridOptions;

/**
 * Verifies `signatureText` by `keyText` over `message` (the exact signed
 * bytes). The signature's prefix decides the algorithm; a key of another
 * algorithm fails with `key_signature_algorithm_mismatch`. `skipped` means
 * this engine cannot check the algorithm (ECDSA or ML-DSA unavailable).
 */
export async function verifyChioSignature(
  keyText: string,
  signatureText: string,
  message: Uint8Array,
  options: VerifyChioOptions = {},
): Promise<SignatureCheck> {
  if (!(message instanceof Uint8Array)) throw new TypeError('message must be a Uint8Array');
  const sig = parseChioSignature(signatureText);
  if (!sig.ok) return { status: 'fail', reason: 'malformed_signature', detail: sig.reason };
  const algorithm = sig.signature.algorithm;
  const key = parseChioPublicKey(keyText);
  if (!key.ok) return { status: 'fail', algorithm, reason: 'malformed_key', detail: key.reason };
  if (key.key.algorithm !== algorithm) return { status: 'fail', algorithm, reason: 'key_signature_algorithm_mismatch' };

  if (key.key.algorithm === 'hybrid' && sig.signature.algorithm === 'hybrid') {
    const k = key.key;
    const s = sig.signature;
    const r = await verifyHybrid(
      { classical: k.classical, mldsaPublicKey: k.mldsaPublicKey, algSet: k.algSet },
      { classical: s.classical, mldsaSignature: s.mldsaSignature, algSet: s.algSet },
      message,
      options,
    );
    if (r.status === 'pass') return { status: 'pass', algorithm };
    return r.detail === undefined ? { status: r.status, algorithm, reason: r.reason } : { status: r.status, algorithm, reason: r.reason, detail: r.detail };
  }
  if (key.key.algorithm === 'hybrid' || sig.signature.algorithm === 'hybrid') {
    return { status: 'fail', algorithm, reason: 'key_signature_algorithm_mismatch' }; // unreachable; narrows types
  }
  const engine = options.ed25519Engine;
  const r = await verifyClassical(
    algorithm as ClassicalAlgorithm,
    key.key.bytes,
    message,
    sig.signature.bytes,
    engine === undefined ? {} : { ed25519Engine: engine },
  );
  if (r.status === 'pass') return { status: 'pass', algorithm };
  return { status: r.status, algorithm, reason: r.reason };
}
