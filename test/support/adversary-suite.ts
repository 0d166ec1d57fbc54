// The adversarial corpus through the command line, as a suite two test files share
// (lib/verify/adversarial.test.ts and adversarial-classes.test.ts): Vitest runs a file's tests one
// after another in one worker, and the corpus is the longest file of the unit step, so its tamper
// classes are split between two files, which run in parallel.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_PROBLEM_CODES } from '../../lib/verdict/problems';
import { TAMPER_CLASSES, buildBaseLog, makeVariants, type BaseLog, type TamperClass, type Variant } from './adversary';
import { verifyArgs, verifyInProcess, writeVariant } from './adversary-cli';
import { type JudgedReport, judge } from './adversary-judge';
import { requiredCodes } from './adversary-sample';

/** The classes adversarial.test.ts runs; adversarial-classes.test.ts runs every other one. */
export const FIRST_FILE_CLASSES: readonly TamperClass[] = ['signed-field'];

/**
 * Registers the corpus's tests for `classes`; with `basics`, also the base log, the coverage of
 * every problem code, the judge's own test and the command as a process.
 */
export function adversarialCorpus(classes: readonly TamperClass[], basics: boolean): void {
  const SCALE = Number(process.env.ADVERSARY_SCALE ?? 1);
  const SEED = process.env.ADVERSARY_SEED ?? 'adversary-1';
  const BIN = path.join(process.cwd(), 'bin/receipt-audit.mjs');

  let base: BaseLog;
  let work: string;
  const counts: Record<string, { variants: number; targets: number }> = {};

  beforeAll(async () => {
    base = await buildBaseLog(SEED);
    work = mkdtempSync(path.join(tmpdir(), 'ra-adv-run-'));
  }, 60_000);

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    const total = Object.values(counts).reduce((a, c) => a + c.variants, 0);
    console.log(
      `adversarial corpus (seed ${SEED}, scale ${SCALE}): ${total} variants\n` +
        Object.entries(counts)
          .map(([k, c]) => `  ${k}: ${c.variants} variants, ${c.targets} tampered records`)
          .join('\n'),
    );
  });

  let n = 0;
  /** Writes the variant's package and runs `receipt-audit verify <dir> --json --trust-key …` in this process. */
  async function runCli(v: Variant, keys: string[], keep = false): Promise<{ status: number; report: JudgedReport; dir: string }> {
    const dir = path.join(work, `v${n++}`);
    writeVariant(v, dir);
    try {
      return { ...(await verifyInProcess(dir, keys)), dir };
    } finally {
      if (!keep) rmSync(dir, { recursive: true, force: true });
    }
  }

  describe('adversarial corpus through the command line', () => {
    if (basics) {
      it('the untampered base log verifies completely with its keys pinned', async () => {
        const [v] = makeVariants(base, SEED, 1, ['reorder']).filter((x) => x.harmless);
        const { status, report } = await runCli({ ...v!, name: 'base' }, base.trustKeys);
        expect(status).toBe(0);
        expect(report.receipts.length).toBeGreaterThan(30);
        expect(report.receipts.every((r) => r.verdict === 'verified')).toBe(true);
        expect(report.checkpoints.every((c) => c.verdict === 'verified')).toBe(true);
      });

      it('every problem code of the contract (§7) is required by many variants', () => {
        const variants = makeVariants(base, SEED, SCALE);
        const required = new Map<string, number>();
        for (const v of variants) for (const c of requiredCodes(v)) required.set(c, (required.get(c) ?? 0) + 1);
        const thin = PACKAGE_PROBLEM_CODES.filter((c) => (required.get(c) ?? 0) < 10).map((c) => `${c}: ${required.get(c) ?? 0}`);
        expect(thin).toEqual([]);
        console.log(`variants requiring each problem code: ${PACKAGE_PROBLEM_CODES.map((c) => `${c} ${required.get(c)}`).join(', ')}`);
      });

      it('the judge can fail: a tampered record shown verified, or an honest one shown failed, is caught', async () => {
        const v = makeVariants(base, SEED, 0.05, ['signature-bit'])[0]!;
        const { report } = await runCli(v, base.trustKeys);
        expect(judge(v, report)).toEqual({ invariant: [], mismatches: [] });
        const [loc] = [...v.targets.keys()];
        const lie = structuredClone(report);
        const forged = lie.receipts.find((r) => `${r.file}:${r.line}` === loc)!;
        forged.verdict = 'verified';
        expect(judge(v, lie).invariant).toEqual([`receipt ${loc} is tampered but reported verified`]);
        const honest = structuredClone(report);
        const other = honest.receipts.find((r) => `${r.file}:${r.line}` !== loc)!;
        other.verdict = 'failed';
        expect(judge(v, honest).invariant).toEqual([`receipt ${other.file}:${other.line} is untampered but reported failed`]);
      });

      it('the command as a process (bin/receipt-audit.mjs) reports exactly what the in-process run does, one variant per class', () => {
        const pick = TAMPER_CLASSES.map((cls) => makeVariants(base, SEED, 0.05, [cls]).find((v) => !v.harmless)!);
        return Promise.all(
          pick.map(async (v) => {
            const inProcess = await runCli(v, base.trustKeys, true);
            const run = spawnSync(process.execPath, [BIN, ...verifyArgs(inProcess.dir, base.trustKeys)], { maxBuffer: 64 << 20 });
            rmSync(inProcess.dir, { recursive: true, force: true });
            expect(run.status, `${v.cls}: ${run.stderr.toString()}`).toBe(inProcess.status);
            expect(JSON.parse(run.stdout.toString()), v.cls).toEqual(inProcess.report);
            expect(judge(v, inProcess.report).invariant, v.cls).toEqual([]);
          }),
        );
      }, 120_000);
    }

    for (const cls of classes) {
      it(`${cls}: no tampered record verified, no untampered receipt failed, each target's verdict and codes exact`, async () => {
        const variants = makeVariants(base, SEED, SCALE, [cls]);
        expect(variants.length).toBeGreaterThan(0);
        const invariant: string[] = [];
        const mismatches: string[] = [];
        let targets = 0;
        for (const v of variants) {
          const { status, report } = await runCli(v, base.trustKeys);
          const j = judge(v, report);
          targets += v.targets.size;
          invariant.push(...j.invariant.map((m) => `${v.name}: ${m}`));
          mismatches.push(...j.mismatches.map((m) => `${v.name}: ${m}`));
          if (status !== (report.ok ? 0 : 1)) mismatches.push(`${v.name}: exit ${status} with ok ${report.ok}`);
        }
        counts[cls] = { variants: variants.length, targets };
        expect(invariant.slice(0, 20), `${invariant.length} invariant violations`).toEqual([]);
        expect(mismatches.slice(0, 20), `${mismatches.length} mismatches`).toEqual([]);
      }, 300_000);
    }
  });
}
