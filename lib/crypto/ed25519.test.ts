import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { concatBytes, fromHex, toHex, utf8 } from '../bytes/hex';
import { activeEd25519Engine, classifyR, ed25519Support, precheckEd25519, registerEd25519Backend, verifyEd25519, type Ed25519Backend } from './ed25519';
import { SMALL_ORDER_ENCODINGS, decodeCanonicalPoint } from './ed25519-precheck';
import { COFACTOR_PROBE } from './ed25519-backend';
import { T8, bigToLe32, signWithTorsionR } from '../../test/support/ed25519-forge';
import { fuzzParams } from '../../test/support/fuzz';

ed.hashes.sha512 = sha512;
const { Point } = ed;
const ENGINES = ['webcrypto', 'noble'] as const;

describe('mixed-order R with a torsion-free key', () => {
  const seed = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')!; // RFC 8032 TEST 1
  const message = utf8('receipt-audit ed25519 cofactor probe');
  const { publicKey, signature } = signWithTorsionR(seed, message, T8);
  const R = Point.fromBytes(signature.subarray(0, 32));

  it('is built as intended: T has order 8, A is torsion-free, R is mixed-order', () => {
    expect(T8.isSmallOrder() && !T8.double().double().is0()).toBe(true);
    const A = Point.fromBytes(publicKey);
    expect(A.isTorsionFree() && !A.isSmallOrder()).toBe(true);
    expect(R.isSmallOrder()).toBe(false);
    expect(R.isTorsionFree()).toBe(false);
  });

  it("passes noble's cofactored equation (zip215: false) and fails raw WebCrypto", async () => {
    expect(ed.verify(signature, message, publicKey, { zip215: false })).toBe(true);
    const key = await crypto.subtle.importKey('raw', new Uint8Array(publicKey), { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify({ name: 'Ed25519' }, key, new Uint8Array(signature), new Uint8Array(message))).toBe(false);
  });

  it('passes the pre-checks (R is not small-order), so only the cofactor rule can reject it', () => {
    expect(precheckEd25519(publicKey, signature).ok).toBe(true);
  });

  it.each(ENGINES)('is rejected by verifyEd25519 on %s with r_not_in_prime_subgroup', async (engine) => {
    expect(await verifyEd25519(publicKey, message, signature, { engine })).toEqual({ valid: false, reason: 'r_not_in_prime_subgroup' });
  });

  it('is the probe vector embedded in ed25519-backend.ts', () => {
    expect(toHex(publicKey)).toBe(COFACTOR_PROBE.publicKey);
    expect(toHex(message)).toBe(COFACTOR_PROBE.message);
    expect(toHex(signature)).toBe(COFACTOR_PROBE.signature);
  });

  it('an injected cofactored engine (noble) is probed as such and gets the explicit R check', async () => {
    const cofactored: Ed25519Backend = { name: 'cofactored', verify: (key, _hex, msg, sig) => ed.verify(sig, msg, key, { zip215: false }) };
    expect(await ed25519Support(cofactored)).toBe('cofactored');
    expect(await verifyEd25519(publicKey, message, signature, { engine: cofactored })).toEqual({ valid: false, reason: 'r_not_in_prime_subgroup' });
    registerEd25519Backend(cofactored);
    try {
      expect(await activeEd25519Engine()).toBe('cofactored');
      expect(await verifyEd25519(publicKey, message, signature)).toEqual({ valid: false, reason: 'r_not_in_prime_subgroup' });
    } finally {
      registerEd25519Backend(null);
    }
  });

  it('an honest signature by the same key passes on both engines', async () => {
    const good = ed.sign(message, seed);
    for (const engine of ENGINES) expect(await verifyEd25519(publicKey, message, good, { engine })).toEqual({ valid: true });
  });
});

describe('R checks: bytes first, square root later, same verdict as full decoding', () => {
  const seed = new Uint8Array(32).fill(5);
  const key = ed.getPublicKey(seed);
  const P = 2n ** 255n - 19n;

  /** Reference: the R rules by strict decoding alone. */
  const reference = (r: Uint8Array) => {
    const pt = decodeCanonicalPoint(r);
    if (pt === null) return 'noncanonical_r';
    if (pt.isSmallOrder()) return 'small_order_r';
    return pt.isTorsionFree() ? null : 'r_not_in_prime_subgroup';
  };
  const split = (r: Uint8Array) => {
    const pre = precheckEd25519(key, concatBytes(r, new Uint8Array(32)));
    return pre.ok ? classifyR(r) : pre.reason;
  };
  const withSign = (b: Uint8Array) => {
    const c = b.slice();
    c[31]! ^= 0x80;
    return c;
  };

  it('lists exactly the eight small-order points', () => {
    expect(SMALL_ORDER_ENCODINGS.size).toBe(8);
    for (const h of SMALL_ORDER_ENCODINGS) expect(Point.fromHex(h).isSmallOrder()).toBe(true);
    expect(SMALL_ORDER_ENCODINGS.has('0100000000000000000000000000000000000000000000000000000000000000')).toBe(true);
    expect(SMALL_ORDER_ENCODINGS.has('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f')).toBe(true);
  });

  it('agrees on edge encodings: small-order points, sign flips, y >= p, y + p, mixed-order points', () => {
    const cases: Uint8Array[] = [];
    for (const h of SMALL_ORDER_ENCODINGS) cases.push(fromHex(h)!, withSign(fromHex(h)!));
    for (let y = 0n; y < 40n; y++) cases.push(bigToLe32(y), bigToLe32(P + y > 2n ** 255n - 1n ? y : P + y), bigToLe32(P - 1n - y));
    for (let i = 1n; i < 8n; i++) {
      const mixed = Point.BASE.multiply(1000n + i)
        .add(T8.multiply(i, false))
        .toBytes();
      cases.push(mixed, withSign(mixed), Point.BASE.multiply(1000n + i).toBytes());
    }
    const all = [...cases, ...cases.map(withSign)];
    const failures = all.filter((r) => reference(r) !== split(r)).map((r) => `${toHex(r)}: ${reference(r)} vs ${split(r)}`);
    expect(failures, `${all.length - failures.length} of ${all.length} agree\n${failures.join('\n')}`).toEqual([]);
  });

  it('agrees on random bytes (fast-check)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (r) => reference(r) === split(r)),
      fuzzParams(500),
    );
  });
});

describe('verifyEd25519 API', () => {
  const seed = new Uint8Array(32).fill(7);
  const publicKey = ed.getPublicKey(seed);
  const message = utf8('hello');
  const signature = ed.sign(message, seed);

  afterEach(() => vi.restoreAllMocks());

  it('auto uses WebCrypto on Node 20', async () => {
    expect(await activeEd25519Engine()).toBe('webcrypto');
    expect(await verifyEd25519(publicKey, message, signature)).toEqual({ valid: true });
  });

  it.each(ENGINES)('%s: wrong lengths are bad_length, tampering is bad_signature', async (engine) => {
    expect(await verifyEd25519(publicKey.subarray(1), message, signature, { engine })).toEqual({ valid: false, reason: 'bad_length' });
    expect(await verifyEd25519(publicKey, message, signature.subarray(0, 63), { engine })).toEqual({ valid: false, reason: 'bad_length' });
    expect(await verifyEd25519(publicKey, utf8('hellp'), signature, { engine })).toEqual({ valid: false, reason: 'bad_signature' });
  });

  it('throws only on API misuse', async () => {
    await expect(verifyEd25519('00' as unknown as Uint8Array, message, signature)).rejects.toThrow(TypeError);
    await expect(verifyEd25519(publicKey, message, signature, { engine: 'openssl' as 'noble' })).rejects.toThrow(TypeError);
  });

  it('does not serialize: 64 calls reach crypto.subtle.verify together', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const original = crypto.subtle.verify.bind(crypto.subtle);
    vi.spyOn(crypto.subtle, 'verify').mockImplementation(async (...args: Parameters<SubtleCrypto['verify']>) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        return await original(...args);
      } finally {
        inFlight--;
      }
    });
    const results = await Promise.all(Array.from({ length: 64 }, () => verifyEd25519(publicKey, message, signature, { engine: 'webcrypto' })));
    expect(results.every((r) => r.valid)).toBe(true);
    expect(maxInFlight).toBe(64);
  });
});
