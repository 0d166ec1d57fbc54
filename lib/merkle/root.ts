// Merkle Tree Hash of RFC 6962 §2.1 / RFC 9162 §2.1.1, built level by level the way Chio
// does (spec §9.3: an odd last node is carried up unchanged, never duplicated), and the proof
// generators of RFC 9162 §2.1.3.1 (inclusion) and §2.1.4.1 (consistency) for producers.
// Inputs are leaf hashes (see leafHash); malformed ones give null, never a throw.
import { isHash, nodeHash } from './hash';
import { half, isOdd, isTreeSize } from './result';

/**
 * The root of the tree over `leafHashes`, or null when there are none (RFC 6962 defines the
 * empty root as SHA-256(""), but Chio treats an empty tree as an error) or when any element
 * is not a 32-byte hash.
 */
export function rootFromLeafHashes(leafHashes: readonly Uint8Array[]): Uint8Array | null {
  if (!areLeafHashes(leafHashes) || leafHashes.length === 0) return null;
  return copy(rangeRoot(leafHashes, 0, leafHashes.length));
}

/**
 * The audit path for the leaf at `leafIndex` (0-based): siblings from the leaf up, skipping
 * levels where the node is carried. Equals RFC 9162 PATH(m, D[n]). Null for an index outside
 * [0, leafHashes.length) or malformed leaf hashes.
 */
export function inclusionProofFor(leafHashes: readonly Uint8Array[], leafIndex: number): Uint8Array[] | null {
  if (!areLeafHashes(leafHashes) || !isTreeSize(leafIndex) || leafIndex >= leafHashes.length) return null;
  const level = leafHashes.slice();
  const path: Uint8Array[] = [];
  let size = level.length;
  let index = leafIndex;
  while (size > 1) {
    const sibling = isOdd(index) ? index - 1 : index + 1;
    if (sibling < size) path.push(copy(level[sibling]!)); // else: this node is carried, no sibling
    size = foldLevel(level, size);
    index = half(index);
  }
  return path;
}

/**
 * RFC 9162 PROOF(size1, D[size2]) that the first `size1` leaves are a prefix of the first
 * `size2` leaves of `leafHashes`. Empty when size1 = size2. Null unless
 * 0 < size1 <= size2 <= leafHashes.length and all leaf hashes are well formed.
 */
export function consistencyProofFor(leafHashes: readonly Uint8Array[], size1: number, size2: number): Uint8Array[] | null {
  if (!areLeafHashes(leafHashes) || !isTreeSize(size1) || !isTreeSize(size2)) return null;
  if (size1 === 0 || size1 > size2 || size2 > leafHashes.length) return null;
  const proof: Uint8Array[] = [];
  subproof(leafHashes, size1, 0, size2, true, proof);
  return proof.map(copy);
}

// SUBPROOF(m, D[start:end], b) of RFC 9162 §2.1.4.1, appended to `out`. Recursion depth is
// at most log2(end - start).
function subproof(hashes: readonly Uint8Array[], m: number, start: number, end: number, wholeSubtreeKnown: boolean, out: Uint8Array[]): void {
  const n = end - start;
  if (m === n) {
    // The old tree is this whole subtree: the verifier already has its root, unless it is
    // only a part of the old tree (b = false), in which case the proof must carry it.
    if (!wholeSubtreeKnown) out.push(rangeRoot(hashes, start, end));
    return;
  }
  const k = largestPowerOfTwoBelow(n);
  if (m <= k) {
    subproof(hashes, m, start, start + k, wholeSubtreeKnown, out);
    out.push(rangeRoot(hashes, start + k, end));
  } else {
    subproof(hashes, m - k, start + k, end, false, out);
    out.push(rangeRoot(hashes, start, start + k));
  }
}

/** MTH(D[start:end]) for end > start: pair neighbours, carry an odd last node up unchanged. */
function rangeRoot(hashes: readonly Uint8Array[], start: number, end: number): Uint8Array {
  const level = hashes.slice(start, end);
  let size = level.length;
  while (size > 1) size = foldLevel(level, size);
  return level[0]!;
}

/** Replaces level[0, size) by the next level up, in place; returns its size. */
function foldLevel(level: Uint8Array[], size: number): number {
  let next = 0;
  for (let i = 0; i + 1 < size; i += 2) level[next++] = nodeHash(level[i]!, level[i + 1]!);
  if (isOdd(size)) level[next++] = level[size - 1]!;
  return next;
}

/** The largest power of two strictly less than n (n >= 2): RFC 6962's split point k. */
function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function areLeafHashes(x: unknown): x is readonly Uint8Array[] {
  return Array.isArray(x) && x.every(isHash);
}

// Results never alias the caller's arrays (new Uint8Array copies even from a Node Buffer).
function copy(hash: Uint8Array): Uint8Array {
  return new Uint8Array(hash);
}
