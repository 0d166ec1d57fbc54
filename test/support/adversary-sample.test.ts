// The page's sample of the adversarial corpus (adversary-sample.ts), on a small corpus (scale 0.05).
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_PROBLEM_CODES } from '../../lib/verdict/problems';
import { TAMPER_CLASSES, buildBaseLog, makeVariants, type BaseLog, type TamperClass, type Variant } from './adversary';
import { planSample, requiredCodes } from './adversary-sample';

const SEED = 'adversary-1';
const SCALE = 0.05;
let base: BaseLog;
const corpus = new Map<TamperClass, Variant[]>();

beforeAll(async () => {
  base = await buildBaseLog(SEED);
  for (const cls of TAMPER_CLASSES) corpus.set(cls, makeVariants(base, SEED, SCALE, [cls]));
}, 60_000);

describe('planSample', () => {
  it('with no floor, it still chooses a variant requiring each problem code of §7, and counts their codes', () => {
    const plan = planSample(base, SEED, SCALE, 0);
    expect(PACKAGE_PROBLEM_CODES.filter((c) => !plan.codes.has(c))).toEqual([]);
    const chosen = TAMPER_CLASSES.flatMap((cls) => plan.picks.get(cls)!.map((i) => corpus.get(cls)![i]!));
    expect(chosen.length).toBeGreaterThan(0);
    expect(chosen.length).toBeLessThanOrEqual(PACKAGE_PROBLEM_CODES.length);
    const counted = new Map<string, number>();
    for (const v of chosen) for (const c of requiredCodes(v)) counted.set(c, (counted.get(c) ?? 0) + 1);
    expect(plan.codes).toEqual(counted);
  });

  it('takes the floor of every class, tampered variants first, the same for the same seed', () => {
    const plan = planSample(base, SEED, SCALE, 3);
    for (const cls of TAMPER_CLASSES) {
      const all = corpus.get(cls)!;
      const picked = plan.picks.get(cls)!;
      expect(plan.sizes.get(cls)).toBe(all.length);
      expect(new Set(picked).size, cls).toBe(picked.length);
      expect(picked.length, cls).toBeGreaterThanOrEqual(Math.min(3, all.length));
      const tampered = all.filter((v) => !v.harmless).length;
      expect(picked.filter((i) => !all[i]!.harmless).length, cls).toBeGreaterThanOrEqual(Math.min(3, tampered));
    }
    expect(planSample(base, SEED, SCALE, 3).picks).toEqual(plan.picks);
    expect(planSample(base, 'adversary-2', SCALE, 3).picks).not.toEqual(plan.picks);
  });

  it('Infinity chooses the whole corpus', () => {
    const plan = planSample(base, SEED, SCALE, Infinity);
    for (const cls of TAMPER_CLASSES) expect(plan.picks.get(cls), cls).toEqual(corpus.get(cls)!.map((_, i) => i));
  });
});
