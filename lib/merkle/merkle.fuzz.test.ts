// Fuzz: lib/merkle against a naive recursive RFC 6962 reference (test/support/naive-merkle.ts)
// for random sizes 1..300: roots, audit paths and consistency proofs are identical, the
// verifiers accept the true proofs and answer exactly like the reference on mutated ones
// (rejecting every bit flip, wrong index, extra or missing node), and never throw on anything.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes, toHex, utf8 } from '../bytes/hex';
import { sha256 } from '../crypto/sha256';
import * as merkle from './index';
import type { MerkleResult } from './result';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { refMth, refPath, refSubproof, refVerifyConsistency, refVerifyInclusion } from '../../test/support/naive-merkle';

const { MERKLE_ERROR_CODES, consistencyProofFor, inclusionProofFor, leafHash, rootFromInclusionProof, rootFromLeafHashes, verifyConsistency, verifyInclusion } =
  merkle;

/** n distinct leaves of 0..40 bytes, from a seed (distinct: each starts with its index). */
function leafData(n: number, seed: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => {
    const noise = sha256(utf8(`${seed}/${i}`));
    return concatBytes(utf8(`${i}:`), noise.subarray(0, noise[0]! % 41));
  });
}

interface Tree {
  n: number;
  data: Uint8Array[];
  leaves: Uint8Array[];
  [fc.toStringMethod]: () => string;
}
// Sizes and indexes lean towards the edges, where trees carry odd nodes: around powers of two, the last leaf.
const EDGE_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 299, 300];
const size = fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(...EDGE_SIZES));
const indexIn = (n: number) => fc.oneof(fc.nat(n - 1), fc.constantFrom(0, n - 1, Math.floor(n / 2), Math.max(0, n - 2)));
const tree = fc.tuple(size, fc.nat()).map(([n, seed]): Tree => {
  const data = leafData(n, seed);
  // Counterexamples print as the two numbers that rebuild the tree, not 300 byte arrays.
  return { n, data, leaves: data.map(leafHash), [fc.toStringMethod]: () => `leafData(${n}, ${seed})` };
});
/** A tree and a leaf index in it. */
const treeAndIndex = tree.chain((t) => fc.tuple(fc.constant(t), indexIn(t.n)));
/** A tree and an old size 1..n. */
const treeAndOldSize = tree.chain((t) =>
  fc.tuple(
    fc.constant(t),
    indexIn(t.n).map((i) => i + 1),
  ),
);

const hexes = (hs: readonly Uint8Array[] | null) => (hs === null ? null : hs.map(toHex));
const flipBit = (b: Uint8Array, bit: number) => {
  const c = b.slice();
  c[Math.floor(bit / 8) % c.length]! ^= 1 << (bit % 8);
  return c;
};

describe('differential: lib/merkle vs the naive recursive reference', () => {
  it(
    'roots, audit paths and consistency proofs are identical, and verify',
    () => {
      fc.assert(
        fc.property(treeAndIndex, fc.nat(), ([t, m], oldPick) => {
          const root = refMth(t.data);
          expect(toHex(rootFromLeafHashes(t.leaves)!)).toBe(toHex(root));
          const path = inclusionProofFor(t.leaves, m);
          expect(hexes(path)).toEqual(hexes(refPath(m, t.data)));
          expect(verifyInclusion(m, t.n, t.leaves[m]!, path!, root)).toEqual({ ok: true, value: true });
          const recomputed = rootFromInclusionProof(m, t.n, t.leaves[m]!, path!);
          expect(recomputed.ok && toHex(recomputed.value)).toBe(toHex(root));

          const size1 = 1 + (oldPick % t.n);
          const proof = consistencyProofFor(t.leaves, size1, t.n);
          expect(hexes(proof)).toEqual(hexes(refSubproof(size1, t.data, true)));
          expect(verifyConsistency(size1, t.n, refMth(t.data.slice(0, size1)), root, proof!)).toEqual({ ok: true, value: true });
        }),
        fuzzParams(200),
      );
    },
    fuzzTimeout(),
  );

  type Mutation =
    | { kind: 'flip'; target: number; bit: number }
    | { kind: 'index'; value: number }
    | { kind: 'size'; value: number }
    | { kind: 'extra'; at: number; node: Uint8Array }
    | { kind: 'missing'; at: number }
    | { kind: 'replace'; at: number; node: Uint8Array };
  const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), target: fc.nat(), bit: fc.nat(255) }),
    fc.record({ kind: fc.constant('index' as const), value: fc.nat(400) }),
    fc.record({ kind: fc.constant('size' as const), value: fc.integer({ min: 1, max: 400 }) }),
    fc.record({ kind: fc.constant('extra' as const), at: fc.nat(), node: hash }),
    fc.record({ kind: fc.constant('missing' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), node: hash }),
  );

  type HashMutation = Exclude<Mutation, { kind: 'index' | 'size' }>;
  /**
   * Mutates the two hashes that go with a proof (leaf and root, or the two roots) and the proof:
   * a bit flipped in any of them, or a node added, removed or replaced. Null when it changes nothing.
   */
  function mutateHashes(a: Uint8Array, b: Uint8Array, list: Uint8Array[], mu: HashMutation): [Uint8Array, Uint8Array, Uint8Array[]] | null {
    if (mu.kind === 'flip') {
      const slot = mu.target % (2 + list.length);
      if (slot === 0) return [flipBit(a, mu.bit), b, list];
      if (slot === 1) return [a, flipBit(b, mu.bit), list];
      return [a, b, list.map((p, i) => (i === slot - 2 ? flipBit(p, mu.bit) : p))];
    }
    const out = list.slice();
    if (mu.kind === 'extra') out.splice(mu.at % (list.length + 1), 0, mu.node);
    else if (list.length === 0) return null;
    else if (mu.kind === 'missing') out.splice(mu.at % list.length, 1);
    else if (toHex(mu.node) === toHex(list[mu.at % list.length]!)) return null;
    else out[mu.at % list.length] = mu.node;
    return [a, b, out];
  }

  /** Our verdict equals the reference's; when the mutation can never be right, it is a rejection. */
  function expectAsReference(ours: MerkleResult<true>, reference: boolean, how: string, mustReject: boolean): void {
    expect(ours.ok, `${how}: ${ours.ok ? 'accepted' : ours.code}`).toBe(reference);
    if (mustReject) expect(ours.ok).toBe(false);
  }

  it(
    'inclusion: the verifier answers like the reference on every mutated proof, and rejects all but a size of the same shape',
    () => {
      fc.assert(
        fc.property(treeAndIndex, mutation, ([t, m], mu) => {
          const root = refMth(t.data);
          let index = m;
          let size = t.n;
          let leaf = t.leaves[m]!;
          let path = inclusionProofFor(t.leaves, m)!;
          let expectReject = true;
          let r = root;
          if (mu.kind === 'index') {
            if (mu.value === m) return;
            index = mu.value;
          } else if (mu.kind === 'size') {
            if (mu.value === t.n) return;
            size = mu.value;
            expectReject = false; // the same path can be right for another size of the same shape (leaf 0 of 3 and of 4)
          } else {
            const mutated = mutateHashes(leaf, root, path, mu);
            if (!mutated) return;
            [leaf, r, path] = mutated;
          }
          expectAsReference(verifyInclusion(index, size, leaf, path, r), refVerifyInclusion(index, size, leaf, path, r), mu.kind, expectReject);
        }),
        fuzzParams(600),
      );
    },
    fuzzTimeout(),
  );

  it(
    'consistency: the verifier answers like the reference on every mutated proof, and rejects all but sizes of the same shape',
    () => {
      fc.assert(
        fc.property(treeAndOldSize, mutation, fc.boolean(), ([t, size1], mu, mutateOld) => {
          let m = size1;
          let n = t.n;
          let root1 = refMth(t.data.slice(0, size1));
          let root2 = refMth(t.data);
          let proof = consistencyProofFor(t.leaves, size1, t.n)!;
          let expectReject = true;
          if (mu.kind === 'index' || mu.kind === 'size') {
            const v = mu.kind === 'index' ? mu.value + 1 : mu.value;
            if (mutateOld ? v === m : v === n) return;
            if (mutateOld) m = v;
            else n = v;
            expectReject = false; // another pair of sizes can share the proof's shape
          } else {
            const mutated = mutateHashes(root1, root2, proof, mu);
            if (!mutated) return;
            [root1, root2, proof] = mutated;
          }
          expectAsReference(verifyConsistency(m, n, root1, root2, proof), refVerifyConsistency(m, n, root1, root2, proof), mu.kind, expectReject);
        }),
        fuzzParams(600),
      );
    },
    fuzzTimeout(),
  );
});

const hostileNumber = fc.oneof(
  fc.double(), // includes NaN, ±Infinity, -0, fractions, huge values
  fc.integer({ min: -4, max: 80 }),
  fc.maxSafeNat(),
  fc.bigInt({ min: 0n, max: 2n ** 64n }).map(Number), // near and beyond 2^53
  fc.constantFrom(NaN, -1, -0, 0.5, 2 ** 53, 2 ** 53 - 1, 2 ** 64 - 1, Number.MAX_VALUE, Infinity, -Infinity),
);
const bytes = fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 32, maxLength: 32 }));
const proof = fc.array(bytes, { maxLength: 70 });

function isWellFormedResult(r: unknown): boolean {
  if (typeof r !== 'object' || r === null) return false;
  const res = r as { ok?: unknown; value?: unknown; code?: unknown; detail?: unknown };
  if (res.ok === true) return 'value' in res;
  return res.ok === false && MERKLE_ERROR_CODES.includes(res.code as never) && typeof res.detail === 'string';
}

describe('verifiers never throw on arbitrary numbers and byte arrays', () => {
  it('rootFromInclusionProof / verifyInclusion', () => {
    fc.assert(
      fc.property(hostileNumber, hostileNumber, bytes, proof, bytes, (index, size, leaf, path, root) => {
        expect(isWellFormedResult(rootFromInclusionProof(index, size, leaf, path))).toBe(true);
        expect(isWellFormedResult(verifyInclusion(index, size, leaf, path, root))).toBe(true);
      }),
      fuzzParams(3000),
    );
  });

  it('verifyConsistency', () => {
    fc.assert(
      fc.property(hostileNumber, hostileNumber, bytes, bytes, proof, (size1, size2, root1, root2, path) => {
        expect(isWellFormedResult(verifyConsistency(size1, size2, root1, root2, path))).toBe(true);
      }),
      fuzzParams(3000),
    );
  });

  it('small sizes with 32-byte hashes (reaches the hashing loops)', () => {
    const size = fc.integer({ min: 0, max: 70 });
    const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
    const path = fc.array(hash, { maxLength: 8 });
    fc.assert(
      fc.property(size, size, hash, hash, path, (a, b, h1, h2, p) => {
        expect(isWellFormedResult(verifyInclusion(a, b, h1, p, h2))).toBe(true);
        expect(isWellFormedResult(verifyConsistency(a, b, h1, h2, p))).toBe(true);
      }),
      fuzzParams(3000),
    );
  });

  it('any JS value in any position (untyped callers)', () => {
    const anything = fc.anything({ withTypedArray: true, withBigInt: true, withMap: true, withSet: true });
    fc.assert(
      fc.property(anything, anything, anything, anything, anything, (a, b, c, d, e) => {
        expect(isWellFormedResult(verifyInclusion(a as never, b as never, c as never, d as never, e as never))).toBe(true);
        expect(isWellFormedResult(rootFromInclusionProof(a as never, b as never, c as never, d as never))).toBe(true);
        expect(isWellFormedResult(verifyConsistency(a as never, b as never, c as never, d as never, e as never))).toBe(true);
        rootFromLeafHashes(a as never);
        inclusionProofFor(a as never, b as never);
        consistencyProofFor(a as never, b as never, c as never);
      }),
      fuzzParams(2000),
    );
  });

  it('generators never throw', () => {
    const leaves = fc.array(fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), bytes), { maxLength: 20 });
    fc.assert(
      fc.property(leaves, hostileNumber, hostileNumber, (l, a, b) => {
        rootFromLeafHashes(l);
        inclusionProofFor(l, a);
        consistencyProofFor(l, a, b);
      }),
      fuzzParams(2000),
    );
  });
});
