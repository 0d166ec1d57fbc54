// Every upstream Ed25519 vector under lib/testdata/ed25519/, through both
// engines (forced), plus the differential test between them.
import { readFileSync } from 'node:fs';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { precheckEd25519, webCryptoEd25519Support, type Ed25519Result } from './ed25519';
import {
  ED25519_EXPECTED_COUNTS,
  ED25519_VECTOR_FILES,
  describeEd25519Result,
  parseEd25519Vectors,
  runEd25519Suite,
  type Ed25519Vector,
  type Ed25519VectorFiles,
  type SourceOutcome,
} from '../selftest/ed25519-vectors';

type Vector = Ed25519Vector;

const text = (rel: string) => readFileSync(new URL(`../testdata/${rel}`, import.meta.url), 'utf8');
const files = Object.fromEntries(Object.entries(ED25519_VECTOR_FILES).map(([k, rel]) => [k, text(rel)])) as unknown as Ed25519VectorFiles;
const vectors = parseEd25519Vectors(files);
const EXPECTED_COUNTS = ED25519_EXPECTED_COUNTS;
const ENGINES = ['webcrypto', 'noble'] as const;
const results: Record<(typeof ENGINES)[number], Ed25519Result[]> = { webcrypto: [], noble: [] };

const describeResult = describeEd25519Result;

const suites: Partial<Record<(typeof ENGINES)[number], SourceOutcome[]>> = {};
beforeAll(async () => {
  for (const engine of ENGINES) {
    const run = await runEd25519Suite(vectors, engine);
    results[engine] = run.results;
    suites[engine] = run.bySource;
  }
});

it('loads every vector file completely', () => {
  for (const [source, n] of Object.entries(EXPECTED_COUNTS)) {
    expect(vectors.filter((v) => v.source === source).length, source).toBe(n);
  }
  const wp = vectors.filter((v) => v.source === 'wycheproof');
  expect([wp.filter((v) => v.expectValid).length, wp.filter((v) => !v.expectValid).length]).toEqual([88, 63]);
});

it('runs in a Node whose WebCrypto Ed25519 is cofactorless', async () => {
  expect(await webCryptoEd25519Support()).toBe('cofactorless');
});

for (const engine of ENGINES) {
  describe(`engine ${engine}`, () => {
    for (const source of Object.keys(EXPECTED_COUNTS) as Vector['source'][]) {
      it(`${source}: every vector gets its expected verdict`, () => {
        const o = suites[engine]!.find((x) => x.source === source)!;
        expect(o.failures, `${engine} ${source}: ${o.matched} of ${o.total} as expected\n${o.failures.join('\n')}`).toEqual([]);
        expect(o.total).toBe(EXPECTED_COUNTS[source]);
      });
    }
  });
}

it('differential: webcrypto and noble return the same verdict and reason on every vector', () => {
  const failures: string[] = [];
  vectors.forEach((v, i) => {
    const a = describeResult(results.webcrypto[i]!);
    const b = describeResult(results.noble[i]!);
    if (a !== b) failures.push(`  ${v.source} ${v.label}: webcrypto ${a}, noble ${b}`);
  });
  expect(failures, `${vectors.length - failures.length} of ${vectors.length} agree\n${failures.join('\n')}`).toEqual([]);
});

describe('speccheck: the pre-checks, not the engines, reject what OpenSSL accepts', () => {
  const cases = vectors.filter((v) => v.source === 'speccheck');
  // Reason per case under our fixed check order (see precheckEd25519). Keys
  // f7badec5… (cases 2, 8, 9) and cdb267ce… (cases 3, 4, 5) have a torsion
  // component, so the key check fires before anything about R or S.
  const expectedReasons = [
    'small_order_key', // 0: small-order A (and R)
    'small_order_key', // 1: small-order A
    'key_not_in_prime_subgroup', // 2: small-order R, mixed-order A
    'key_not_in_prime_subgroup', // 3: mixed-order A and R
    'key_not_in_prime_subgroup', // 4: passes only cofactored verification
    'key_not_in_prime_subgroup', // 5: "pre-reduced" scalar
    's_not_reduced', // 6: S >= L
    's_not_reduced', // 7: S >= L
    'key_not_in_prime_subgroup', // 8: non-canonical R (mixed-order A)
    'key_not_in_prime_subgroup', // 9: non-canonical R (mixed-order A)
    'noncanonical_key', // 10: y = p
    'noncanonical_key', // 11: y = p
  ];

  const rawWebCrypto = async (v: Vector) => {
    const key = await crypto.subtle.importKey('raw', new Uint8Array(v.publicKey), { name: 'Ed25519' }, false, ['verify']);
    return crypto.subtle.verify({ name: 'Ed25519' }, key, new Uint8Array(v.signature), new Uint8Array(v.message));
  };
  const spki = (pk: Uint8Array) => createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), pk]), format: 'der', type: 'spki' });

  it('OpenSSL (node:crypto) and raw WebCrypto accept exactly cases 0, 1, 2, 3 and 11', async () => {
    const openssl: number[] = [];
    const webcrypto: number[] = [];
    for (const [i, v] of cases.entries()) {
      if (nodeVerify(null, v.message, spki(v.publicKey), v.signature)) openssl.push(i);
      if (await rawWebCrypto(v)) webcrypto.push(i);
    }
    expect(openssl).toEqual([0, 1, 2, 3, 11]);
    expect(webcrypto).toEqual([0, 1, 2, 3, 11]);
  });

  it('precheckEd25519 alone rejects all 12, including 0, 1, 2, 3 and 11', () => {
    const got = cases.map((v) => {
      const p = precheckEd25519(v.publicKey, v.signature);
      return p.ok ? 'passes pre-checks' : p.reason;
    });
    expect(got).toEqual(expectedReasons);
  });

  it('each engine reports the same reason per case', () => {
    for (const engine of ENGINES) {
      const got = vectors.flatMap((v, i) => (v.source === 'speccheck' ? [describeResult(results[engine][i]!)] : []));
      expect(got, engine).toEqual(expectedReasons.map((r) => `invalid (${r})`));
    }
  });
});
