// ECDSA P-256/SHA-256 and P-384/SHA-384 verification over WebCrypto, for the
// `p256:` / `p384:` signatures of spec/verification.md §4 and chio-format.md §2:
// uncompressed SEC1 keys, strict ASN.1 DER signatures converted to IEEE P1363.
import { toHex } from '../bytes/hex';
import { BoundedCache, cachedLoad } from './bounded-cache';
import { asBufferSource } from './buffer-source';

export type EcdsaCurve = 'p256' | 'p384';
export type EcdsaRejectReason = 'bad_key' | 'bad_der' | 'bad_signature' | 'unsupported';
export type EcdsaResult = { valid: true } | { valid: false; reason: EcdsaRejectReason };

interface CurveParams {
  /** Field element / scalar size in bytes. */
  size: number;
  p: bigint;
  b: bigint;
  n: bigint;
  webCryptoName: 'P-256' | 'P-384';
  hash: 'SHA-256' | 'SHA-384';
}

// SEC 2 / FIPS 186-5 domain parameters (a = -3 for both curves).
const CURVES: Record<EcdsaCurve, CurveParams> = {
  p256: {
    size: 32,
    p: 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
    webCryptoName: 'P-256',
    hash: 'SHA-256',
  },
  p384: {
    size: 48,
    p: 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffffn,
    b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
    n: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
    webCryptoName: 'P-384',
    hash: 'SHA-384',
  },
};

function readBigEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = 0; i < bytes.length; i++) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function writeBigEndian(value: bigint, out: Uint8Array, offset: number, size: number): void {
  for (let i = size - 1; i >= 0; i--) {
    out[offset + i] = Number(value & 0xffn);
    value >>= 8n;
  }
}

/**
 * True for an uncompressed SEC1 point `04‖X‖Y` on the curve. Both curves have
 * cofactor 1, so any such point is a valid public key. Checked here rather
 * than left to importKey so `bad_key` means the same in every engine.
 */
export function isValidSec1Key(curve: EcdsaCurve, key: Uint8Array): boolean {
  const { size, p, b } = CURVES[curve];
  if (key.length !== 1 + 2 * size || key[0] !== 0x04) return false;
  const x = readBigEndian(key.subarray(1, 1 + size));
  const y = readBigEndian(key.subarray(1 + size));
  if (x >= p || y >= p) return false;
  const rhs = (((x * x * x - 3n * x + b) % p) + p) % p;
  return (y * y) % p === rhs;
}

/** A definite DER length at `pos`: short form, or minimal long form of 1–2 bytes. */
function readLength(der: Uint8Array, pos: number): { len: number; next: number } | null {
  const first = der[pos];
  if (first === undefined) return null;
  if (first < 0x80) return { len: first, next: pos + 1 };
  const count = first & 0x7f;
  if (count === 0 || count > 2 || pos + 1 + count > der.length) return null; // indefinite or absurd
  if (der[pos + 1] === 0) return null; // leading zero byte: not minimal
  let len = 0;
  for (let i = 0; i < count; i++) len = len * 256 + der[pos + 1 + i]!;
  if (len < 0x80) return null; // must have used the short form
  return { len, next: pos + 1 + count };
}

/** A minimal, non-negative DER INTEGER at `pos`, ending at or before `end`. */
function readInteger(der: Uint8Array, pos: number, end: number): { value: bigint; next: number } | null {
  if (pos >= end || der[pos] !== 0x02) return null;
  const l = readLength(der, pos + 1);
  if (l === null || l.len === 0 || l.next + l.len > end) return null;
  const body = der.subarray(l.next, l.next + l.len);
  if (body[0]! & 0x80) return null; // negative
  if (body[0] === 0 && body.length > 1 && !(body[1]! & 0x80)) return null; // superfluous leading zero
  return { value: readBigEndian(body), next: l.next + l.len };
}

/**
 * Converts a strict DER ECDSA signature (SEQUENCE of two INTEGERs, nothing
 * after it, each of r and s in [1, n-1]) to IEEE P1363 `r‖s`. Null when the
 * encoding is anything else. `der` is attacker-controlled.
 */
export function derToP1363(curve: EcdsaCurve, der: Uint8Array): Uint8Array<ArrayBuffer> | null {
  const { size, n } = CURVES[curve];
  if (der[0] !== 0x30) return null;
  const seq = readLength(der, 1);
  if (seq === null || seq.next + seq.len !== der.length) return null; // short, or trailing bytes
  const r = readInteger(der, seq.next, der.length);
  if (r === null) return null;
  const s = readInteger(der, r.next, der.length);
  if (s === null || s.next !== der.length) return null;
  if (r.value < 1n || r.value >= n || s.value < 1n || s.value >= n) return null;
  const out = new Uint8Array(2 * size);
  writeBigEndian(r.value, out, 0, size);
  writeBigEndian(s.value, out, size, size);
  return out;
}

const importedKeys = new BoundedCache<string, Promise<CryptoKey>>(1024);

function importKey(subtle: SubtleCrypto, curve: EcdsaCurve, key: Uint8Array): Promise<CryptoKey> {
  const alg = { name: 'ECDSA', namedCurve: CURVES[curve].webCryptoName };
  return cachedLoad(importedKeys, curve + ':' + toHex(key), () => subtle.importKey('raw', new Uint8Array(key), alg, false, ['verify']));
}

/**
 * Verifies an ECDSA signature (DER) over `message` (hashed with SHA-256 for
 * P-256, SHA-384 for P-384). `unsupported` means this engine could not run
 * the check; it is never a statement about the signature.
 */
export async function verifyEcdsa(curve: EcdsaCurve, publicKey: Uint8Array, message: Uint8Array, derSignature: Uint8Array): Promise<EcdsaResult> {
  if (curve !== 'p256' && curve !== 'p384') throw new TypeError(`unknown curve: ${String(curve)}`);
  if (!(publicKey instanceof Uint8Array) || !(message instanceof Uint8Array) || !(derSignature instanceof Uint8Array)) {
    throw new TypeError('publicKey, message and derSignature must be Uint8Arrays');
  }
  if (!isValidSec1Key(curve, publicKey)) return { valid: false, reason: 'bad_key' };
  const p1363 = derToP1363(curve, derSignature);
  if (p1363 === null) return { valid: false, reason: 'bad_der' };
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) return { valid: false, reason: 'unsupported' };
  try {
    const key = await importKey(subtle, curve, publicKey);
    const ok = await subtle.verify({ name: 'ECDSA', hash: CURVES[curve].hash }, key, p1363, asBufferSource(message));
    return ok ? { valid: true } : { valid: false, reason: 'bad_signature' };
  } catch {
    return { valid: false, reason: 'unsupported' }; // the key is valid, so the engine is at fault
  }
}
