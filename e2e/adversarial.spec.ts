import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { TAMPER_CLASSES, buildBaseLog, makeVariants, type BaseLog } from '../test/support/adversary';
import { verifyInProcess, writeVariant } from '../test/support/adversary-cli';
import { type JudgedReport, judge } from '../test/support/adversary-judge';
import { planSample, type SamplePlan } from '../test/support/adversary-sample';
import { PACKAGE_PROBLEM_CODES } from '../lib/verdict/problems';
import { pinKey } from './helpers';

// Journey: an auditor drops tampered logs into the page. A sample of the adversarial corpus
// (test/support/adversary.ts; the command line runs all of it in lib/verify/adversarial.test.ts),
// chosen by test/support/adversary-sample.ts: ADVERSARY_PAGE_PER_CLASS variants of every tamper
// class, plus whatever it takes for every problem code of §7. Each variant is loaded through the
// file input and verified in the page's workers; the report it exports (its download) must satisfy
// the variant's expectations (nothing tampered verified, nothing honest failed, exact verdicts and
// codes) and equal the command line's report.
//
// One test per class (or per shard of a class), so `--workers N` spreads them; each Playwright
// worker opens the page once and loads every variant of its tests into it. ADVERSARY_PAGE_PER_CLASS=all
// runs the whole corpus, each class split into ADVERSARY_PAGE_SHARDS tests (default 8 then, else 1).
const SEED = process.env.ADVERSARY_SEED ?? 'adversary-1';
const SCALE = Number(process.env.ADVERSARY_SCALE ?? 1);
// 5 a class by default: with the variants every problem code adds, about 150 through the page (about
// 4 minutes of one worker, a quarter of the browser suite's time); the command line runs all of them.
const PER_CLASS_SETTING = process.env.ADVERSARY_PAGE_PER_CLASS ?? '5';
const PER_CLASS = PER_CLASS_SETTING === 'all' ? Infinity : Number(PER_CLASS_SETTING);
const SHARDS = Number(process.env.ADVERSARY_PAGE_SHARDS ?? (PER_CLASS === Infinity ? 8 : 1));
if (!(PER_CLASS === Infinity || (Number.isInteger(PER_CLASS) && PER_CLASS >= 1)))
  throw new Error(`ADVERSARY_PAGE_PER_CLASS must be a whole number of at least 1, or "all" (it is "${PER_CLASS_SETTING}")`);
if (!(Number.isInteger(SHARDS) && SHARDS >= 1))
  throw new Error(`ADVERSARY_PAGE_SHARDS must be a whole number of at least 1 (it is "${process.env.ADVERSARY_PAGE_SHARDS}")`);
const MEMORY = 'receipt-audit.checkpoints.v1';

type Report = JudgedReport & { packages: { checks: unknown }[] } & Record<string, unknown>;

/** The parts of a report that do not depend on where it was made (the package path does). */
const comparable = (r: Report) => ({ ...r, packages: r.packages.map((p) => p.checks) });

interface Corpus {
  base: BaseLog;
  plan: SamplePlan;
}

/** The page every test of a Playwright worker loads its variants into, with the corpus's keys pinned. */
interface Auditor {
  page: Page;
  /** Loads so far; it alternates the file count, so this load's summary is never the previous one's. */
  loads: number;
}

const it = test.extend<{ auditor: Auditor }, { corpus: Corpus; workerAuditor: Auditor }>({
  corpus: [
    async ({}, use) => {
      const base = await buildBaseLog(SEED);
      await use({ base, plan: planSample(base, SEED, SCALE, PER_CLASS) });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  workerAuditor: [
    async ({ browser, corpus }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      for (const key of corpus.base.trustKeys) await pinKey(page, key);
      await page.goto('/');
      await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
      await use({ page, loads: 0 });
      await context.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  // The worker's page, with a screenshot of it when the test fails (Playwright's own covers only its `page`).
  auditor: async ({ workerAuditor }, use, testInfo) => {
    await use(workerAuditor);
    if (testInfo.status !== testInfo.expectedStatus) {
      const shot = await workerAuditor.page.screenshot().catch(() => null); // a crashed page has none
      if (shot) await testInfo.attach('page', { body: shot, contentType: 'image/png' });
    }
  },
});

/** Loads the package in `dir` through the file input, waits until the page has verified it, and returns the report it exports (the download). */
async function exportFromPage(a: Auditor, dir: string): Promise<Report> {
  // Every other load carries one file more (one the manifest does not list, so it is ignored):
  // the summary's "N files" label then tells this load's report from the one before.
  if (a.loads++ % 2 === 1) writeFileSync(join(dir, 'notes.txt'), 'not part of the package\n');
  const files = readdirSync(dir).map((f) => join(dir, f));
  const label = `${files.length} files`;
  // Each variant is its own log to this browser: no memory of the previous variant's checkpoints.
  await a.page.evaluate((k) => localStorage.removeItem(k), MEMORY);
  await a.page.getByTestId('source-input').setInputFiles(files);
  // Checked in the page every frame: a locator assertion polls at 100, 250, 500 and 1,000 ms, which
  // cost about 75 ms a variant here (half the time the page took to verify one).
  const summary = await a.page.waitForFunction(
    (label) => {
      const el = document.querySelector('[data-testid="verify-summary"]');
      if (el?.getAttribute('data-source') !== label || el.getAttribute('data-done') !== 'true') return false;
      return { exported: document.querySelector('[data-testid="export-report"]') !== null, text: el.textContent ?? '' };
    },
    label,
    { polling: 'raf', timeout: 60_000 },
  );
  const { exported, text } = (await summary.jsonValue()) as { exported: boolean; text: string }; // resolved, so not false
  if (!exported) throw new Error(`the page did not verify ${dir}: ${text}`);
  const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('export-report').click()]);
  return JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
}

it('the sample holds every tamper class and every problem code of §7', ({ corpus }) => {
  const { picks, sizes, codes } = corpus.plan;
  const thin = TAMPER_CLASSES.filter((cls) => picks.get(cls)!.length < Math.min(PER_CLASS, sizes.get(cls)!) || picks.get(cls)!.length === 0);
  expect(thin).toEqual([]);
  expect(PACKAGE_PROBLEM_CODES.filter((c) => !codes.has(c))).toEqual([]);
  const total = [...picks.values()].reduce((n, p) => n + p.length, 0);
  console.log(`adversarial page sample (seed ${SEED}, scale ${SCALE}, ${PER_CLASS_SETTING} a class): ${total} variants over ${TAMPER_CLASSES.length} classes`);
});

for (const cls of TAMPER_CLASSES) {
  for (let shard = 0; shard < SHARDS; shard++) {
    const title = SHARDS > 1 ? `${cls} (${shard + 1} of ${SHARDS})` : cls;
    it(`${title}: the page reports what each variant must, and what the command line does`, async ({ corpus, auditor }) => {
      const { base, plan } = corpus;
      const all = makeVariants(base, SEED, SCALE, [cls]);
      const sample = plan.picks
        .get(cls)!
        .filter((_, k) => k % SHARDS === shard)
        .map((i) => all[i]!);
      it.skip(sample.length === 0, `no variant of ${cls} falls in this shard`);
      it.setTimeout(60_000 + sample.length * 5_000);
      const work = mkdtempSync(join(tmpdir(), 'ra-adv-page-'));
      const failures: string[] = [];
      const started = performance.now();
      try {
        for (const [i, v] of sample.entries()) {
          const dir = join(work, `v${i}`);
          writeVariant(v, dir);
          const browser = await exportFromPage(auditor, dir);
          const j = judge(v, browser);
          failures.push(...[...j.invariant, ...j.mismatches].map((m) => `${v.name}: ${m}`));
          const { status, report: cli } = await verifyInProcess<Report>(dir, base.trustKeys);
          expect(status).toBeLessThan(2);
          if (JSON.stringify(comparable(browser)) !== JSON.stringify(comparable(cli)))
            failures.push(`${v.name}: the page's report differs from the command line's`);
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      console.log(`${title}: ${sample.length} variants through the page in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      expect(failures).toEqual([]);
    });
  }
}
