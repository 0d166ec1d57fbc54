// Property tests: the verifiers never throw on hostile input, and always answer with one of
// the closed set of codes. Plus the lib boundary: no node:*, react or next imports.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as merkle from './index';

const { MERKLE_ERROR_CODES, consistencyProofFor, inclusionProofFor, rootFromInclusionProof, rootFromLeafHashes, verifyConsistency, verifyInclusion } =
  merkle;

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
      { numRuns: 3000 },
    );
  });

  it('verifyConsistency', () => {
    fc.assert(
      fc.property(hostileNumber, hostileNumber, bytes, bytes, proof, (size1, size2, root1, root2, path) => {
        expect(isWellFormedResult(verifyConsistency(size1, size2, root1, root2, path))).toBe(true);
      }),
      { numRuns: 3000 },
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
      { numRuns: 3000 },
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
      { numRuns: 2000 },
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
      { numRuns: 2000 },
    );
  });
});

describe('lib/merkle boundary', () => {
  it('non-test modules import nothing platform-specific', () => {
    const dir = new URL('./', import.meta.url);
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const offenders: string[] = [];
    for (const file of modules) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      for (const m of source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1] ?? m[2] ?? '';
        if (!spec.startsWith('.')) offenders.push(`${file}: ${spec}`);
      }
    }
    expect(modules.length).toBeGreaterThanOrEqual(5);
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('index exports the public API', () => {
    expect(Object.keys(merkle).sort()).toEqual(
      [
        'HASH_SIZE',
        'MERKLE_ERROR_CODES',
        'consistencyProofFor',
        'inclusionProofFor',
        'leafHash',
        'nodeHash',
        'rootFromInclusionProof',
        'rootFromLeafHashes',
        'verifyConsistency',
        'verifyInclusion',
      ].sort(),
    );
  });
});
