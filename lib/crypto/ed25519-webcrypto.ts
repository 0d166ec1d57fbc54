// The WebCrypto `Ed25519` engine for spec/verification.md §4: a one-time
// capability probe and a bounded cache of imported keys. The only module of
// the Ed25519 code that touches `globalThis.crypto.subtle` for verification.
import { fromHex } from '../bytes/hex';
import { BoundedCache, cachedLoad } from './bounded-cache';
import { asBufferSource } from './buffer-source';

/**
 * What the probe found. `cofactorless` is the behaviour of BoringSSL,
 * OpenSSL, NSS/HACL* and dalek (Chromium, Node, Firefox). `cofactored` would
 * accept a signature whose R has a small-order component; the caller then
 * adds the torsion check on R that it also runs for noble.
 */
export type WebCryptoEd25519Support = 'cofactorless' | 'cofactored' | 'unavailable';

const ALG = { name: 'Ed25519' } as const;

/** RFC 8032 §7.1 TEST 1 (empty message). */
const RFC_TEST1 = {
  publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  message: '',
  signature: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
};

/**
 * A signature by the TEST 1 key whose R = rB + T, T of order 8 (S recomputed
 * for that R). It satisfies the cofactored equation but not the cofactorless
 * one, so it tells the two kinds of engine apart. Built with the test
 * "mixed-order R" construction in ed25519.test.ts, which re-checks it.
 */
export const COFACTOR_PROBE = {
  publicKey: RFC_TEST1.publicKey,
  message: '726563656970742d6175646974206564323535313920636f666163746f722070726f6265',
  signature: '5e7f5a88d4bf4b1adc40be6d88c8afc07138171f5261c0291e7b1e1de74c5205ac1baad160c7098dbc678521ee0d07551510fab2502741d8d1dbab127730b704',
};

let support: Promise<WebCryptoEd25519Support> | undefined;
const keys = new BoundedCache<string, Promise<CryptoKey>>(4096);

function subtle(): SubtleCrypto | undefined {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  return c?.subtle;
}

async function verifyHex(s: SubtleCrypto, v: { publicKey: string; message: string; signature: string }): Promise<boolean> {
  const key = await s.importKey('raw', asBufferSource(fromHex(v.publicKey)!), ALG, false, ['verify']);
  return s.verify(ALG, key, asBufferSource(fromHex(v.signature)!), asBufferSource(fromHex(v.message)!));
}

async function probe(): Promise<WebCryptoEd25519Support> {
  const s = subtle();
  if (!s) return 'unavailable';
  try {
    if (!(await verifyHex(s, RFC_TEST1))) return 'unavailable';
    // A one-bit change in S must fail, or the engine is not verifying at all.
    const tampered = { ...RFC_TEST1, signature: RFC_TEST1.signature.slice(0, 64) + '5e' + RFC_TEST1.signature.slice(66) };
    if (await verifyHex(s, tampered)) return 'unavailable';
    return (await verifyHex(s, COFACTOR_PROBE)) ? 'cofactored' : 'cofactorless';
  } catch {
    return 'unavailable'; // no Ed25519 in this engine (older Safari/Firefox, insecure context)
  }
}

/** Probes the engine once per process/page; every caller shares the one promise. */
export function webCryptoEd25519Support(): Promise<WebCryptoEd25519Support> {
  support ??= probe();
  return support;
}

function importKey(s: SubtleCrypto, publicKey: Uint8Array, keyHex: string): Promise<CryptoKey> {
  return cachedLoad(keys, keyHex, () => s.importKey('raw', asBufferSource(publicKey.slice()), ALG, false, ['verify']));
}

/**
 * WebCrypto's verdict on an already pre-checked key and signature. Throws
 * when the engine itself fails (no subtle, import error); callers fall back.
 */
export async function webCryptoVerifyEd25519(publicKey: Uint8Array, keyHex: string, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const s = subtle();
  if (!s) throw new Error('crypto.subtle is not available');
  const key = await importKey(s, publicKey, keyHex);
  return s.verify(ALG, key, asBufferSource(signature), asBufferSource(message));
}
