// The frontier against the level-by-level tree of root.ts for every size up to 130, and against
// the naive reference: the same root after each append, and the subtree sizes are the binary
// digits of the leaf count.
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes/hex';
import { leafHash } from './hash';
import { appendToFrontier, frontierRoot } from './frontier';
import { rootFromLeafHashes } from './root';

describe('append-only frontier', () => {
  it('reproduces the RFC 6962 root at every size from 1 to 130', () => {
    const leaves = Array.from({ length: 130 }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)));
    let f = appendToFrontier([], leaves[0]!);
    const mismatches: number[] = [];
    for (let n = 1; n <= leaves.length; n++) {
      if (n > 1) f = appendToFrontier(f, leaves[n - 1]!);
      if (toHex(frontierRoot(f)!) !== toHex(rootFromLeafHashes(leaves.slice(0, n))!)) mismatches.push(n);
      expect(f.map((x) => x.size)).toEqual([...n.toString(2)].flatMap((d, i, a) => (d === '1' ? [2n ** BigInt(a.length - 1 - i)] : [])));
    }
    expect(mismatches).toEqual([]);
  });

  it('an empty frontier has no root, and appending never changes its argument', () => {
    expect(frontierRoot([])).toBeNull();
    const one = appendToFrontier([], new Uint8Array(32));
    const two = appendToFrontier(one, new Uint8Array(32).fill(1));
    expect(one).toHaveLength(1);
    expect(two.map((x) => x.size)).toEqual([2n]);
  });
});
