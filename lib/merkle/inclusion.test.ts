import { listMerkleJson as listJson, readMerkleJson as readJson, vectorBase64 as b64, vectorHex as hex } from '../../test/support/testdata';
import { describe, expect, it } from 'vitest';
import { toHex, utf8 } from '../bytes/hex';
import { leafHash, nodeHash } from './hash';
import { rootFromInclusionProof, verifyInclusion } from './inclusion';
import { inclusionProofFor, rootFromLeafHashes } from './root';

interface InclusionProbe {
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null; // Go writes a nil slice as null
  desc: string;
  wantErr: boolean;
}

describe('transparency-dev inclusion probes', () => {
  const files = listJson('testdata/inclusion/');

  it(`all ${files.length} probes error exactly when wantErr`, () => {
    const failures: string[] = [];
    for (const file of files) {
      try {
        const p = readJson(file) as InclusionProbe;
        // Note: two probes ("leafIdx sub @1") hold 2^64 - 1, which JSON.parse rounds to a
        // non-safe integer; verifyInclusion rejects it as index_out_of_range, as wanted.
        const got = verifyInclusion(p.leafIdx, p.treeSize, b64(p.leafHash), (p.proof ?? []).map(b64), b64(p.root));
        if (got.ok === p.wantErr) {
          failures.push(`${file} (${p.desc}): wantErr=${p.wantErr}, got ${got.ok ? 'ok' : `${got.code}: ${got.detail}`}`);
        }
      } catch (e) {
        failures.push(`${file}: threw ${String(e)}`);
      }
    }
    const total = files.length;
    expect(failures, `${total - failures.length} of ${total} probes matched\n${failures.join('\n')}`).toEqual([]);
    expect(total).toBe(98);
  });
});

describe('RFC 6962 reference tree inclusion proofs', () => {
  const reference = readJson('rfc6962-reference-tree.json') as {
    inclusionProofs: { leafIndex: number | null; treeSize: number; leafInput?: string; leafHash?: string; root?: string; proof: string[] }[];
  };

  it('every listed proof verifies against the listed root', () => {
    const listed = reference.inclusionProofs.filter((p) => p.leafIndex !== null);
    for (const p of listed) {
      const leaf = leafHash(hex(p.leafInput!));
      expect(toHex(leaf)).toBe(p.leafHash);
      expect(verifyInclusion(p.leafIndex!, p.treeSize, leaf, p.proof.map(hex), hex(p.root!)), `leaf ${p.leafIndex} of ${p.treeSize}`).toEqual({
        ok: true,
        value: true,
      });
    }
    expect(listed.length).toBe(5);
  });

  it('the empty-tree entry is rejected: no leaf index is in range', () => {
    const got = rootFromInclusionProof(0, 0, leafHash(new Uint8Array(0)), []);
    expect(got.ok === false && got.code).toBe('index_out_of_range');
  });
});

// Chio's merkle.rs compute_root_from_hash (spec §9.4), transcribed: carried levels take no sibling.
function chioComputeRoot(leaf: Uint8Array, leafIndex: number, treeSize: number, path: Uint8Array[]): string | null {
  let h = leaf;
  let idx = leafIndex;
  let size = treeSize;
  let used = 0;
  while (size > 1) {
    if (idx % 2 === 1) {
      const s = path[used++];
      if (!s) return null;
      h = nodeHash(s, h);
    } else if (idx + 1 < size) {
      const s = path[used++];
      if (!s) return null;
      h = nodeHash(h, s);
    }
    idx = Math.floor(idx / 2);
    size = Math.ceil(size / 2);
  }
  return used === path.length ? toHex(h) : null;
}

const treeOf = (n: number) => Array.from({ length: n }, (_, i) => leafHash(utf8(`leaf ${i}`)));

describe('rootFromInclusionProof equals Chio compute_root_from_hash with every element consumed', () => {
  it('n = 1..70, every index, on exact, truncated, extended and garbage proofs', () => {
    const failures: string[] = [];
    const garbage = leafHash(utf8('garbage'));
    for (let n = 1; n <= 70; n++) {
      const leaves = treeOf(n);
      for (let i = 0; i < n; i++) {
        const proof = inclusionProofFor(leaves, i)!;
        const variants: [string, Uint8Array[]][] = [
          ['exact', proof],
          ['truncated', proof.slice(0, -1)],
          ['extended', [...proof, garbage]],
          ['garbage', proof.map(() => garbage)],
        ];
        for (const [name, path] of variants) {
          if (name === 'truncated' && proof.length === 0) continue;
          const ours = rootFromInclusionProof(i, n, leaves[i]!, path);
          const chio = chioComputeRoot(leaves[i]!, i, n, path);
          if ((ours.ok ? toHex(ours.value) : null) !== chio) failures.push(`n=${n} i=${i} ${name}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('tampered inclusion proofs fail', () => {
  it('a flipped byte in any proof element or in the leaf, a wrong index, a wrong size', () => {
    const failures: string[] = [];
    const expectFail = (label: string, r: ReturnType<typeof verifyInclusion>, code?: string) => {
      if (r.ok) failures.push(`${label}: verified`);
      else if (code && r.code !== code) failures.push(`${label}: ${r.code}, want ${code}`);
    };
    const leaves = treeOf(71);
    const roots = Array.from({ length: 72 }, (_, n) => (n === 0 ? null : rootFromLeafHashes(leaves.slice(0, n))!));
    for (let n = 1; n <= 70; n++) {
      const root = roots[n]!;
      for (let i = 0; i < n; i++) {
        const leaf = leaves[i]!;
        const proof = inclusionProofFor(leaves.slice(0, n), i)!;
        proof.forEach((_, j) => {
          const tampered = proof.map((h, k) => (k === j ? flip(h, (i + j) % 32) : h));
          expectFail(`n=${n} i=${i} proof[${j}] flipped`, verifyInclusion(i, n, leaf, tampered, root), 'root_mismatch');
        });
        if (n > 1) expectFail(`n=${n} i=${i} leaf flipped`, verifyInclusion(i, n, flip(leaf, i % 32), proof, root), 'root_mismatch');
        // Every other index for small trees, neighbours for all.
        const others = n <= 33 ? Array.from({ length: n }, (_, k) => k) : [i - 1, i + 1, i ^ 1];
        for (const k of others) {
          if (k !== i && k >= 0 && k < n) expectFail(`n=${n} i=${i} as index ${k}`, verifyInclusion(k, n, leaf, proof, root));
        }
        expectFail(`n=${n} i=${i} index ${n}`, verifyInclusion(n, n, leaf, proof, root), 'index_out_of_range');
        // A wrong size, checked against that size's true root. (Against the same root a proof can
        // verify under another size with the same path shape, e.g. leaf 0 of 3 and of 4: the size
        // must be authenticated with the root, as in a signed checkpoint.)
        for (const m of [n - 1, n + 1, 2 * n]) {
          if (m > i && m <= 71) expectFail(`n=${n} i=${i} as size ${m}`, verifyInclusion(i, m, leaf, proof, roots[m]!));
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('the same root and path shape verify under another size (documented limitation)', () => {
    const leaves = treeOf(4);
    const root3 = rootFromLeafHashes(leaves.slice(0, 3))!;
    const proof = inclusionProofFor(leaves.slice(0, 3), 0)!;
    expect(verifyInclusion(0, 3, leaves[0]!, proof, root3).ok).toBe(true);
    expect(verifyInclusion(0, 4, leaves[0]!, proof, root3).ok).toBe(true);
  });
});

function flip(h: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(h);
  out[at] = out[at]! ^ 0x01;
  return out;
}

describe('verifyInclusion error codes', () => {
  const leaves = treeOf(5);
  const root = rootFromLeafHashes(leaves)!;
  const proof = inclusionProofFor(leaves, 1)!;
  const code = (r: ReturnType<typeof verifyInclusion>) => (r.ok ? 'ok' : r.code);

  it('classifies each kind of bad input', () => {
    expect(code(verifyInclusion(1, 5, leaves[1]!, proof, root))).toBe('ok');
    for (const size of [-1, 0.5, NaN, Infinity, 2 ** 53]) expect(code(verifyInclusion(1, size, leaves[1]!, proof, root)), `size ${size}`).toBe('bad_size');
    for (const index of [-1, 1.5, NaN, 5, 6, 2 ** 64 - 1]) {
      expect(code(verifyInclusion(index, 5, leaves[1]!, proof, root)), `index ${index}`).toBe('index_out_of_range');
    }
    expect(code(verifyInclusion(1, 5, leaves[1]!.subarray(1), proof, root))).toBe('bad_hash_size');
    expect(code(verifyInclusion(1, 5, leaves[1]!, proof, new Uint8Array(33)))).toBe('bad_hash_size');
    expect(code(verifyInclusion(1, 5, leaves[1]!, [proof[0]!, new Uint8Array(0), proof[2]!], root))).toBe('bad_hash_size');
    expect(code(verifyInclusion(1, 5, leaves[1]!, proof.slice(0, 2), root))).toBe('wrong_proof_size');
    expect(code(verifyInclusion(1, 5, leaves[1]!, [...proof, proof[0]!], root))).toBe('wrong_proof_size');
    expect(code(verifyInclusion(1, 5, leaves[1]!, 'x' as never, root))).toBe('wrong_proof_size');
    expect(code(verifyInclusion(1, 5, leaves[1]!, [...proof].reverse(), root))).toBe('root_mismatch');
  });

  it('returns a fresh array for a one-leaf tree', () => {
    const got = rootFromInclusionProof(0, 1, leaves[0]!, []);
    expect(got.ok && got.value).not.toBe(leaves[0]);
    expect(got.ok && toHex(got.value)).toBe(toHex(leaves[0]!));
  });
});

describe('sizes beyond 2^32 (JS bitwise operators would truncate them)', () => {
  const leaf = leafHash(utf8('leaf'));
  const sibling = leafHash(utf8('sibling'));

  it('last leaf of a 2^40 + 1 tree: one left sibling, the root of the first 2^40 leaves', () => {
    const got = rootFromInclusionProof(2 ** 40, 2 ** 40 + 1, leaf, [sibling]);
    expect(got.ok && toHex(got.value)).toBe(toHex(nodeHash(sibling, leaf)));
  });

  it('leaf 2^33 + 5 of a perfect 2^34 tree: directions follow the index bits', () => {
    const index = 2 ** 33 + 5;
    const path = Array.from({ length: 34 }, (_, i) => leafHash(utf8(`p${i}`)));
    let want = leaf;
    path.forEach((p, i) => {
      want = (BigInt(index) >> BigInt(i)) & 1n ? nodeHash(p, want) : nodeHash(want, p);
    });
    expect(verifyInclusion(index, 2 ** 34, leaf, path, want).ok).toBe(true);
    expect(verifyInclusion(index, 2 ** 34, leaf, path.slice(1), want).ok).toBe(false);
  });

  it('the largest safe size works', () => {
    const max = Number.MAX_SAFE_INTEGER; // 2^53 - 1: the last leaf has 52 left siblings (carried once)
    const path = Array.from({ length: 52 }, () => sibling);
    let want = leaf;
    for (const p of path) want = nodeHash(p, want);
    expect(verifyInclusion(max - 1, max, leaf, path, want).ok).toBe(true);
  });
});
