// Test-only: Ed25519 signatures that the cofactored equation (@noble/ed25519, zip215: false)
// accepts but the strict rule set of spec/verification.md §4 must reject: R or the key with a
// small-order "torsion" component, and a small-order key.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../../lib/bytes/hex';

ed.hashes.sha512 = sha512;
const { Point } = ed;
export const L = Point.CURVE().n;

export const leToBig = (b: Uint8Array): bigint => b.reduceRight((n, byte) => (n << 8n) | BigInt(byte), 0n);
export const bigToLe32 = (n: bigint): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));

/** A point of order 8 (speccheck case 0's R). */
export const T8 = Point.fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');

/**
 * Signs with R' = rB + T instead of rB. S must be recomputed: k = H(R'‖A‖M)
 * depends on R's bytes, so adding T to a finished signature's R alone would
 * break the hash. With S = r + k·a: [S]B = R' − T + [k]A, so
 * [8]([S]B − R' − [k]A) = −[8]T = 0 (cofactored: passes), while
 * [S]B − R' − [k]A = −T ≠ 0 (cofactorless: fails).
 */
export function signWithTorsionR(seed: Uint8Array, message: Uint8Array, t: ed.Point): { publicKey: Uint8Array; signature: Uint8Array } {
  const { scalar, prefix, pointBytes } = ed.utils.getExtendedPublicKey(seed);
  const r = leToBig(sha512(concatBytes(prefix, message))) % L;
  const rBytes = Point.BASE.multiply(r).add(t).toBytes();
  const k = leToBig(sha512(concatBytes(rBytes, pointBytes, message))) % L;
  const s = (r + k * scalar) % L;
  return { publicKey: pointBytes, signature: concatBytes(rBytes, bigToLe32(s)) };
}

/**
 * Signs for the key A' = aB + T (a mixed-order key): with k = H(R‖A'‖M) and S = r + k·a,
 * [8][S]B = [8]R + [8][k]A' because [8]T = 0, so the cofactored equation passes.
 */
export function signWithTorsionKey(seed: Uint8Array, message: Uint8Array, t: ed.Point): { publicKey: Uint8Array; signature: Uint8Array } {
  const { scalar, prefix, point } = ed.utils.getExtendedPublicKey(seed);
  const publicKey = point.add(t).toBytes();
  const r = leToBig(sha512(concatBytes(prefix, message))) % L;
  const rBytes = Point.BASE.multiply(r).toBytes();
  const k = leToBig(sha512(concatBytes(rBytes, publicKey, message))) % L;
  return { publicKey, signature: concatBytes(rBytes, bigToLe32((r + k * scalar) % L)) };
}

/** For a small-order key Z: R = [S]B makes [8][S]B = [8]R + [8][k]Z hold for any message. */
export function signForSmallOrderKey(s: bigint, t: ed.Point): { publicKey: Uint8Array; signature: Uint8Array } {
  const sr = s % L;
  const rBytes = sr === 0n ? Point.ZERO.toBytes() : Point.BASE.multiply(sr).toBytes();
  return { publicKey: t.toBytes(), signature: concatBytes(rBytes, bigToLe32(sr)) };
}
