import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles, pinKey } from './helpers';
import { NOTHING_PINNED } from './pinned';

// Journey: an auditor drops a log into the page. For every case of the reference corpus, the
// report the page exports must be the command line's report, receipt by receipt.
const CORPUS = join(process.cwd(), 'lib/testdata/corpus');
const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

type Report = {
  ok: boolean;
  summary: unknown;
  receipts: { id: string; verdict: string; checks: unknown; details?: unknown }[];
  checkpoints: unknown[];
  lineage?: unknown[];
  problems: { code: string; file?: string; line?: number; receipt_id?: string; message: string }[];
  finance: unknown;
  packages: { checks: unknown }[];
};

const comparable = (r: Report) => ({
  ok: r.ok,
  summary: r.summary,
  receipts: r.receipts,
  checkpoints: r.checkpoints,
  lineage: r.lineage,
  problems: r.problems,
  finance: r.finance,
  packages: r.packages.map((p) => p.checks),
});

for (const name of cases) {
  test(`corpus ${name}: with the key pinned on /trust, the page's exported report equals the CLI's with --trust-key`, async ({ page }, testInfo) => {
    const dir = join(CORPUS, name);
    const keys = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
    for (const key of keys) await pinKey(page, key);
    // Exit status 1 when the log fails; the report is on stdout either way.
    const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', dir, ...keys.flatMap((k) => ['--trust-key', k]), '--json'], {
      maxBuffer: 64 << 20,
    });
    expect(run.status, run.stderr.toString()).toBeLessThan(2);
    const cli = JSON.parse(run.stdout.toString()) as Report;
    await openFiles(
      page,
      readdirSync(dir).map((f) => join(dir, f)),
    );
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', String(cli.ok));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
    const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
    expect(comparable(browser)).toEqual(comparable(cli));
    expect(browser.receipts.every((r) => (r.checks as { signer_trusted?: string }).signer_trusted === 'pass')).toBe(true);
    await page.screenshot({ path: join(testInfo.project.outputDir, `corpus-${name}.png`), fullPage: true });
  });
}

test.describe('with nothing pinned', () => {
  test.use({ storageState: NOTHING_PINNED });
  test('without pinned keys too, the page and the CLI agree (signer_trusted skipped in both)', async ({ page }) => {
    const dir = join(CORPUS, 'tampered-signature');
    const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', dir, '--json'], { maxBuffer: 64 << 20 });
    const cli = JSON.parse(run.stdout.toString()) as Report;
    await openFiles(
      page,
      readdirSync(dir).map((f) => join(dir, f)),
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
    const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
    expect(comparable(browser)).toEqual(comparable(cli));
  });
});
