// SHA-256 (FIPS 180-4). Two forms: a synchronous one (@noble/hashes) for the
// many small inputs of Merkle trees, where awaiting WebCrypto per node is more
// than 10x slower, and an incremental hasher for streaming whole files.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8 } from '../bytes/hex';

/** SHA-256 digest of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

/** Lowercase hex SHA-256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return toHex(nobleSha256(bytes));
}

/** Lowercase hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256HexOfText(text: string): string {
  return toHex(nobleSha256(utf8(text)));
}

export interface IncrementalHash {
  update(chunk: Uint8Array): void;
  /** Finishes the hash; the object must not be used afterwards. */
  digest(): Uint8Array;
}

/** An incremental SHA-256 for data that arrives in chunks (package files). */
export function createSha256(): IncrementalHash {
  const h = nobleSha256.create();
  return {
    update(chunk) {
      h.update(chunk);
    },
    digest() {
      return h.digest();
    },
  };
}
