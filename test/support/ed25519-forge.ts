// Test-only: Ed25519 signatures that the cofactored equation (@noble/ed25519, zip215: false)
// accepts but the strict rule set of spec/verification.md §4 must reject: R or the key with a
// small-order "torsion" component, and a small-order key.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { concatBytes, utf8 } from '../../lib/bytes/hex';
import { SMALL_ORDER_ENCODINGS } from '../../lib/crypto/ed25519-precheck';

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

/** A structurally valid input (32-byte key, 64-byte signature) and how it was made. */
export type Ed25519Case = { key: Uint8Array; msg: Uint8Array; sig: Uint8Array; how: string };

const torsion = fc.integer({ min: 1, max: 7 }).map((i) => T8.multiply(BigInt(i), false));
const smallOrderEncoding = fc.constantFrom(...[...SMALL_ORDER_ENCODINGS].map((h) => ed.etc.hexToBytes(h)));
const flip = (b: Uint8Array, bit: number) => {
  const c = b.slice();
  c[Math.floor(bit / 8) % c.length]! ^= 1 << (bit % 8);
  return c;
};

/**
 * Honest signatures, bit flips of the signature, key or message, S + L, and the forgeries above
 * (mixed-order R, mixed-order key, small-order key): the fuzz tests' differential input.
 */
export const signedCase: fc.Arbitrary<Ed25519Case> = fc
  .tuple(
    fc.uint8Array({ minLength: 32, maxLength: 32 }),
    fc.uint8Array({ minLength: 0, maxLength: 80 }),
    fc.nat(1 << 12),
    fc.nat(7),
    torsion,
    smallOrderEncoding,
    fc.uint8Array({ minLength: 32, maxLength: 32 }),
  )
  .map(([seed, msg, bit, pick, t, small, noise]): Ed25519Case => {
    const key = ed.getPublicKey(seed);
    const sig = ed.sign(msg, seed);
    switch (pick) {
      case 0:
        return { key, msg, sig, how: 'honest' };
      case 1:
        return { key, msg, sig: flip(sig, bit), how: 'signature bit flipped' };
      case 2:
        return { key: flip(key, bit), msg, sig, how: 'key bit flipped' };
      case 3:
        return msg.length > 0 ? { key, msg: flip(msg, bit), sig, how: 'message bit flipped' } : { key, msg: utf8('x'), sig, how: 'other message' };
      case 4: {
        // S + L: the same point equation, a non-canonical scalar.
        const s = leToBig(sig.subarray(32)) + L;
        return { key, msg, sig: concatBytes(sig.subarray(0, 32), bigToLe32(s < 2n ** 256n ? s : s - L)), how: 'S + L' };
      }
      case 5: {
        const forged = signWithTorsionR(seed, msg, t);
        return { key: forged.publicKey, msg, sig: forged.signature, how: 'mixed-order R' };
      }
      case 6: {
        const forged = signWithTorsionKey(seed, msg, t);
        return { key: forged.publicKey, msg, sig: forged.signature, how: 'mixed-order key' };
      }
      default: {
        const forged = signForSmallOrderKey(leToBig(noise), ed.Point.fromBytes(small));
        return { key: forged.publicKey, msg, sig: forged.signature, how: 'small-order key' };
      }
    }
  });
