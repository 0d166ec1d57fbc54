// The WebCrypto `Ed25519` engine for spec/verification.md §4, as an
// Ed25519Backend (ed25519-backend.ts probes it): a bounded cache of imported
// keys. The only module of the Ed25519 code that touches
// `globalThis.crypto.subtle` for verification.
import { BoundedCache, cachedLoad } from './bounded-cache';
import { asBufferSource } from './buffer-source';
import { type Ed25519Backend, type Ed25519Support, ed25519Support } from './ed25519-backend';

/** What the probe found for WebCrypto (the same kinds as for every backend). */
export type WebCryptoEd25519Support = Ed25519Support;

const ALG = { name: 'Ed25519' } as const;

const keys = new BoundedCache<string, Promise<CryptoKey>>(4096);

function subtle(): SubtleCrypto | undefined {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  return c?.subtle;
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

/** WebCrypto as an engine: present in browsers, Web Workers and Node. */
export const webCryptoEd25519: Ed25519Backend = Object.freeze({ name: 'webcrypto', verify: webCryptoVerifyEd25519 });

/** Probes WebCrypto once per process/page; every caller shares the one promise. */
export function webCryptoEd25519Support(): Promise<WebCryptoEd25519Support> {
  return ed25519Support(webCryptoEd25519);
}
