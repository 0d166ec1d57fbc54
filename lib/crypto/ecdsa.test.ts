import { generateKeyPairSync, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8 } from '../bytes/hex';
import { derToP1363, isValidSec1Key, verifyEcdsa, type EcdsaCurve } from './ecdsa';

const PARAMS = {
  p256: { nodeCurve: 'P-256', hash: 'sha256', size: 32, n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n },
  p384: {
    nodeCurve: 'P-384',
    hash: 'sha384',
    size: 48,
    n: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  },
} as const;

const b64url = (s: string) => new Uint8Array(Buffer.from(s, 'base64url'));

function rawKey(publicKey: KeyObject, size: number): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const out = new Uint8Array(1 + 2 * size);
  out[0] = 4;
  out.set(b64url(jwk.x!), 1);
  out.set(b64url(jwk.y!), 1 + size);
  return out;
}

const bigToBytes = (n: bigint): number[] => {
  const out: number[] = [];
  while (n > 0n) {
    out.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return out;
};
/** Minimal DER INTEGER content for a non-negative value. */
const intBody = (n: bigint): number[] => {
  const b = bigToBytes(n);
  if (b.length === 0) return [0];
  return b[0]! & 0x80 ? [0, ...b] : b;
};
const derInt = (body: number[]) => [0x02, body.length, ...body];
const derSeq = (content: number[]) => new Uint8Array([0x30, content.length, ...content]);
const der = (r: bigint, s: bigint) => derSeq([...derInt(intBody(r)), ...derInt(intBody(s))]);

function splitP1363(sig: Uint8Array, size: number): [bigint, bigint] {
  const toBig = (b: Uint8Array) => b.reduce((n, x) => (n << 8n) | BigInt(x), 0n);
  return [toBig(sig.subarray(0, size)), toBig(sig.subarray(size))];
}

for (const curve of ['p256', 'p384'] as EcdsaCurve[]) {
  describe(curve, () => {
    const P = PARAMS[curve];
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: P.nodeCurve });
    const key = rawKey(publicKey, P.size);
    const message = utf8(`a ${curve} receipt`);
    const derSig = new Uint8Array(nodeSign(P.hash, message, { key: privateKey, dsaEncoding: 'der' }));
    const [r, s] = splitP1363(new Uint8Array(nodeSign(P.hash, message, { key: privateKey, dsaEncoding: 'ieee-p1363' })), P.size);

    it('node:crypto DER signatures pass; a tampered message fails', async () => {
      expect(await verifyEcdsa(curve, key, message, derSig)).toEqual({ valid: true });
      expect(await verifyEcdsa(curve, key, message, der(r, s))).toEqual({ valid: true });
      expect(await verifyEcdsa(curve, key, utf8('another message'), derSig)).toEqual({ valid: false, reason: 'bad_signature' });
    });

    it('derToP1363 agrees with node:crypto on 50 fresh signatures', () => {
      for (let i = 0; i < 50; i++) {
        const sig = nodeSign(P.hash, message, { key: privateKey, dsaEncoding: 'der' });
        const p1363 = derToP1363(curve, new Uint8Array(sig));
        expect(p1363).not.toBeNull();
        expect(nodeVerify(P.hash, message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, p1363!)).toBe(true);
      }
    });

    it('the curve order n is right: (r, n - s) verifies in node:crypto and here (no low-S rule)', async () => {
      const high = der(r, P.n - s);
      expect(nodeVerify(P.hash, message, { key: publicKey, dsaEncoding: 'der' }, high)).toBe(true);
      expect(await verifyEcdsa(curve, key, message, high)).toEqual({ valid: true });
    });

    it('strict DER: every malformed variant is bad_der or bad_signature, never a throw or a pass', async () => {
      const rb = derInt(intBody(r));
      const sb = derInt(intBody(s));
      const content = [...rb, ...sb];
      const rRaw = bigToBytes(r);
      const negativeR = derInt([rRaw[0]! | 0x80, ...rRaw.slice(1)]); // top bit set, no 0x00 pad
      const variants: Record<string, Uint8Array> = {
        'non-minimal sequence length (0x81 < 128)': new Uint8Array([0x30, 0x81, content.length, ...content]),
        'indefinite length': new Uint8Array([0x30, 0x80, ...content, 0, 0]),
        'non-minimal integer (extra leading zero)': derSeq([0x02, rb[1]! + 1, 0x00, ...rb.slice(2), ...sb]),
        'negative r': derSeq([...negativeR, ...sb]),
        'trailing byte': new Uint8Array([...derSeq(content), 0x00]),
        'sequence length too long': new Uint8Array([0x30, content.length + 1, ...content, 0x02]),
        'r = 0': der(0n, s),
        's = 0': der(r, 0n),
        'r = n': der(P.n, s),
        'r = n + 1': der(P.n + 1n, s),
        'wrong sequence tag (SET)': new Uint8Array([0x31, content.length, ...content]),
        'wrong integer tag (BIT STRING)': derSeq([0x03, ...rb.slice(1), ...sb]),
        truncated: derSig.subarray(0, derSig.length - 1),
        empty: new Uint8Array(0),
        'only r': derSeq(rb),
        'three integers': derSeq([...content, 0x02, 0x01, 0x01]),
        'zero-length integer': derSeq([0x02, 0x00, ...sb]),
        'raw P1363 instead of DER': new Uint8Array([...bigToBytes(r), ...bigToBytes(s)]),
        'r and s swapped': der(s, r),
      };
      const failures: string[] = [];
      for (const [label, sig] of Object.entries(variants)) {
        try {
          const got = await verifyEcdsa(curve, key, message, sig);
          const expected = label === 'r and s swapped' ? 'bad_signature' : 'bad_der';
          if (got.valid || got.reason !== expected) failures.push(`${label}: ${JSON.stringify(got)}`);
        } catch (error) {
          failures.push(`${label}: threw ${String(error)}`);
        }
      }
      const n = Object.keys(variants).length;
      expect(failures, `${n - failures.length} of ${n} as expected\n${failures.join('\n')}`).toEqual([]);
    });

    it('bad keys are bad_key', async () => {
      const offCurve = key.slice();
      offCurve[offCurve.length - 1]! ^= 1;
      const compressed = key.slice();
      compressed[0] = 2;
      const xTooBig = key.slice();
      xTooBig.fill(0xff, 1, 1 + P.size);
      for (const bad of [offCurve, compressed, xTooBig, key.subarray(0, key.length - 1), new Uint8Array(0)]) {
        expect(await verifyEcdsa(curve, bad, message, derSig)).toEqual({ valid: false, reason: 'bad_key' });
      }
      expect(isValidSec1Key(curve, key)).toBe(true);
      expect(isValidSec1Key(curve === 'p256' ? 'p384' : 'p256', key)).toBe(false);
    });

    it('never throws on arbitrary keys, messages and signatures (fast-check)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.constant(key), fc.uint8Array({ maxLength: 100 })),
          fc.uint8Array({ maxLength: 40 }),
          fc.oneof(
            fc.constant(derSig),
            fc.uint8Array({ maxLength: 110 }),
            fc.uint8Array({ maxLength: 110 }).map((b) => new Uint8Array([0x30, b.length, ...b])),
          ),
          async (k, m, sig) => typeof (await verifyEcdsa(curve, k, m, sig)).valid === 'boolean',
        ),
        { numRuns: 300 },
      );
    });
  });
}

it('public keys are validated the same for 20 fresh keys per curve', () => {
  for (const curve of ['p256', 'p384'] as EcdsaCurve[]) {
    for (let i = 0; i < 20; i++) {
      const { publicKey } = generateKeyPairSync('ec', { namedCurve: PARAMS[curve].nodeCurve });
      expect(isValidSec1Key(curve, rawKey(publicKey, PARAMS[curve].size))).toBe(true);
    }
  }
});
