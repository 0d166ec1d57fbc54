// An append-only Merkle frontier (RFC 6962 trees built left to right, as Chio's
// checkpoint chain is, chio-format.md §16.3): one root per perfect subtree of the
// leaves so far, largest first. Appending costs amortized O(1) hashes and the root
// O(log n), so a chain of n checkpoints is checked in O(n log n) without keeping
// its leaves. Leaf hashes in, never raw data.
import { nodeHash } from './hash';

export interface FrontierNode {
  /** Leaves under this subtree: a power of two, strictly decreasing along the frontier. */
  size: bigint;
  hash: Uint8Array;
}

export type Frontier = readonly FrontierNode[];

/** The frontier after one more leaf hash (a new array; `f` is not changed). */
export function appendToFrontier(f: Frontier, leafHash: Uint8Array): FrontierNode[] {
  const out = [...f, { size: 1n, hash: leafHash }];
  while (out.length > 1 && out[out.length - 1]!.size === out[out.length - 2]!.size) {
    const right = out.pop()!;
    const left = out.pop()!;
    out.push({ size: left.size * 2n, hash: nodeHash(left.hash, right.hash) });
  }
  return out;
}

/** The RFC 6962 root of the leaves the frontier covers (the subtrees folded from the right); null when empty. */
export function frontierRoot(f: Frontier): Uint8Array | null {
  if (f.length === 0) return null;
  let h = f[f.length - 1]!.hash;
  for (let i = f.length - 2; i >= 0; i--) h = nodeHash(f[i]!.hash, h);
  return h;
}
