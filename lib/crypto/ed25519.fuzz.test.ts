// Fuzz: verifyEd25519 (both engines) never throws on any bytes, and against @noble/ed25519 with
// zip215: false on structurally valid inputs (32-byte key, 64-byte signature): ours accepts only
// what noble accepts, and refuses what noble accepts only under the stricter rules of
// spec/verification.md §4 (small-order or mixed-order key or R). Inputs are honest signatures,
// mutated, plus forgeries that pass noble's cofactored equation (mixed-order R or key) and one it
// refuses too (a small-order key).
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8 } from '../bytes/hex';
import { type Ed25519Result, verifyEd25519 } from './ed25519';
import { signedCase } from '../../test/support/ed25519-forge';
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
