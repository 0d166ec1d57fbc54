import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { TAMPER_CLASSES, buildBaseLog, judge, makeVariants, verifyInProcess, writeVariant, type JudgedReport, type Variant } from '../lib/testutil/adversary';
import { pinKey } from './helpers';

// Journey: an auditor drops tampered logs into the page. A sample of the adversarial corpus
// (lib/testutil/adversary.ts; the command line runs all of it in lib/verify/adversarial.test.ts),
// ADVERSARY_PAGE_PER_CLASS variants of every tamper class, each loaded through the file input:
// the report the page exports must satisfy the variant's expectations (nothing tampered verified,
// nothing honest failed, exact verdicts and codes) and equal the command line's report.
const SEED = process.env.ADVERSARY_SEED ?? 'adversary-1';
const PER_CLASS = Number(process.env.ADVERSARY_PAGE_PER_CLASS ?? 4);
const MEMORY = 'receipt-audit.checkpoints.v1';

type Report = JudgedReport & { packages: { checks: unknown }[] } & Record<string, unknown>;

/** The parts of a report that do not depend on where it was made (the package path does). */
const comparable = (r: Report) => ({ ...r, packages: r.packages.map((p) => p.checks) });

test('a sample of every tamper class: the page reports what each variant must, and what the command line does', async ({ page }) => {
  test.setTimeout(10 * 60_000);
  const base = await buildBaseLog(SEED);
  const sample: Variant[] = [];
  for (const cls of TAMPER_CLASSES) {
    const all = makeVariants(base, SEED, 0.05, [cls]);
    const tampered = all.filter((v) => !v.harmless);
    const pool = tampered.length > 0 ? tampered : all;
    for (let i = 0; i < Math.min(PER_CLASS, pool.length); i++) sample.push(pool[Math.floor((i * pool.length) / PER_CLASS)]!);
  }
  for (const key of base.trustKeys) await pinKey(page, key);
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });

  const work = mkdtempSync(join(tmpdir(), 'ra-adv-page-'));
  const failures: string[] = [];
  try {
    for (const [i, v] of sample.entries()) {
      const dir = join(work, `v${i}`);
      writeVariant(v, dir);
      // Every other load carries one file more (one the manifest does not list, so it is ignored):
      // the summary's "N files" label then tells this load's report from the one before.
      if (i % 2 === 1) writeFileSync(join(dir, 'notes.txt'), 'not part of the package\n');
      const files = readdirSync(dir).map((f) => join(dir, f));
      // Each variant is its own log to this browser: no memory of the previous variant's checkpoints.
      await page.evaluate((k) => localStorage.removeItem(k), MEMORY);
      await page.getByTestId('source-input').setInputFiles(files);
      await expect(summary).toHaveAttribute('data-source', `${files.length} files`);
      await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
      const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
      const j = judge(v, browser);
      failures.push(...[...j.invariant, ...j.mismatches].map((m) => `${v.cls} / ${v.name}: ${m}`));
      const { status, report: cli } = await verifyInProcess<Report>(dir, base.trustKeys);
      expect(status).toBeLessThan(2);
      if (JSON.stringify(comparable(browser)) !== JSON.stringify(comparable(cli))) failures.push(`${v.cls} / ${v.name}: the page's report differs from the command line's`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`adversarial page sample: ${sample.length} variants over ${TAMPER_CLASSES.length} classes`);
  expect(failures).toEqual([]);
});
