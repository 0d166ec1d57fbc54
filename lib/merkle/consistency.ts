// Consistency proof verification, RFC 9162 §2.1.4.2 (RFC 6962 §2.1.2 proofs), with
// transparency-dev/merkle's preconditions: 0 < size1 <= size2, and equal sizes need an empty
// proof and equal roots. Every argument is attacker-controlled.
import { bytesEqual, toHex } from '../bytes/hex';
import { HASH_SIZE, MAX_PROOF_LEVELS, isBytes, isHash, nodeHash } from './hash';
import { describe, fail, half, isOdd, isTreeSize, ok, type MerkleResult } from './result';

/**
 * Verifies that the tree of `size2` leaves with root `root2` extends (is append-only from)
 * the tree of `size1` leaves with root `root1`.
 */
export function verifyConsistency(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): MerkleResult<true> {
  if (!isTreeSize(size1) || !isTreeSize(size2)) {
    return fail('bad_size', `sizes ${describe(size1)}, ${describe(size2)} are not non-negative safe integers`);
  }
  if (size1 > size2) return fail('bad_size', `size1 ${size1} > size2 ${size2}: a log cannot shrink`);
  // Policy (transparency-dev): an empty tree is a prefix of every tree, so a "proof" from it
  // proves nothing; reject it rather than report a vacuous success (Chio: empty trees are errors).
  if (size1 === 0) return fail('bad_size', 'size1 is 0: consistency with an empty tree proves nothing');
  if (!Array.isArray(proof)) return fail('wrong_proof_size', 'proof is not an array');
  if (proof.length > MAX_PROOF_LEVELS)
    return fail('wrong_proof_size', `proof has ${proof.length} elements; a tree of at most 2^64 leaves needs at most ${MAX_PROOF_LEVELS}`);
  if (size1 === size2) return verifySameSize(root1, root2, proof);

  if (!isHash(root1)) return fail('bad_hash_size', `root1 is not a ${HASH_SIZE}-byte hash`);
  if (!isHash(root2)) return fail('bad_hash_size', `root2 is not a ${HASH_SIZE}-byte hash`);
  // Step 1.
  if (proof.length === 0) return fail('wrong_proof_size', `empty proof for sizes ${size1} < ${size2}`);
  return verifyPath(size1, size2, root1, root2, proof);
}

// Not part of RFC 9162 (whose PROOF is only defined for size1 < size2); transparency-dev's rule.
// Deliberately no 32-byte check here: nothing is hashed, the roots are only compared, and the
// upstream probe "sizes are equal (one) and proof is empty" expects two equal 12-byte roots to pass.
function verifySameSize(root1: unknown, root2: unknown, proof: readonly unknown[]): MerkleResult<true> {
  if (proof.length !== 0) return fail('wrong_proof_size', `proof has ${proof.length} elements; equal sizes need none`);
  if (!isBytes(root1) || !isBytes(root2)) return fail('bad_hash_size', 'root1 or root2 is not a byte array');
  if (!bytesEqual(root1, root2)) return fail('root_mismatch', 'equal sizes but different roots');
  return ok(true);
}

// Steps 2-7 of §2.1.4.2, for 0 < size1 < size2 and a non-empty proof.
function verifyPath(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): MerkleResult<true> {
  // Step 2: when size1 is a power of 2 its root is a node of the new tree, so the proof omits
  // it and root1 is the implicit first path element. (Indexed, instead of copying the proof.)
  const offset = isPowerOfTwo(size1) ? 1 : 0;
  const pathLength = proof.length + offset;
  const element = (i: number): unknown => (i < offset ? root1 : proof[i - offset]);

  // Steps 3-4.
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  // Step 5.
  const first = element(0);
  if (!isHash(first)) return fail('bad_hash_size', `proof[0] is not a ${HASH_SIZE}-byte hash`);
  let fr = first;
  let sr = first;
  // Step 6.
  for (let i = 1; i < pathLength; i++) {
    if (sn === 0) return fail('wrong_proof_size', `proof has ${proof.length} elements; too many for ${size1} -> ${size2}`);
    const c = element(i);
    if (!isHash(c)) return fail('bad_hash_size', `proof[${i - offset}] is not a ${HASH_SIZE}-byte hash`);
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  // Step 7.
  if (sn !== 0) return fail('wrong_proof_size', `proof has ${proof.length} elements; too few for ${size1} -> ${size2}`);
  if (!bytesEqual(fr, root1)) return fail('root_mismatch', `computed root1 ${toHex(fr)} differs from ${toHex(root1)}`);
  if (!bytesEqual(sr, root2)) return fail('root_mismatch', `computed root2 ${toHex(sr)} differs from ${toHex(root2)}`);
  return ok(true);
}

/** n > 0 is a power of two (loop, not bitwise or Math.log2, which are wrong above 2^31 / near 2^50). */
function isPowerOfTwo(n: number): boolean {
  while (n > 1 && !isOdd(n)) n = half(n);
  return n === 1;
}
