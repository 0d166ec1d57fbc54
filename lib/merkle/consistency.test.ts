import { listMerkleJson as listJson, readMerkleJson as readJson, vectorBase64 as b64, vectorHex as hex } from '../../test/support/testdata';
import { describe, expect, it } from 'vitest';
import { utf8 } from '../bytes/hex';
import { verifyConsistency } from './consistency';
import { leafHash, nodeHash } from './hash';
import { consistencyProofFor, rootFromLeafHashes } from './root';

interface ConsistencyProbe {
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null; // Go writes a nil slice as null
  desc: string;
  wantErr: boolean;
}

describe('transparency-dev consistency probes', () => {
  const files = listJson('testdata/consistency/');

  it(`all ${files.length} probes error exactly when wantErr`, () => {
    const failures: string[] = [];
    for (const file of files) {
      try {
        const p = readJson(file) as ConsistencyProbe;
        const got = verifyConsistency(p.size1, p.size2, b64(p.root1), b64(p.root2), (p.proof ?? []).map(b64));
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

describe('RFC 6962 reference tree consistency proofs', () => {
  it('every listed proof verifies against the listed roots', () => {
    const reference = readJson('rfc6962-reference-tree.json') as {
      consistencyProofs: { size1: number; size2: number; root1: string; root2: string; proof: string[] }[];
    };
    for (const p of reference.consistencyProofs) {
      expect(verifyConsistency(p.size1, p.size2, hex(p.root1), hex(p.root2), p.proof.map(hex)), `${p.size1} -> ${p.size2}`).toEqual({
        ok: true,
        value: true,
      });
    }
    expect(reference.consistencyProofs.length).toBe(5);
  });
});

const leaves = Array.from({ length: 48 }, (_, i) => leafHash(utf8(`entry ${i}`)));
const roots = Array.from({ length: 49 }, (_, n) => (n === 0 ? new Uint8Array(32) : rootFromLeafHashes(leaves.slice(0, n))!));
const code = (r: ReturnType<typeof verifyConsistency>) => (r.ok ? 'ok' : r.code);

function flip(h: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(h);
  out[at] = out[at]! ^ 0x80;
  return out;
}

describe('tampered consistency proofs fail', () => {
  it('for every 1 <= m < n <= 24: flipped elements, wrong sizes, wrong or swapped roots, bad lengths', () => {
    const failures: string[] = [];
    const expectFail = (label: string, r: ReturnType<typeof verifyConsistency>) => {
      if (r.ok) failures.push(`${label}: verified`);
    };
    for (let n = 2; n <= 24; n++) {
      for (let m = 1; m < n; m++) {
        const proof = consistencyProofFor(leaves, m, n)!;
        const label = `${m} -> ${n}`;
        proof.forEach((_, j) => {
          const tampered = proof.map((h, k) => (k === j ? flip(h, j % 32) : h));
          expectFail(`${label} proof[${j}] flipped`, verifyConsistency(m, n, roots[m]!, roots[n]!, tampered));
        });
        // Wrong sizes, each with its own true root: the proof is for (m, n) only.
        for (const [m2, n2] of [
          [m - 1, n],
          [m + 1, n],
          [m, n - 1],
          [m, n + 1],
          [m, 2 * n],
        ] as const) {
          if (m2 >= 1 && m2 <= n2 && (m2 !== m || n2 !== n)) {
            expectFail(`${label} as ${m2} -> ${n2}`, verifyConsistency(m2, n2, roots[m2]!, roots[n2]!, proof));
          }
        }
        expectFail(`${label} wrong root1`, verifyConsistency(m, n, flip(roots[m]!, 0), roots[n]!, proof));
        expectFail(`${label} wrong root2`, verifyConsistency(m, n, roots[m]!, flip(roots[n]!, 31), proof));
        expectFail(`${label} swapped roots`, verifyConsistency(m, n, roots[n]!, roots[m]!, proof));
        expectFail(`${label} truncated`, verifyConsistency(m, n, roots[m]!, roots[n]!, proof.slice(0, -1)));
        expectFail(`${label} extended`, verifyConsistency(m, n, roots[m]!, roots[n]!, [...proof, roots[m]!]));
        expectFail(`${label} root1 prepended`, verifyConsistency(m, n, roots[m]!, roots[n]!, [roots[m]!, ...proof]));
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('verifyConsistency error codes and policies', () => {
  const proof = consistencyProofFor(leaves, 3, 7)!;
  const r3 = roots[3]!;
  const r7 = roots[7]!;

  it('classifies each kind of bad input', () => {
    expect(code(verifyConsistency(3, 7, r3, r7, proof))).toBe('ok');
    for (const [s1, s2] of [
      [-1, 7],
      [3, NaN],
      [1.5, 7],
      [3, Infinity],
      [3, 2 ** 64],
      [7, 3],
    ]) {
      expect(code(verifyConsistency(s1!, s2!, r3, r7, proof)), `${s1} -> ${s2}`).toBe('bad_size');
    }
    expect(code(verifyConsistency(3, 7, r3.subarray(1), r7, proof))).toBe('bad_hash_size');
    expect(code(verifyConsistency(3, 7, r3, new Uint8Array(33), proof))).toBe('bad_hash_size');
    expect(code(verifyConsistency(3, 7, r3, r7, [proof[0]!, new Uint8Array(31), ...proof.slice(2)]))).toBe('bad_hash_size');
    expect(code(verifyConsistency(3, 7, r3, r7, []))).toBe('wrong_proof_size');
    expect(code(verifyConsistency(3, 7, r3, r7, proof.slice(1)))).toBe('wrong_proof_size');
    expect(code(verifyConsistency(3, 7, r3, r7, [...proof, r7]))).toBe('wrong_proof_size');
    expect(code(verifyConsistency(3, 7, r3, r7, null as never))).toBe('wrong_proof_size');
    expect(code(verifyConsistency(3, 7, roots[4]!, r7, proof))).toBe('root_mismatch');
    expect(code(verifyConsistency(3, 7, r3, roots[6]!, proof))).toBe('root_mismatch');
  });

  it('size1 = 0 is an error even with an empty proof and equal roots (transparency-dev)', () => {
    expect(code(verifyConsistency(0, 0, r3, r3, []))).toBe('bad_size');
    expect(code(verifyConsistency(0, 5, r3, r7, []))).toBe('bad_size');
  });

  it('equal sizes need an empty proof and equal roots', () => {
    expect(code(verifyConsistency(7, 7, r7, r7, []))).toBe('ok');
    expect(code(verifyConsistency(7, 7, r7, r7, [r7]))).toBe('wrong_proof_size');
    expect(code(verifyConsistency(7, 7, r7, r3, []))).toBe('root_mismatch');
  });

  it('equal sizes compare roots without a length check, as upstream does (nothing is hashed)', () => {
    // Pins the behaviour the probe "sizes are equal (one) and proof is empty" requires.
    const dontCare = utf8("don't care 2");
    expect(code(verifyConsistency(1, 1, dontCare, dontCare, []))).toBe('ok');
    expect(code(verifyConsistency(1, 1, dontCare, utf8("don't care 1"), []))).toBe('root_mismatch');
    expect(code(verifyConsistency(1, 1, 'x' as never, 'x' as never, []))).toBe('bad_hash_size');
  });
});

describe('sizes beyond 2^32 (JS bitwise operators would truncate them)', () => {
  const a = leafHash(utf8('a'));
  const b = leafHash(utf8('b'));

  it('2^40 -> 2^40 + 1: root1 is the implicit first element, the proof is the new leaf', () => {
    const root2 = nodeHash(a, b);
    expect(code(verifyConsistency(2 ** 40, 2 ** 40 + 1, a, root2, [b]))).toBe('ok');
    expect(code(verifyConsistency(2 ** 40, 2 ** 40 + 1, b, root2, [b]))).toBe('root_mismatch');
  });

  it('2^40 + 1 -> 2^41: the proof is [old last subtree, its sibling, first 2^40 root]', () => {
    // Old tree: left = root of the first 2^40 leaves, plus one leaf `a`.
    // New tree: left, and a perfect 2^40 subtree whose first leaf is `a`: a's path there is
    // `b` (leaf 2^40 + 1) then 39 more right siblings.
    const left = leafHash(utf8('left'));
    const rights = Array.from({ length: 39 }, (_, i) => leafHash(utf8(`r${i}`)));
    let subtree = nodeHash(a, b);
    for (const r of rights) subtree = nodeHash(subtree, r);
    const root1 = nodeHash(left, a);
    const root2 = nodeHash(left, subtree);
    // fn = 2^40 is even, so the proof starts with the seed `a` (size1 is not a power of two).
    expect(code(verifyConsistency(2 ** 40 + 1, 2 ** 41, root1, root2, [a, b, ...rights, left]))).toBe('ok');
    expect(code(verifyConsistency(2 ** 40 + 1, 2 ** 41, root1, root2, [a, b, ...rights.slice(1), left]))).toBe('wrong_proof_size');
  });
});
