import { readFileSync } from 'node:fs';
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toHex, utf8 } from '../bytes/hex';
import { parseChioPublicKey, parseChioSignature, signatureAlgorithmOf, verifyChioSignature } from './chio-signature';

ed.hashes.sha512 = sha512;

const ED_KEY = 'fd1724385aa0c75b64fb78cd602fa1d991fdebf76b13c58ed702eac835e9f618';
const PQ_KEY = 'ab'.repeat(1952);
const PQ_SIG = 'cd'.repeat(3309);

describe('parseChioPublicKey', () => {
  it('bare hex is Ed25519; mixed case and 0x are accepted and normalized away', () => {
    for (const text of [ED_KEY, ED_KEY.toUpperCase(), '0x' + ED_KEY, '0x' + ED_KEY.slice(0, 10).toUpperCase() + ED_KEY.slice(10)]) {
      const r = parseChioPublicKey(text);
      expect(r.ok && r.key.algorithm === 'ed25519' && r.key.normalized).toBe(ED_KEY);
    }
  });

  it('rejects an ed25519: prefix, 0X, bad hex and wrong lengths', () => {
    expect(parseChioPublicKey('ed25519:' + ED_KEY)).toEqual({ ok: false, reason: 'bad_hex' });
    expect(parseChioPublicKey('0X' + ED_KEY)).toEqual({ ok: false, reason: 'bad_hex' });
    expect(parseChioPublicKey('0x0x' + ED_KEY)).toEqual({ ok: false, reason: 'bad_hex' });
    expect(parseChioPublicKey(ED_KEY.slice(2))).toEqual({ ok: false, reason: 'bad_length' });
    expect(parseChioPublicKey(ED_KEY + '0')).toEqual({ ok: false, reason: 'bad_hex' });
    expect(parseChioPublicKey('')).toEqual({ ok: false, reason: 'bad_length' });
    expect(parseChioPublicKey(42 as unknown as string)).toEqual({ ok: false, reason: 'not_a_string' });
  });

  it('p256:/p384: keys are uncompressed SEC1 of 65/97 bytes', () => {
    const p256 = '04' + '11'.repeat(64);
    expect(parseChioPublicKey('p256:0x' + p256.toUpperCase())).toMatchObject({ ok: true, key: { algorithm: 'p256', normalized: 'p256:' + p256 } });
    expect(parseChioPublicKey('p384:04' + '22'.repeat(96))).toMatchObject({ ok: true, key: { algorithm: 'p384' } });
    expect(parseChioPublicKey('p256:02' + '11'.repeat(64))).toEqual({ ok: false, reason: 'bad_sec1_prefix' });
    expect(parseChioPublicKey('p256:02' + '11'.repeat(32))).toEqual({ ok: false, reason: 'bad_length' });
    expect(parseChioPublicKey('p384:' + p256)).toEqual({ ok: false, reason: 'bad_length' });
    expect(parseChioPublicKey('P256:' + p256)).toEqual({ ok: false, reason: 'bad_hex' });
  });

  it('hybrid keys split from the right; the classical part may carry its own prefix', () => {
    const p256 = '04' + '11'.repeat(64);
    const r = parseChioPublicKey(`hybrid:p256:0x${p256}:${PQ_KEY.toUpperCase()}:p256+mldsa65`);
    expect(r.ok).toBe(true);
    if (r.ok && r.key.algorithm === 'hybrid') {
      expect(r.key.classical.algorithm).toBe('p256');
      expect(r.key.mldsaPublicKey.length).toBe(1952);
      expect(r.key.normalized).toBe(`hybrid:p256:${p256}:${PQ_KEY}:p256+mldsa65`);
    }
  });

  it('rejects malformed hybrid keys', () => {
    const cases: [string, string][] = [
      [`hybrid:${ED_KEY}:${PQ_KEY}:p256+mldsa65`, 'hybrid_alg_set_mismatch'],
      [`hybrid:${ED_KEY}:${PQ_KEY}:ED25519+MLDSA65`, 'hybrid_alg_set_mismatch'],
      [`hybrid:${ED_KEY}:${PQ_KEY}:`, 'bad_hybrid_format'],
      [`hybrid:${ED_KEY}:${PQ_KEY}`, 'bad_hybrid_format'],
      [`hybrid::${PQ_KEY}:ed25519+mldsa65`, 'bad_hybrid_format'],
      [`hybrid:${ED_KEY}:0x${PQ_KEY}:ed25519+mldsa65`, 'bad_hex'],
      [`hybrid:${ED_KEY}:${PQ_KEY.slice(2)}:ed25519+mldsa65`, 'bad_length'],
      [`hybrid:hybrid:${ED_KEY}:${PQ_KEY}:ed25519+mldsa65:${PQ_KEY}:ed25519+mldsa65`, 'hybrid_nested'],
      ['hybrid:', 'bad_hybrid_format'],
    ];
    for (const [text, reason] of cases) expect(parseChioPublicKey(text), text.slice(0, 40)).toEqual({ ok: false, reason });
  });
});

describe('parseChioSignature and signatureAlgorithmOf', () => {
  it('reads each algorithm from the prefix', () => {
    const edSig = 'aa'.repeat(64);
    expect(signatureAlgorithmOf(edSig)).toBe('ed25519');
    expect(signatureAlgorithmOf('0x' + edSig.toUpperCase())).toBe('ed25519');
    expect(signatureAlgorithmOf('p256:3006020101020101')).toBe('p256');
    expect(signatureAlgorithmOf('p384:3006020101020101')).toBe('p384');
    expect(signatureAlgorithmOf(`hybrid:${edSig}:${PQ_SIG}:ed25519+mldsa65`)).toBe('hybrid');
    expect(signatureAlgorithmOf('aa'.repeat(32))).toBeNull();
    expect(signatureAlgorithmOf('p256:zz')).toBeNull();
  });

  it('normalizes to lowercase without 0x; DER is left to verification', () => {
    const r = parseChioSignature('p256:0x30060201FF020101');
    expect(r.ok && r.signature.normalized).toBe('p256:30060201ff020101');
    const h = parseChioSignature(`hybrid:${'AA'.repeat(64)}:${PQ_SIG}:ed25519+mldsa65`);
    expect(h.ok && h.signature.normalized).toBe(`hybrid:${'aa'.repeat(64)}:${PQ_SIG}:ed25519+mldsa65`);
    expect(parseChioSignature(`hybrid:${'aa'.repeat(64)}:${PQ_KEY}:ed25519+mldsa65`)).toEqual({ ok: false, reason: 'bad_length' });
  });
});

describe('gen-a-upstream signing vectors (v1.json)', () => {
  const file = JSON.parse(readFileSync(new URL('../testdata/chio/gen-a-upstream/tests/bindings/vectors/signing/v1.json', import.meta.url), 'utf8')) as {
    signing_key_seed_hex: string;
    utf8_cases: { id: string; input_utf8: string; public_key_hex: string; signature_hex: string; expected_verify: boolean }[];
    json_cases: { id: string; canonical_json: string; public_key_hex: string; signature_hex: string; expected_verify: boolean }[];
  };
  const cases = [
    ...file.utf8_cases.map((c) => ({ ...c, message: utf8(c.input_utf8) })),
    ...file.json_cases.map((c) => ({ ...c, message: utf8(c.canonical_json) })),
  ];

  it('the public key is the one of signing_key_seed_hex', () => {
    const pk = toHex(ed.getPublicKey(Uint8Array.from(Buffer.from(file.signing_key_seed_hex, 'hex'))));
    for (const c of cases) expect(c.public_key_hex).toBe(pk);
  });

  it.each(['webcrypto', 'noble'] as const)('%s: every case matches expected_verify', async (engine) => {
    const failures: string[] = [];
    for (const c of cases) {
      const r = await verifyChioSignature(c.public_key_hex, c.signature_hex, c.message, { ed25519Engine: engine });
      if ((r.status === 'pass') !== c.expected_verify) failures.push(`${c.id}: ${JSON.stringify(r)}`);
    }
    expect(failures, `${cases.length - failures.length} of ${cases.length} matched\n${failures.join('\n')}`).toEqual([]);
    expect(cases.length).toBe(4);
  });
});

describe('verifyChioSignature', () => {
  afterEach(() => vi.restoreAllMocks());
  const seed = new Uint8Array(32).fill(3);
  const key = toHex(ed.getPublicKey(seed));
  const message = utf8('{"a":1}');
  const sig = toHex(ed.sign(message, seed));

  it('Ed25519 pass and fail carry the algorithm and the strict-rule reason', async () => {
    expect(await verifyChioSignature('0x' + key.toUpperCase(), sig, message)).toEqual({ status: 'pass', algorithm: 'ed25519' });
    expect(await verifyChioSignature(key, sig, utf8('{"a":2}'))).toEqual({ status: 'fail', algorithm: 'ed25519', reason: 'bad_signature' });
    const smallOrderKey = 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa';
    expect(await verifyChioSignature(smallOrderKey, sig, message)).toEqual({ status: 'fail', algorithm: 'ed25519', reason: 'small_order_key' });
  });

  it('malformed inputs and algorithm mismatches fail', async () => {
    expect(await verifyChioSignature(key, 'nope', message)).toEqual({ status: 'fail', reason: 'malformed_signature', detail: 'bad_hex' });
    expect(await verifyChioSignature('nope', sig, message)).toEqual({ status: 'fail', algorithm: 'ed25519', reason: 'malformed_key', detail: 'bad_hex' });
    expect(await verifyChioSignature(key, 'p256:3006020101020101', message)).toEqual({
      status: 'fail',
      algorithm: 'p256',
      reason: 'key_signature_algorithm_mismatch',
    });
  });

  it('P-256 and P-384 pass; strict DER failures are reported', async () => {
    for (const [curve, hash] of [
      ['P-256', 'sha256'],
      ['P-384', 'sha384'],
    ] as const) {
      const prefix = curve === 'P-256' ? 'p256' : 'p384';
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: curve });
      const jwk = publicKey.export({ format: 'jwk' });
      const sec1 = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]).toString('hex');
      const der = nodeSign(hash, message, { key: privateKey, dsaEncoding: 'der' }).toString('hex');
      expect(await verifyChioSignature(`${prefix}:${sec1}`, `${prefix}:${der}`, message)).toEqual({ status: 'pass', algorithm: prefix });
      expect(await verifyChioSignature(`${prefix}:${sec1}`, `${prefix}:${der}00`, message)).toEqual({ status: 'fail', algorithm: prefix, reason: 'bad_der' });
    }
  });
});

describe('an engine without ECDSA', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives skipped (ecdsa_unsupported), never pass or fail', async () => {
    const message = utf8('m');
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const sec1 = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]).toString('hex');
    const der = nodeSign('sha256', message, { key: privateKey, dsaEncoding: 'der' }).toString('hex');
    vi.spyOn(crypto.subtle, 'importKey').mockRejectedValue(new DOMException('P-256 not supported', 'NotSupportedError'));
    expect(await verifyChioSignature(`p256:${sec1}`, `p256:${der}`, message)).toEqual({
      status: 'skipped',
      algorithm: 'p256',
      reason: 'ecdsa_unsupported',
    });
  });
});

describe('never throws on arbitrary input (fast-check)', () => {
  const hexish = fc.stringMatching(/^(0x)?[0-9a-fA-F]{0,200}$/);
  const wire = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    hexish,
    fc.tuple(fc.constantFrom('p256:', 'p384:', 'hybrid:', 'P256:', ''), hexish).map(([p, h]) => p + h),
    fc
      .tuple(fc.constantFrom('', 'p256:', 'hybrid:'), hexish, hexish, fc.constantFrom('ed25519+mldsa65', 'p256+mldsa65', 'x', ''))
      .map(([p, a, b, s]) => `hybrid:${p}${a}:${b}:${s}`),
  );

  it('parseChioPublicKey / parseChioSignature / signatureAlgorithmOf', () => {
    fc.assert(
      fc.property(fc.oneof(wire, fc.anything()), (text) => {
        const k = parseChioPublicKey(text as string);
        const s = parseChioSignature(text as string);
        signatureAlgorithmOf(text as string);
        return typeof k.ok === 'boolean' && typeof s.ok === 'boolean';
      }),
      { numRuns: 2000 },
    );
  });

  it('verifyChioSignature', async () => {
    const edKey = fc.constant(toHex(ed.getPublicKey(new Uint8Array(32).fill(1))));
    await fc.assert(
      fc.asyncProperty(fc.oneof(wire, edKey), fc.oneof(wire, fc.constant('ab'.repeat(64))), fc.uint8Array({ maxLength: 64 }), async (k, s, m) => {
        const r = await verifyChioSignature(k, s, m);
        return r.status === 'pass' || r.status === 'fail' || r.status === 'skipped';
      }),
      { numRuns: 500 },
    );
  });
});
