// Server side only: the root and every leaf's audit path of one checkpoint batch, from one pass
// over the tree (chio-format.md §9.3: built level by level, an odd last node carried up, never
// duplicated). lib/merkle's inclusionProofFor gives the same path for one leaf but folds the
// whole batch each time: 100 leaves cost about 10,000 node hashes that way, and about 100 here.
import { nodeHash } from '../../lib/merkle';

/** Root and per-leaf audit paths of a non-empty list of leaf hashes. */
export function batchPaths(leaves: readonly Uint8Array[]): { root: Uint8Array; paths: Uint8Array[][] } {
  if (leaves.length === 0) throw new RangeError('a batch has at least one leaf');
  const levels: Uint8Array[][] = [leaves.slice()];
  for (let level = levels[0]!; level.length > 1; ) {
    const up: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(i + 1 < level.length ? nodeHash(level[i]!, level[i + 1]!) : level[i]!);
    levels.push(up);
    level = up;
  }
  const paths = leaves.map((_, leafIndex) => {
    const path: Uint8Array[] = [];
    let index = leafIndex;
    for (let l = 0; l < levels.length - 1; l++) {
      const sibling = index ^ 1;
      if (sibling < levels[l]!.length) path.push(levels[l]![sibling]!);
      index >>= 1;
    }
    return path;
  });
  return { root: levels[levels.length - 1]![0]!, paths };
}
