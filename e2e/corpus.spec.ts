import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles } from './helpers';

// Journey: an auditor drops a log into the page. For every case of the reference corpus, the
// report the page exports must be the command line's report, receipt by receipt.
const CORPUS = join(process.cwd(), 'lib/testdata/corpus');
const cases = readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

type Report = {
  ok: boolean;
  summary: unknown;
  receipts: { id: string; verdict: string; checks: unknown; details?: unknown }[];
  checkpoints: unknown[];
  problems: { code: string; file?: string; line?: number; receipt_id?: string; message: string }[];
  finance: unknown;
  packages: { checks: unknown }[];
};

const comparable = (r: Report) => ({
  ok: r.ok,
  summary: r.summary,
  receipts: r.receipts,
  checkpoints: r.checkpoints,
  problems: r.problems,
  finance: r.finance,
  packages: r.packages.map((p) => p.checks),
});

for (const name of cases) {
  test(`corpus ${name}: the page's exported report equals the CLI's`, async ({ page }, testInfo) => {
    const dir = join(CORPUS, name);
    // Exit status 1 when the log fails; the report is on stdout either way.
    const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', dir, '--json'], { maxBuffer: 64 << 20 });
    expect(run.status, run.stderr.toString()).toBeLessThan(2);
    const cli = JSON.parse(run.stdout.toString()) as Report;
    await openFiles(page, readdirSync(dir).map((f) => join(dir, f)));
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', String(cli.ok));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
    const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
    expect(comparable(browser)).toEqual(comparable(cli));
    await page.screenshot({ path: join(testInfo.project.outputDir, `corpus-${name}.png`), fullPage: true });
  });
}
