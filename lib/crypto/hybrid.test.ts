import { readFileSync } from 'node:fs';
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { toHex, utf8 } from '../bytes/hex';
import { sha256HexOfText } from './sha256';
import { parseChioPublicKey, verifyChioSignature } from './chio-signature';
import { verifyHybrid, type HybridPublicKeyParts, type HybridSignatureParts } from './hybrid';

ed.hashes.sha512 = sha512;

const golden = JSON.parse(
  readFileSync(new URL('../testdata/chio/gen-b-upstream/crates/chio-core/tests/golden/hybrid_signature_v1.json', import.meta.url), 'utf8'),
) as {
  message: string;
  alg_set: string;
  classical_seed_hex: string;
  pq_seed_hex: string;
  public_key_sha256: string;
  canonical_public_key_json_sha256: string;
};

const seedOf = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const edSeed = seedOf(golden.classical_seed_hex);
const edPublicKey = ed.getPublicKey(edSeed);
const mldsa = ml_dsa65.keygen(seedOf(golden.pq_seed_hex));
const keyString = `hybrid:${toHex(edPublicKey)}:${toHex(mldsa.publicKey)}:${golden.alg_set}`;
const message = utf8(golden.message);

function hybridSignature(msg: Uint8Array, tamper: 'none' | 'classical' | 'pq' = 'none'): string {
  const classical = ed.sign(msg, edSeed);
  const pq = ml_dsa65.sign(msg, mldsa.secretKey); // pure ML-DSA, empty context (the default)
  if (tamper === 'classical') classical[40]! ^= 1; // in S, which stays < L
  if (tamper === 'pq') pq[100]! ^= 1;
  return `hybrid:${toHex(classical)}:${toHex(pq)}:${golden.alg_set}`;
}

describe('golden hybrid_signature_v1.json (Gen B upstream)', () => {
  it('the key string derived from the seeds hashes to public_key_sha256', () => {
    // Ed25519 seed 11…11 → bare hex key; ML-DSA-65 KeyGen_internal(ξ = 22…22).
    expect(sha256HexOfText(keyString)).toBe(golden.public_key_sha256);
  });

  it('its JSON serialization (a quoted string) hashes to canonical_public_key_json_sha256', () => {
    expect(sha256HexOfText(JSON.stringify(keyString))).toBe(golden.canonical_public_key_json_sha256);
  });

  it('parses, and normalizes to itself', () => {
    const parsed = parseChioPublicKey(keyString);
    expect(parsed.ok && parsed.key.normalized).toBe(keyString);
    const shouty = `hybrid:0x${toHex(edPublicKey).toUpperCase()}:${toHex(mldsa.publicKey)}:${golden.alg_set}`;
    const again = parseChioPublicKey(shouty);
    expect(again.ok && again.key.normalized).toBe(keyString);
  });
});

describe('hybrid signatures through verifyChioSignature', () => {
  const good = hybridSignature(message);

  it.each(['webcrypto', 'noble'] as const)('both halves valid: pass (%s)', async (engine) => {
    expect(await verifyChioSignature(keyString, good, message, { ed25519Engine: engine })).toEqual({ status: 'pass', algorithm: 'hybrid' });
  });

  it('tampered classical half: fail', async () => {
    const r = await verifyChioSignature(keyString, hybridSignature(message, 'classical'), message);
    expect(r).toEqual({ status: 'fail', algorithm: 'hybrid', reason: 'classical_failed', detail: 'bad_signature' });
  });

  it('tampered ML-DSA half: fail', async () => {
    const r = await verifyChioSignature(keyString, hybridSignature(message, 'pq'), message);
    expect(r).toEqual({ status: 'fail', algorithm: 'hybrid', reason: 'mldsa_bad_signature' });
  });

  it('other message: fail', async () => {
    expect((await verifyChioSignature(keyString, good, utf8('m03 hybrid canonical round trip!'))).status).toBe('fail');
  });

  it('ML-DSA unavailable: skipped, never pass', async () => {
    const loadMlDsa65 = () => Promise.reject(new Error('ML-DSA chunk failed to load'));
    const r = await verifyChioSignature(keyString, good, message, { loadMlDsa65 });
    expect(r).toMatchObject({ status: 'skipped', algorithm: 'hybrid', reason: 'mldsa_unavailable' });
    const throwing = () =>
      Promise.resolve(() => {
        throw new Error('boom');
      });
    expect(await verifyChioSignature(keyString, good, message, { loadMlDsa65: throwing })).toMatchObject({ status: 'skipped', reason: 'mldsa_unavailable' });
  });

  it('ML-DSA unavailable but the classical half fails: fail, not skipped', async () => {
    const loadMlDsa65 = () => Promise.reject(new Error('unavailable'));
    const r = await verifyChioSignature(keyString, hybridSignature(message, 'classical'), message, { loadMlDsa65 });
    expect(r.status).toBe('fail');
  });

  it('a hybrid signature under a plain Ed25519 key (and the reverse) is an algorithm mismatch', async () => {
    expect(await verifyChioSignature(toHex(edPublicKey), good, message)).toEqual({
      status: 'fail',
      algorithm: 'hybrid',
      reason: 'key_signature_algorithm_mismatch',
    });
    expect(await verifyChioSignature(keyString, toHex(ed.sign(message, edSeed)), message)).toEqual({
      status: 'fail',
      algorithm: 'ed25519',
      reason: 'key_signature_algorithm_mismatch',
    });
  });

  it('P-256 + ML-DSA-65 (classical part carries its own `p256:` prefix)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const sec1 = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    const key = `hybrid:p256:${sec1.toString('hex')}:${toHex(mldsa.publicKey)}:p256+mldsa65`;
    const der = nodeSign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
    const sig = `hybrid:p256:${der.toString('hex')}:${toHex(ml_dsa65.sign(message, mldsa.secretKey))}:p256+mldsa65`;
    expect(await verifyChioSignature(key, sig, message)).toEqual({ status: 'pass', algorithm: 'hybrid' });
    // Same parts under the Ed25519 hybrid key: the alg sets differ.
    expect(await verifyChioSignature(keyString, sig, message)).toMatchObject({ status: 'fail', reason: 'alg_set_mismatch' });
  });
});

describe('verifyHybrid on parts', () => {
  const sig = ed.sign(message, edSeed);
  const pq = ml_dsa65.sign(message, mldsa.secretKey);
  const key: HybridPublicKeyParts = { classical: { algorithm: 'ed25519', bytes: edPublicKey }, mldsaPublicKey: mldsa.publicKey, algSet: 'ed25519+mldsa65' };
  const signature: HybridSignatureParts = { classical: { algorithm: 'ed25519', bytes: sig }, mldsaSignature: pq, algSet: 'ed25519+mldsa65' };

  it('passes, and rejects an alg_set that does not name the classical algorithm', async () => {
    expect(await verifyHybrid(key, signature, message)).toEqual({ status: 'pass' });
    expect(await verifyHybrid({ ...key, algSet: 'p256+mldsa65' }, { ...signature, algSet: 'p256+mldsa65' }, message)).toEqual({
      status: 'fail',
      reason: 'alg_set_mismatch',
    });
  });

  it('wrong ML-DSA lengths fail before loading ML-DSA', async () => {
    const neverLoad = () => Promise.reject(new Error('must not load'));
    const short = { ...signature, mldsaSignature: pq.subarray(1) };
    expect(await verifyHybrid(key, short, message, { loadMlDsa65: neverLoad })).toEqual({ status: 'fail', reason: 'mldsa_bad_length' });
  });
});
