// The command line's node:crypto Ed25519 engine against the same vectors and fuzz input as the
// WebCrypto and noble engines (lib/crypto/ed25519*.test.ts): lib's probe finds it cofactorless,
// and every verdict and reason is the same on all four engines.
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromHex, utf8 } from '../../lib/bytes/hex';
import { activeEd25519Engine, ed25519Support, registerEd25519Backend, verifyEd25519, type Ed25519Result } from '../../lib/crypto/ed25519';
import { COFACTOR_PROBE } from '../../lib/crypto/ed25519-backend';
import {
  ED25519_EXPECTED_COUNTS,
  ED25519_VECTOR_FILES,
  describeEd25519Result,
  parseEd25519Vectors,
  runEd25519Suite,
  type Ed25519VectorFiles,
  type SourceOutcome,
} from '../../lib/selftest/ed25519-vectors';
import { T8, signWithTorsionR, signedCase } from '../../test/support/ed25519-forge';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { readTestdataText } from '../../test/support/testdata';
import { nodeChecker } from './node-checker';
import { nodeEd25519, nodeEd25519Pooled } from './node-ed25519';

const ENGINES = [nodeEd25519, nodeEd25519Pooled, 'webcrypto', 'noble'] as const;
const nameOf = (e: (typeof ENGINES)[number]) => (typeof e === 'string' ? e : e.name);

async function allEngines(key: Uint8Array, msg: Uint8Array, sig: Uint8Array): Promise<Ed25519Result> {
  const [node, ...others] = await Promise.all(ENGINES.map((engine) => verifyEd25519(key, msg, sig, { engine })));
  for (const [i, r] of others.entries()) expect(r, `node and ${nameOf(ENGINES[i + 1]!)} disagree`).toEqual(node);
  return node!;
}

describe('the probe', () => {
  it('finds node:crypto cofactorless: it refuses the mixed-order-R probe signature that noble accepts', async () => {
    expect(await ed25519Support(nodeEd25519)).toBe('cofactorless');
    const [key, msg, sig] = [COFACTOR_PROBE.publicKey, COFACTOR_PROBE.message, COFACTOR_PROBE.signature].map((h) => fromHex(h)!) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    expect(nodeEd25519.verify(key, COFACTOR_PROBE.publicKey, msg, sig)).toBe(false);
    expect(ed.verify(sig, msg, key, { zip215: false })).toBe(true);
  });

  it('an engine that answers wrongly is unavailable, and auto falls back past it', async () => {
    const broken = { name: 'broken', verify: () => true };
    expect(await ed25519Support(broken)).toBe('unavailable');
    registerEd25519Backend(broken);
    try {
      expect(await activeEd25519Engine()).toBe('webcrypto');
      const seed = new Uint8Array(32).fill(3);
      const honest = [ed.getPublicKey(seed), utf8('m'), ed.sign(utf8('m'), seed)] as const;
      expect(await verifyEd25519(...honest)).toEqual({ valid: true });
      await expect(verifyEd25519(...honest, { engine: broken })).rejects.toThrow(/broken/);
    } finally {
      registerEd25519Backend(null);
    }
  });

  it('the command line registers it: auto then runs on node-pool in the main thread', async () => {
    await nodeChecker(0, 0);
    try {
      expect(await activeEd25519Engine()).toBe('node-pool');
    } finally {
      registerEd25519Backend(null);
    }
  });
});

describe('every upstream vector (lib/testdata/ed25519)', () => {
  const files = Object.fromEntries(Object.entries(ED25519_VECTOR_FILES).map(([k, rel]) => [k, readTestdataText(rel)])) as unknown as Ed25519VectorFiles;
  const vectors = parseEd25519Vectors(files);
  const runs: Record<string, { results: Ed25519Result[]; bySource: SourceOutcome[] }> = {};
  beforeAll(async () => {
    for (const engine of ENGINES) runs[nameOf(engine)] = await runEd25519Suite(vectors, engine);
  });

  for (const source of Object.keys(ED25519_EXPECTED_COUNTS) as (keyof typeof ED25519_EXPECTED_COUNTS)[]) {
    it(`${source}: every vector gets its expected verdict on node and node-pool`, () => {
      for (const engine of ['node', 'node-pool']) {
        const o = runs[engine]!.bySource.find((x) => x.source === source)!;
        expect(o.failures, `${engine}: ${o.matched} of ${o.total} as expected\n${o.failures.join('\n')}`).toEqual([]);
        expect(o.total).toBe(ED25519_EXPECTED_COUNTS[source]);
      }
    });
  }

  it('node, node-pool, webcrypto and noble give the same verdict and reason on every vector', () => {
    const failures: string[] = [];
    vectors.forEach((v, i) => {
      const got = ENGINES.map((e) => `${nameOf(e)} ${describeEd25519Result(runs[nameOf(e)]!.results[i]!)}`);
      if (new Set(got.map((g) => g.slice(g.indexOf(' ')))).size !== 1) failures.push(`${v.source} ${v.label}: ${got.join(', ')}`);
    });
    expect(vectors.length).toBeGreaterThan(200);
    expect(failures, `${vectors.length - failures.length} of ${vectors.length} agree\n${failures.join('\n')}`).toEqual([]);
  });
});

describe('the strict rules apply to node unchanged', () => {
  it('a mixed-order R (a signature noble accepts) is r_not_in_prime_subgroup', async () => {
    const seed = new Uint8Array(32).fill(11);
    const message = utf8('mixed-order R on node');
    const { publicKey, signature } = signWithTorsionR(seed, message, T8);
    expect(ed.verify(signature, message, publicKey, { zip215: false })).toBe(true);
    expect(await allEngines(publicKey, message, signature)).toEqual({ valid: false, reason: 'r_not_in_prime_subgroup' });
  });

  it(
    'fuzz: honest, mutated and forged signatures get the same result on all four engines',
    async () => {
      await fc.assert(
        fc.asyncProperty(signedCase, async ({ key, msg, sig, how }) => {
          const r = await allEngines(key, msg, sig);
          if (how === 'honest') expect(r).toEqual({ valid: true });
        }),
        fuzzParams(200, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );

  it(
    'fuzz: any bytes, never a throw, the same result on all four engines',
    async () => {
      const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
      await fc.assert(
        fc.asyncProperty(fc.oneof(bytes(32, 32), bytes(0, 40)), bytes(0, 64), fc.oneof(bytes(64, 64), bytes(0, 70)), async (key, msg, sig) => {
          expect((await allEngines(key, msg, sig)).valid).toBe(false);
        }),
        fuzzParams(200, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );
});
