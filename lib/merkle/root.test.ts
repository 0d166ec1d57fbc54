import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { concatBytes, fromHex, toHex, utf8 } from '../bytes/hex';
import { sha256 } from '../crypto/sha256';
import { verifyConsistency } from './consistency';
import { leafHash } from './hash';
import { rootFromInclusionProof, verifyInclusion } from './inclusion';
import { consistencyProofFor, inclusionProofFor, rootFromLeafHashes } from './root';
// Naive recursive reference, RFC 6962 §2.1 / RFC 9162 §2.1.3.1, §2.1.4.1, over raw data.
import { refMth, refPath, refSubproof } from '../../test/support/naive-merkle';

interface Reference {
  leafInputs: string[];
  nodeHashesByLevel: string[][];
  rootHashesBySize: string[];
  inclusionProofs: { leafIndex: number | null; treeSize: number; proof: string[] }[];
  consistencyProofs: { size1: number; size2: number; proof: string[] }[];
}
const reference = JSON.parse(readFileSync(new URL('../testdata/merkle/rfc6962-reference-tree.json', import.meta.url), 'utf8')) as Reference;

function hex(s: string): Uint8Array {
  const bytes = fromHex(s);
  if (!bytes) throw new Error(`bad hex in vector: ${s}`);
  return bytes;
}
const referenceLeaves = reference.leafInputs.map((d) => leafHash(hex(d)));
const hexes = (hashes: readonly Uint8Array[] | null) => (hashes === null ? null : hashes.map(toHex));

/** Deterministic pseudo-random leaf data of 0..40 bytes. */
function randomData(n: number, seed: string): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => {
    const bytes = concatBytes(sha256(utf8(`${seed}/${i}/a`)), sha256(utf8(`${seed}/${i}/b`)));
    return bytes.subarray(0, bytes[0]! % 41);
  });
}

describe('rootFromLeafHashes: RFC 6962 reference tree', () => {
  it('reproduces the root for every size 1..8', () => {
    for (let size = 1; size <= 8; size++) {
      expect(toHex(rootFromLeafHashes(referenceLeaves.slice(0, size))!), `size ${size}`).toBe(reference.rootHashesBySize[size]);
    }
  });

  it('reproduces every interior node hash (perfect subtrees)', () => {
    reference.nodeHashesByLevel.forEach((level, height) => {
      level.forEach((want, j) => {
        const width = 2 ** height;
        const got = rootFromLeafHashes(referenceLeaves.slice(j * width, (j + 1) * width));
        expect(toHex(got!), `level ${height} node ${j}`).toBe(want);
      });
    });
  });

  it('returns null for an empty tree: Chio treats it as an error (RFC 6962 root would be SHA-256(""))', () => {
    expect(rootFromLeafHashes([])).toBeNull();
    expect(reference.rootHashesBySize[0]).toBe(toHex(sha256(new Uint8Array(0))));
  });

  it('returns null for malformed leaf hashes and never aliases its input', () => {
    expect(rootFromLeafHashes([new Uint8Array(31)])).toBeNull();
    expect(rootFromLeafHashes([referenceLeaves[0]!, new Uint8Array(33)])).toBeNull();
    expect(rootFromLeafHashes('nope' as never)).toBeNull();
    const single = rootFromLeafHashes([referenceLeaves[0]!])!;
    expect(toHex(single)).toBe(toHex(referenceLeaves[0]!));
    expect(single).not.toBe(referenceLeaves[0]);
  });
});

describe('proof generators reproduce the reference proofs exactly', () => {
  it('inclusionProofFor', () => {
    for (const p of reference.inclusionProofs) {
      const leaves = referenceLeaves.slice(0, p.treeSize);
      if (p.leafIndex === null) {
        expect(inclusionProofFor(leaves, 0), 'no leaf in an empty tree').toBeNull();
        continue;
      }
      expect(hexes(inclusionProofFor(leaves, p.leafIndex)), `leaf ${p.leafIndex} of ${p.treeSize}`).toEqual(p.proof);
    }
    expect(reference.inclusionProofs.length).toBe(6);
  });

  it('consistencyProofFor', () => {
    for (const p of reference.consistencyProofs) {
      // Generate from a longer leaf list to show only the first size2 leaves are used.
      expect(hexes(consistencyProofFor(referenceLeaves, p.size1, p.size2)), `${p.size1} -> ${p.size2}`).toEqual(p.proof);
    }
    expect(reference.consistencyProofs.length).toBe(5);
  });

  it('return null for impossible requests', () => {
    expect(inclusionProofFor(referenceLeaves, 8)).toBeNull();
    expect(inclusionProofFor(referenceLeaves, -1)).toBeNull();
    expect(inclusionProofFor(referenceLeaves, 0.5)).toBeNull();
    expect(inclusionProofFor(referenceLeaves, NaN)).toBeNull();
    expect(inclusionProofFor([new Uint8Array(3)], 0)).toBeNull();
    expect(consistencyProofFor(referenceLeaves, 0, 3)).toBeNull();
    expect(consistencyProofFor(referenceLeaves, 4, 3)).toBeNull();
    expect(consistencyProofFor(referenceLeaves, 3, 9)).toBeNull();
    expect(consistencyProofFor(referenceLeaves, 1.5, 3)).toBeNull();
    expect(consistencyProofFor(referenceLeaves, 3, 3)).toEqual([]);
  });
});

describe('differential: lib/merkle vs the naive recursive reference', () => {
  it('roots and inclusion proofs agree for n = 1..70, every leaf index', () => {
    const failures: string[] = [];
    let cases = 0;
    for (let n = 1; n <= 70; n++) {
      const data = randomData(n, `inclusion-${n}`);
      const leaves = data.map(leafHash);
      const root = rootFromLeafHashes(leaves)!;
      const refRoot = refMth(data);
      if (toHex(root) !== toHex(refRoot)) failures.push(`n=${n}: root ${toHex(root)} != reference ${toHex(refRoot)}`);
      for (let i = 0; i < n; i++) {
        cases++;
        const proof = inclusionProofFor(leaves, i);
        const want = refPath(i, data).map(toHex);
        if (JSON.stringify(hexes(proof)) !== JSON.stringify(want)) failures.push(`n=${n} i=${i}: proof differs from PATH`);
        const verified = verifyInclusion(i, n, leaves[i]!, proof ?? [], refRoot);
        if (!verified.ok) failures.push(`n=${n} i=${i}: ${verified.code} ${verified.detail}`);
        const recomputed = rootFromInclusionProof(i, n, leaves[i]!, proof ?? []);
        if (!recomputed.ok || toHex(recomputed.value) !== toHex(refRoot)) failures.push(`n=${n} i=${i}: rootFromInclusionProof`);
      }
    }
    expect(failures, `${cases - failures.length} of ${cases} cases matched\n${failures.join('\n')}`).toEqual([]);
    expect(cases).toBe((70 * 71) / 2);
  });

  it('consistency proofs for every 1 <= m <= n <= 40 equal PROOF(m, D[n]) and verify', () => {
    const data = randomData(40, 'consistency');
    const leaves = data.map(leafHash);
    const roots = [null, ...Array.from({ length: 40 }, (_, i) => refMth(data.slice(0, i + 1)))];
    const failures: string[] = [];
    let cases = 0;
    for (let n = 1; n <= 40; n++) {
      for (let m = 1; m <= n; m++) {
        cases++;
        const proof = consistencyProofFor(leaves, m, n);
        const want = refSubproof(m, data.slice(0, n), true).map(toHex);
        if (JSON.stringify(hexes(proof)) !== JSON.stringify(want)) failures.push(`${m} -> ${n}: proof differs from PROOF`);
        const verified = verifyConsistency(m, n, roots[m]!, roots[n]!, proof ?? []);
        if (!verified.ok) failures.push(`${m} -> ${n}: ${verified.code} ${verified.detail}`);
      }
    }
    expect(failures, `${cases - failures.length} of ${cases} cases matched\n${failures.join('\n')}`).toEqual([]);
    expect(cases).toBe((40 * 41) / 2);
  });

  it('generated proofs never alias the leaf hashes', () => {
    const leaves = randomData(5, 'alias').map(leafHash);
    for (const h of [...inclusionProofFor(leaves, 4)!, ...consistencyProofFor(leaves, 4, 5)!]) {
      expect(leaves.includes(h)).toBe(false);
    }
  });
});
