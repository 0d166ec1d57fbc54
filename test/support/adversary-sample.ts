// Test-only: which variants of the adversarial corpus (adversary.ts) the page runs
// (e2e/adversarial.spec.ts). The command line runs every variant (lib/verify/adversarial.test.ts);
// a variant costs the page about 0.4 s, so CI runs a sample of them:
//   - `perClass` variants of every tamper class (the whole class when it is smaller), tampered
//     ones before harmless ones, chosen by a seeded draw. Not by a stride: the reconciliation
//     maker emits a control and a break per draw, and an even stride picked only the controls.
//   - then, for each problem code of the contract (§7) that no chosen variant requires, the first
//     variant of the corpus that requires it.
// `perClass` Infinity chooses the whole corpus.
import { Prng } from '../../tools/demo/prng';
import { PACKAGE_PROBLEM_CODES, type ProblemCode } from '../../lib/verdict/problems';
import { TAMPER_CLASSES, makeVariants, type BaseLog, type TamperClass, type Variant } from './adversary';

/** The codes a variant requires: anywhere in the report, or at one of its targets. */
export const requiredCodes = (v: Variant): Set<ProblemCode> => new Set([...v.codes, ...[...v.targets.values()].flatMap((t) => t.codes)]);

export interface SamplePlan {
  /** Per class, the chosen variants: indices into `makeVariants(base, seed, scale, [cls])`, ascending. */
  picks: Map<TamperClass, number[]>;
  /** Per class, how many variants it has. */
  sizes: Map<TamperClass, number>;
  /** Per §7 code, how many chosen variants require it (codes no chosen variant requires are absent). */
  codes: Map<ProblemCode, number>;
}

/** `k` of `items` (all when fewer), drawn without replacement. */
function draw<T>(rng: Prng, items: readonly T[], k: number): T[] {
  const left = [...items];
  const out: T[] = [];
  while (out.length < k && left.length > 0) out.push(left.splice(rng.int(0, left.length - 1), 1)[0]!);
  return out;
}

export function planSample(base: BaseLog, seed: string, scale: number, perClass: number): SamplePlan {
  const picks = new Map<TamperClass, number[]>();
  const sizes = new Map<TamperClass, number>();
  const codes = new Map<ProblemCode, number>();
  const count = (v: Variant) => requiredCodes(v).forEach((c) => codes.set(c, (codes.get(c) ?? 0) + 1));
  /** Per code, the first variant of the corpus requiring it: its class, index and codes. */
  const firstWith = new Map<ProblemCode, { cls: TamperClass; index: number; variant: Variant }>();
  for (const cls of TAMPER_CLASSES) {
    const all = makeVariants(base, seed, scale, [cls]);
    const indices = all.map((_, i) => i);
    const tampered = indices.filter((i) => !all[i]!.harmless);
    const harmless = indices.filter((i) => all[i]!.harmless);
    const rng = new Prng(seed, `page-sample|${cls}`);
    const chosen = draw(rng, tampered, perClass);
    chosen.push(...draw(rng, harmless, perClass - chosen.length));
    picks.set(
      cls,
      chosen.sort((a, b) => a - b),
    );
    sizes.set(cls, all.length);
    for (const i of chosen) count(all[i]!);
    all.forEach((variant, index) => requiredCodes(variant).forEach((c) => firstWith.has(c) || firstWith.set(c, { cls, index, variant })));
  }
  for (const code of PACKAGE_PROBLEM_CODES) {
    const first = firstWith.get(code);
    if (codes.has(code) || !first) continue;
    picks.set(
      first.cls,
      [...picks.get(first.cls)!, first.index].sort((a, b) => a - b),
    );
    count(first.variant);
  }
  return { picks, sizes, codes };
}
