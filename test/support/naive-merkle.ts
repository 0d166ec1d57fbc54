// Test-only: a naive recursive RFC 6962 Merkle tree (§2.1 MTH, §2.1.1 PATH, §2.1.2 PROOF) over
// raw leaf data, and recursive verifiers that follow the same definitions. Deliberately slow and
// independent of lib/merkle (fresh buffers, recursion on the definition, no index arithmetic),
// so the two can be tested against each other.
import { bytesEqual, concatBytes } from '../../lib/bytes/hex';
import { sha256 } from '../../lib/crypto/sha256';

export const refLeaf = (d: Uint8Array): Uint8Array => sha256(concatBytes(Uint8Array.of(0), d));
export const refNode = (l: Uint8Array, r: Uint8Array): Uint8Array => sha256(concatBytes(Uint8Array.of(1), l, r));

/** The largest power of two strictly less than n (n >= 2): RFC 6962's k. */
export function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]); the empty tree is SHA-256(""). */
export function refMth(d: Uint8Array[]): Uint8Array {
  if (d.length === 0) return sha256(new Uint8Array(0));
  if (d.length === 1) return refLeaf(d[0]!);
  const k = split(d.length);
  return refNode(refMth(d.slice(0, k)), refMth(d.slice(k)));
}

/** PATH(m, D[n]): the audit path of leaf m. */
export function refPath(m: number, d: Uint8Array[]): Uint8Array[] {
  if (d.length <= 1) return [];
  const k = split(d.length);
  return m < k ? [...refPath(m, d.slice(0, k)), refMth(d.slice(k))] : [...refPath(m - k, d.slice(k)), refMth(d.slice(0, k))];
}

/** SUBPROOF(m, D[n], b); PROOF(m, D[n]) is refSubproof(m, d, true). */
export function refSubproof(m: number, d: Uint8Array[], b: boolean): Uint8Array[] {
  if (m === d.length) return b ? [] : [refMth(d)];
  const k = split(d.length);
  return m <= k ? [...refSubproof(m, d.slice(0, k), b), refMth(d.slice(k))] : [...refSubproof(m - k, d.slice(k), false), refMth(d.slice(0, k))];
}

/**
 * The root an audit path leads to, by undoing PATH's recursion: its last element is the sibling
 * of the top-level subtree holding leaf m. Null when the path has the wrong length for (m, n).
 */
export function refRootFromPath(m: number, n: number, leafHash: Uint8Array, path: readonly Uint8Array[]): Uint8Array | null {
  if (n === 1) return path.length === 0 ? leafHash : null;
  if (path.length === 0) return null;
  const k = split(n);
  const sibling = path[path.length - 1]!;
  const rest = path.slice(0, -1);
  if (m < k) {
    const left = refRootFromPath(m, k, leafHash, rest);
    return left && refNode(left, sibling);
  }
  const right = refRootFromPath(m - k, n - k, leafHash, rest);
  return right && refNode(sibling, right);
}

/** Whether `path` proves leaf m of a tree of n leaves with root `root` (0 <= m < n). */
export function refVerifyInclusion(m: number, n: number, leafHash: Uint8Array, path: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!(m >= 0 && m < n) || path.some((p) => p.length !== 32) || leafHash.length !== 32) return false;
  const r = refRootFromPath(m, n, leafHash, path);
  return r !== null && bytesEqual(r, root);
}

/**
 * The (old, new) roots a consistency proof leads to, by undoing SUBPROOF's recursion from its
 * last element; `known` is the old root, used where SUBPROOF omits it (b = true). Null when the
 * proof has the wrong length.
 */
function refRootsFromSubproof(m: number, n: number, b: boolean, proof: readonly Uint8Array[], known: Uint8Array): [Uint8Array, Uint8Array] | null {
  if (m === n) {
    if (b) return proof.length === 0 ? [known, known] : null;
    return proof.length === 1 ? [proof[0]!, proof[0]!] : null;
  }
  if (proof.length === 0) return null;
  const k = split(n);
  const last = proof[proof.length - 1]!;
  const rest = proof.slice(0, -1);
  if (m <= k) {
    const sub = refRootsFromSubproof(m, k, b, rest, known);
    return sub && [sub[0], refNode(sub[1], last)];
  }
  const sub = refRootsFromSubproof(m - k, n - k, false, rest, known);
  return sub && [refNode(last, sub[0]), refNode(last, sub[1])];
}

/** Whether `proof` shows the tree (m, root1) is a prefix of (n, root2), for 0 < m <= n. */
export function refVerifyConsistency(m: number, n: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!(m > 0 && m <= n) || proof.some((p) => p.length !== 32)) return false;
  const roots = refRootsFromSubproof(m, n, true, proof, root1);
  return roots !== null && bytesEqual(roots[0], root1) && bytesEqual(roots[1], root2);
}
