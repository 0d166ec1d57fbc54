// Merkle tree hashing of RFC 6962 §2.1 / RFC 9162 §2.1.1 (Chio spec §9.3):
// leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ left ‖ right). The prefixes keep
// leaves and interior nodes apart, so a node can never be passed off as a leaf.
import { sha256 } from '../crypto/sha256';

/** Size in bytes of every hash in the tree (SHA-256). */
export const HASH_SIZE = 32;

/**
 * The most hashes an honest audit or consistency path can hold: one per level of a tree of at
 * most 2^64 leaves (Chio's sizes are u64). A longer path cannot be honest, so it is refused before
 * anything is hashed or kept (a record of 16 MiB can carry 240,000 of them).
 */
export const MAX_PROOF_LEVELS = 64;

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

// Scratch buffers reused across calls (these functions run millions of times). Safe because
// hashing is synchronous and each realm (main thread, every worker) has its own module copy,
// so no two calls can ever share a buffer mid-hash. The digest itself is always a new array.
const nodeInput = new Uint8Array(1 + 2 * HASH_SIZE);
nodeInput[0] = NODE_PREFIX;

// Leaves up to this size (receipts are ~1-2 KB) reuse one buffer; larger ones get their own,
// so one huge leaf never pins a huge buffer for the life of the page.
const LEAF_SCRATCH_BYTES = 4096;
const leafInput = new Uint8Array(1 + LEAF_SCRATCH_BYTES);

/** True when `x` is a Uint8Array (including Node's Buffer, or one from another realm). */
export function isBytes(x: unknown): x is Uint8Array {
  return x instanceof Uint8Array || (ArrayBuffer.isView(x) && x.constructor.name === 'Uint8Array');
}

/** True when `x` is a Uint8Array of exactly HASH_SIZE bytes. */
export function isHash(x: unknown): x is Uint8Array {
  return isBytes(x) && x.length === HASH_SIZE;
}

/** RFC 6962 leaf hash: SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array): Uint8Array {
  const length = 1 + data.length;
  const input = length <= leafInput.length ? leafInput.subarray(0, length) : new Uint8Array(length);
  input[0] = LEAF_PREFIX;
  input.set(data, 1);
  return sha256(input);
}

/**
 * RFC 6962 interior node hash: SHA-256(0x01 ‖ left ‖ right). Children are normally 32-byte
 * hashes (fast path, no allocation but the digest); other lengths are hashed too, because
 * the RFC 6962 hasher test vector uses 4-byte children.
 */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length === HASH_SIZE && right.length === HASH_SIZE) {
    nodeInput.set(left, 1);
    nodeInput.set(right, 1 + HASH_SIZE);
    return sha256(nodeInput);
  }
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = NODE_PREFIX;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}
