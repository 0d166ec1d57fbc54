// Fuzz: verifyEd25519 (both engines) never throws on any bytes, and against @noble/ed25519 with
// zip215: false on structurally valid inputs (32-byte key, 64-byte signature): ours accepts only
// what noble accepts, and refuses what noble accepts only under the stricter rules of
// spec/verification.md §4 (small-order or mixed-order key or R). Inputs are honest signatures,
// mutated, plus forgeries that pass noble's cofactored equation (mixed-order R or key) and one it
// refuses too (a small-order key).
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes, utf8 } from '../bytes/hex';
import { type Ed25519Result, verifyEd25519 } from './ed25519';
import { SMALL_ORDER_ENCODINGS } from './ed25519-precheck';
import { L, T8, bigToLe32, leToBig, signForSmallOrderKey, signWithTorsionKey, signWithTorsionR } from '../../test/support/ed25519-forge';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';

const ENGINES = ['webcrypto', 'noble'] as const;
const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const STRICTER = ['small_order_key', 'key_not_in_prime_subgroup', 'small_order_r', 'r_not_in_prime_subgroup'];

function nobleStrict(key: Uint8Array, msg: Uint8Array, sig: Uint8Array): boolean {
  try {
    return ed.verify(sig, msg, key, { zip215: false });
  } catch {
    return false;
  }
}

async function bothEngines(key: Uint8Array, msg: Uint8Array, sig: Uint8Array): Promise<Ed25519Result> {
  const [a, b] = await Promise.all(ENGINES.map((engine) => verifyEd25519(key, msg, sig, { engine })));
  expect(a, 'WebCrypto and noble engines disagree').toEqual(b);
  return a!;
}

describe('never throws on hostile bytes', () => {
  const seed = new Uint8Array(32).fill(9);
  const goodKey = ed.getPublicKey(seed);
  // Mostly-right lengths, so the checks past bad_length get exercised.
  const keyArb = fc.oneof(bytes(32, 32), bytes(0, 40), fc.constant(goodKey));
  const sigArb = fc.oneof(bytes(64, 64), bytes(0, 70), fc.constant(ed.sign(utf8('m'), seed)));

  it.each(ENGINES)(
    '%s',
    async (engine) => {
      await fc.assert(
        fc.asyncProperty(keyArb, bytes(0, 64), sigArb, async (key, msg, sig) => {
          const r = await verifyEd25519(key, msg, sig, { engine });
          return typeof r.valid === 'boolean';
        }),
        fuzzParams(300, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );

  it(
    'random 32-byte keys and signatures: both engines agree, and reject',
    async () => {
      await fc.assert(
        fc.asyncProperty(bytes(32, 32), bytes(64, 64), async (key, sig) => {
          return (await bothEngines(key, utf8('x'), sig)).valid === false;
        }),
        fuzzParams(200, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );
});

type Case = { key: Uint8Array; msg: Uint8Array; sig: Uint8Array; how: string };

const torsion = fc.integer({ min: 1, max: 7 }).map((i) => T8.multiply(BigInt(i), false));
const smallOrderEncoding = fc.constantFrom(...[...SMALL_ORDER_ENCODINGS].map((h) => ed.etc.hexToBytes(h)));
const flip = (b: Uint8Array, bit: number) => {
  const c = b.slice();
  c[Math.floor(bit / 8) % c.length]! ^= 1 << (bit % 8);
  return c;
};

const signedCase: fc.Arbitrary<Case> = fc
  .tuple(bytes(32, 32), bytes(0, 80), fc.nat(1 << 12), fc.nat(7), torsion, smallOrderEncoding, bytes(32, 32))
  .map(([seed, msg, bit, pick, t, small, noise]): Case => {
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

describe('differential: verifyEd25519 vs @noble/ed25519 (zip215: false)', () => {
  it(
    'accepts only what noble accepts; refuses what noble accepts only under the stricter rules',
    async () => {
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(signedCase, async ({ key, msg, sig, how }) => {
          const ours = await bothEngines(key, msg, sig);
          const reference = nobleStrict(key, msg, sig);
          if (ours.valid) expect(reference, `${how}: ours accepted what noble refuses`).toBe(true);
          else if (reference) {
            expect(STRICTER, `${how}: noble accepts, ours says ${ours.reason}`).toContain(ours.reason);
            seen.add(how);
          }
          if (how === 'honest') expect(ours).toEqual({ valid: true });
          else if (how.endsWith('flipped') || how === 'other message' || how === 'S + L') expect(ours.valid).toBe(false);
          else if (how === 'small-order key') expect(ours).toEqual({ valid: false, reason: 'small_order_key' }); // noble refuses it too
        }),
        fuzzParams(200, { caseTimeoutMs: 60_000 }),
      );
      // The mixed-order forgeries must really pass noble's cofactored equation, or this compared nothing.
      for (const how of ['mixed-order R', 'mixed-order key']) expect([...seen]).toContain(how);
    },
    fuzzTimeout(),
  );
});
