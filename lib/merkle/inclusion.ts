// Inclusion proof verification, RFC 9162 §2.1.3.2 (RFC 6962 audit paths). Equals Chio's
// compute_root_from_hash (spec §9.4) with the extra rule that every path element is consumed.
// Every argument is attacker-controlled (it comes from a log or an evidence package).
import { bytesEqual, toHex } from '../bytes/hex';
import { HASH_SIZE, MAX_PROOF_LEVELS, isHash, nodeHash } from './hash';
import { describe, fail, half, isOdd, isTreeSize, ok, type MerkleResult } from './result';

/** One step up an audit path: the sibling hashed in (on its side) and the node it makes. */
export interface InclusionStep {
  sibling: Uint8Array;
  side: 'left' | 'right';
  node: Uint8Array;
}

/**
 * The root of a tree of `treeSize` leaves, recomputed from the leaf at `leafIndex` (0-based)
 * and its audit path (siblings from the leaf up, levels where the node is carried omitted).
 * The result is only meaningful once compared with a root you trust for that same size:
 * the size must be authenticated together with the root (as in a signed checkpoint).
 * `onStep` sees each hashing step, leaf to root (to draw the path).
 */
export function rootFromInclusionProof(
  leafIndex: number,
  treeSize: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  onStep?: (step: InclusionStep) => void,
): MerkleResult<Uint8Array> {
  if (!isTreeSize(treeSize)) {
    return fail('bad_size', `treeSize ${describe(treeSize)} is not a non-negative safe integer`);
  }
  // Step 1: 0 <= leafIndex < treeSize (so an empty tree has no provable leaf).
  if (!isTreeSize(leafIndex) || leafIndex >= treeSize) {
    return fail('index_out_of_range', `leafIndex ${describe(leafIndex)} is not an integer in [0, ${treeSize})`);
  }
  if (!isHash(leafHash)) return fail('bad_hash_size', `leafHash is not a ${HASH_SIZE}-byte hash`);
  if (!Array.isArray(proof)) return fail('wrong_proof_size', 'proof is not an array');
  if (proof.length > MAX_PROOF_LEVELS)
    return fail('wrong_proof_size', `proof has ${proof.length} elements; a tree of at most 2^64 leaves needs at most ${MAX_PROOF_LEVELS}`);

  // Steps 2-3.
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r: Uint8Array = leafHash;
  // Step 4.
  for (let i = 0; i < proof.length; i++) {
    if (sn === 0) {
      return fail('wrong_proof_size', `proof has ${proof.length} elements; leaf ${leafIndex} of ${treeSize} needs ${i}`);
    }
    const p: unknown = proof[i];
    if (!isHash(p)) return fail('bad_hash_size', `proof[${i}] is not a ${HASH_SIZE}-byte hash`);
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      onStep?.({ sibling: p, side: 'left', node: r });
      // Climb past the levels where this node is the carried (unpaired) last node.
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
      onStep?.({ sibling: p, side: 'right', node: r });
    }
    fn = half(fn);
    sn = half(sn);
  }
  // Step 5 (first half): the path must reach the root exactly.
  if (sn !== 0) {
    return fail('wrong_proof_size', `proof has ${proof.length} elements; too few for leaf ${leafIndex} of ${treeSize}`);
  }
  // Never hand back the caller's own array (treeSize 1): results do not alias inputs.
  return ok(r === leafHash ? new Uint8Array(leafHash) : r);
}

/**
 * Verifies that `leafHash` is the leaf at `leafIndex` of the tree of `treeSize` leaves whose
 * root is `root` (RFC 9162 §2.1.3.2). `ok` only when the recomputed root equals `root`.
 */
export function verifyInclusion(leafIndex: number, treeSize: number, leafHash: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): MerkleResult<true> {
  const computed = rootFromInclusionProof(leafIndex, treeSize, leafHash, proof);
  if (!computed.ok) return computed;
  if (!isHash(root)) return fail('bad_hash_size', `root is not a ${HASH_SIZE}-byte hash`);
  // Step 5 (second half).
  if (!bytesEqual(computed.value, root)) {
    return fail('root_mismatch', `computed root ${toHex(computed.value)} differs from expected ${toHex(root)}`);
  }
  return ok(true);
}
