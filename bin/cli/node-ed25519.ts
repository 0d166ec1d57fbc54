// The command line's Ed25519 engine: node:crypto (OpenSSL) behind lib/crypto's
// injection point (lib/crypto/ed25519-backend.ts), on cached KeyObjects. In a
// verify thread, a synchronous verify skips WebCrypto's promise and WebIDL
// glue and its hop to libuv's thread pool (about 10% less CPU per receipt);
// on the main thread the hop is kept, so the main thread is not the one doing
// OpenSSL's work (measured: bin/cli/README.md). The strict rules of
// spec/verification.md §4 stay in lib and run around both unchanged, and
// lib's probe (with its cofactor probe vector) decides whether each is used.
import { Buffer } from 'node:buffer';
import { type KeyObject, createPublicKey, verify } from 'node:crypto';
import { BoundedCache } from '../../lib/crypto/bounded-cache';
import { type Ed25519Backend, registerEd25519Backend } from '../../lib/crypto/ed25519';

/** The DER SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410), before the 32 key bytes. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Imported keys, bounded because keys come from the input (as WebCrypto's CryptoKeys are). */
const keys = new BoundedCache<string, KeyObject>(4096);

function keyObject(publicKey: Uint8Array, keyHex: string): KeyObject {
  let key = keys.get(keyHex);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    keys.set(keyHex, key);
  }
  return key;
}

/** node:crypto's Ed25519 as an engine (`node`), synchronous: for worker threads, which are the parallelism. */
export const nodeEd25519: Ed25519Backend = Object.freeze({
  name: 'node',
  verify: (publicKey: Uint8Array, keyHex: string, message: Uint8Array, signature: Uint8Array): boolean =>
    verify(null, message, keyObject(publicKey, keyHex), signature),
});

/**
 * The same on libuv's thread pool (`crypto.verify` with a callback, `node-pool`): for the main
 * thread, which parses and hashes the next receipts meanwhile, as it did beside WebCrypto.
 */
export const nodeEd25519Pooled: Ed25519Backend = Object.freeze({
  name: 'node-pool',
  verify: (publicKey: Uint8Array, keyHex: string, message: Uint8Array, signature: Uint8Array): Promise<boolean> =>
    new Promise<boolean>((resolve, reject) => {
      verify(null, message, keyObject(publicKey, keyHex), signature, (error, ok) => (error ? reject(error) : resolve(ok)));
    }),
});

/**
 * Makes node:crypto the engine of this thread's `auto` verifications (idempotent): the pooled
 * form on the main thread, the synchronous one in a verify thread.
 */
export function registerNodeEd25519(thread: 'main' | 'worker'): void {
  registerEd25519Backend(thread === 'main' ? nodeEd25519Pooled : nodeEd25519);
}
