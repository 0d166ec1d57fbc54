// SHA-256 (FIPS 180-4), synchronous: WebCrypto's digest is async, and awaiting
// it per Merkle node or per receipt costs more than the hash. The work is done
// by hash-wasm's WebAssembly SHA-256 (about 2.5x @noble/hashes on a 1.4 KB
// receipt) once `sha256Ready()` has settled; before that, and wherever
// WebAssembly cannot be compiled, by @noble/hashes. Both are the same
// function: the choice changes speed, never a digest.
import { createSHA256, type IHasher } from 'hash-wasm';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8 } from '../bytes/hex';

/** The one-shot hasher, and spares for incremental hashes (files streamed in chunks). */
let oneShot: IHasher | null = null;
const spares: IHasher[] = [];
const SPARES = 4;
let ready: Promise<boolean> | null = null;

/**
 * Compiles the WebAssembly hasher (once per realm). Resolves to whether it is
 * in use; never rejects. Workers and the command line await it before they
 * start; until it settles everything still hashes, only slower.
 */
export function sha256Ready(): Promise<boolean> {
  ready ??= (async () => {
    try {
      const made = await Promise.all(Array.from({ length: 1 + SPARES }, () => createSHA256()));
      spares.push(...made.slice(1));
      oneShot = made[0]!;
      return true;
    } catch {
      return false;
    }
  })();
  return ready;
}
void sha256Ready();

/** SHA-256 digest of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  const h = oneShot;
  if (!h) return nobleSha256(bytes);
  h.init();
  h.update(bytes);
  return h.digest('binary');
}

/** Lowercase hex SHA-256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  const h = oneShot;
  if (!h) return toHex(nobleSha256(bytes));
  h.init();
  h.update(bytes);
  return h.digest('hex');
}

/** Lowercase hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256HexOfText(text: string): string {
  return sha256Hex(utf8(text));
}

export interface IncrementalHash {
  update(chunk: Uint8Array): void;
  /** Finishes the hash; the object must not be used afterwards. */
  digest(): Uint8Array;
}

/**
 * An incremental SHA-256 for data that arrives in chunks (package files). It
 * holds a hasher of its own until `digest`, so one-shot hashes may run between
 * its chunks.
 */
export function createSha256(): IncrementalHash {
  const wasm = spares.pop();
  if (!wasm) {
    const h = nobleSha256.create();
    return { update: (chunk) => void h.update(chunk), digest: () => h.digest() };
  }
  wasm.init();
  let done = false;
  return {
    update(chunk) {
      if (done) throw new Error('createSha256: update after digest');
      wasm.update(chunk);
    },
    digest() {
      if (done) throw new Error('createSha256: digest called twice');
      done = true;
      const out = wasm.digest('binary');
      spares.push(wasm);
      return out;
    },
  };
}
