// Engine-independent Ed25519 input checks: the strict rule set of
// spec/verification.md §4 that runs before either verification engine.
// Every input here is attacker-controlled; nothing throws on bad bytes.
import { Point } from '@noble/ed25519';
import { toHex } from '../bytes/hex';
import { BoundedCache } from './bounded-cache';

/** Why a signature was rejected. A closed set; callers and tests match on these strings. */
export type Ed25519RejectReason =
  | 'bad_length'
  | 'noncanonical_key'
  | 'noncanonical_r'
  | 's_not_reduced'
  | 'small_order_r'
  | 'small_order_key'
  | 'key_not_in_prime_subgroup'
  | 'r_not_in_prime_subgroup'
  | 'bad_signature';

export type Ed25519Precheck = { ok: true; keyHex: string } | { ok: false; reason: Ed25519RejectReason };

export type RVerdict = null | 'noncanonical_r' | 'small_order_r' | 'r_not_in_prime_subgroup';

type KeyVerdict = null | 'noncanonical_key' | 'small_order_key' | 'key_not_in_prime_subgroup';

/** The prime order L of the Ed25519 base point (RFC 8032 §5.1). */
const L = Point.CURVE().n;

/**
 * Per-key verdicts. The torsion check costs about as much as a whole JS
 * verification, and a log reuses a handful of keys, so each key is checked
 * once. Bounded because keys come from the input.
 */
const keyVerdicts = new BoundedCache<string, KeyVerdict>(4096);

/**
 * Decodes a 32-byte point strictly: noble's non-ZIP-215 decoding rejects
 * y >= p and x = 0 with the sign bit set, and we additionally require the
 * re-encoding to reproduce the input bytes exactly. Null when the bytes are
 * not the canonical encoding of a curve point.
 */
export function decodeCanonicalPoint(bytes: Uint8Array): Point | null {
  let point: Point;
  try {
    point = Point.fromBytes(bytes, false);
  } catch {
    return null; // not on the curve, y >= p, or x = 0 with the sign bit set
  }
  const again = point.toBytes();
  for (let i = 0; i < 32; i++) if (again[i] !== bytes[i]) return null;
  return point;
}

/** Little-endian bytes as an unsigned integer. */
function readScalarLE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function checkKey(publicKey: Uint8Array, keyHex: string): KeyVerdict {
  const cached = keyVerdicts.get(keyHex);
  if (cached !== undefined) return cached;
  let verdict: KeyVerdict = null;
  const a = decodeCanonicalPoint(publicKey);
  if (a === null) verdict = 'noncanonical_key';
  else if (a.isSmallOrder()) verdict = 'small_order_key';
  else if (!a.isTorsionFree()) verdict = 'key_not_in_prime_subgroup';
  keyVerdicts.set(keyHex, verdict);
  return verdict;
}

/** True when y (the low 255 bits) is >= p = 2^255 - 19, i.e. little-endian ed ff … ff 7f or above. */
function isYAtLeastP(bytes: Uint8Array): boolean {
  if ((bytes[31]! & 0x7f) !== 0x7f) return false;
  for (let i = 30; i >= 1; i--) if (bytes[i] !== 0xff) return false;
  return bytes[0]! >= 0xed;
}

/**
 * The eight points of order dividing 8 (multiples of an order-8 point; the
 * torsion subgroup is cyclic) as canonical encodings, and the two encodings
 * of the x = 0 points with the sign bit set, which strict decoding refuses.
 */
const T8 = Point.fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');
export const SMALL_ORDER_ENCODINGS: ReadonlySet<string> = new Set(Array.from({ length: 8 }, (_, i) => toHex(T8.multiply(BigInt(i), false).toBytes())));
const X0_WITH_SIGN_BIT: ReadonlySet<string> = new Set(
  [Point.ZERO, T8.multiply(4n, false)].map((pt) => {
    const b = pt.toBytes();
    b[31]! |= 0x80;
    return toHex(b);
  }),
);

/**
 * Runs the engine-independent checks that need no square root, in a fixed
 * order so the first failing rule (and so the reason) is the same everywhere:
 * lengths, key encoding, key small order, key torsion (all cached per key),
 * S < L, then R's encoding by bytes: y < p, not x = 0 with the sign bit, not
 * one of the eight small-order points. Whether R's bytes are a curve point at
 * all, and whether R is torsion-free, is `classifyR` (see ed25519.ts for why
 * that may run after a cofactorless engine has answered).
 */
export function precheckEd25519(publicKey: Uint8Array, signature: Uint8Array): Ed25519Precheck {
  if (publicKey.length !== 32 || signature.length !== 64) return { ok: false, reason: 'bad_length' };
  const keyHex = toHex(publicKey);
  const keyVerdict = checkKey(publicKey, keyHex);
  if (keyVerdict !== null) return { ok: false, reason: keyVerdict };
  if (readScalarLE(signature.subarray(32, 64)) >= L) return { ok: false, reason: 's_not_reduced' };
  const rBytes = signature.subarray(0, 32);
  if (isYAtLeastP(rBytes)) return { ok: false, reason: 'noncanonical_r' };
  const rHex = toHex(rBytes);
  if (X0_WITH_SIGN_BIT.has(rHex)) return { ok: false, reason: 'noncanonical_r' };
  if (SMALL_ORDER_ENCODINGS.has(rHex)) return { ok: false, reason: 'small_order_r' };
  return { ok: true, keyHex };
}

/**
 * The rest of the R rules, by strict decoding (about 0.1 ms: a field square
 * root, then a scalar multiplication for torsion): null when R is a canonical
 * point of the prime-order subgroup.
 */
export function classifyR(rBytes: Uint8Array): RVerdict {
  const r = decodeCanonicalPoint(rBytes);
  if (r === null) return 'noncanonical_r';
  if (r.isSmallOrder()) return 'small_order_r';
  if (!r.isTorsionFree()) return 'r_not_in_prime_subgroup';
  return null;
}
