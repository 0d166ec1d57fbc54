import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openFiles, pinKey } from './helpers';
import { DEMO_KERNEL_KEY } from '../lib/trust/known-keys';
import { CORPUS_KEY } from './pinned';

// Journey: a security reviewer opens /security and reads, at a glance, what verified and what did
// not, what the guards denied, by whom and when; every number matches the command line's report
// (or, for denials, which that report does not carry, the raw log), and clicking a bar, a row or a
// matrix cell opens the explorer on exactly the receipts it counts.
const CORPUS = join(process.cwd(), 'lib/testdata/corpus');
const DEMO_STORE = join(process.cwd(), 'data/demo/receipts.sqlite3');
const fmt = (n: number) => n.toLocaleString('en-US');

interface CliReport {
  summary: { receipts: number; verified: number; failed: number; unverified: number; checkpoints: number };
  checkpoints: { verdict: string }[];
  problems: { code: string; severity: string; receipt_id?: string }[];
  keys: { key: string }[];
  receipts: { checks: Record<string, string> }[];
}

/** The CLI's report, by default with the keys the page has pinned (e2e/pinned.ts). */
function cli(path: string, keys: string[] = [DEMO_KERNEL_KEY, CORPUS_KEY]): CliReport {
  // Exit status 1 when the log fails; the report is on stdout either way.
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', path, ...keys.flatMap((k) => ['--trust-key', k]), '--json'], {
    maxBuffer: 256 << 20,
  });
  expect(run.status, run.stderr.toString()).toBeLessThan(2);
  return JSON.parse(run.stdout.toString()) as CliReport;
}

/** The explorer's "N of M receipts" count, once it shows the filtered rows. */
async function explorerCount(page: Page): Promise<number> {
  const count = page.getByTestId('explorer-count');
  await expect(count).not.toContainText('still verifying');
  return Number((await count.innerText()).split(' of ')[0]!.replace(/,/g, ''));
}

/** The numbers of the report the page must show, read off the page. */
async function expectReportNumbers(page: Page, report: CliReport): Promise<void> {
  const s = report.summary;
  const verification = page.locator('[data-testid=health-line][data-topic=verification]');
  await expect(verification).toContainText(`${fmt(s.verified)} of ${fmt(s.receipts)} receipts verified`);
  await expect(verification).toHaveAttribute('data-status', s.failed ? 'bad' : s.unverified ? 'warn' : 'good');
  await expect(page.getByTestId('failed-receipts')).toHaveText(fmt(s.failed));
  await expect(page.getByTestId('unverified-receipts')).toHaveText(fmt(s.unverified));
  const cpFailed = report.checkpoints.filter((c) => c.verdict === 'failed').length;
  await expect(page.getByTestId('failed-checkpoints-count')).toHaveText(`${cpFailed} of ${fmt(s.checkpoints)}`);
  await expect(page.getByTestId('verified-note')).toHaveAttribute('data-counted', String(s.verified));
  await expect(page.getByTestId('verified-note')).toHaveAttribute('data-left', String(s.failed + s.unverified));
  // Failed verifications grouped by the report's error codes, with as many problems each.
  const errors = new Map<string, number>();
  for (const p of report.problems) if (p.severity === 'error') errors.set(p.code, (errors.get(p.code) ?? 0) + 1);
  const groups = page.getByTestId('failure-group');
  await expect(groups).toHaveCount(errors.size);
  for (const [code, n] of errors) await expect(groups.and(page.locator(`[data-code=${code}]`))).toHaveAttribute('data-count', String(n));
  const unsigned = new Set(report.problems.filter((p) => p.code === 'unsigned_field').map((p) => p.receipt_id)).size;
  await expect(page.getByTestId('flagged-unsigned_field')).toHaveAttribute('data-count', String(unsigned));
}

/** Clicks the bottom segment of the bar with the most denials of one named series; returns what it counts. */
async function clickBar(page: Page): Promise<{ since: number; until: number; key: string; count: number }> {
  const chart = page.getByTestId('denials-chart');
  const starts = JSON.parse((await chart.getAttribute('data-starts'))!) as number[];
  const bottom = JSON.parse((await chart.getAttribute('data-bottom'))!) as (string | null)[];
  const counts = JSON.parse((await chart.getAttribute('data-bottom-count'))!) as number[];
  const width = Number(await chart.getAttribute('data-bucket-seconds'));
  let b = -1;
  counts.forEach((c, i) => {
    if (bottom[i] && (b < 0 || c > counts[b]!)) b = i;
  });
  expect(b).toBeGreaterThanOrEqual(0);
  const box = (await chart.getByRole('img').boundingBox())!;
  // The plot area (components/readers/security/denials-over-time.tsx DENIALS_GRID): 48 px each side, 48 below.
  const x = 48 + ((b + 0.5) * (box.width - 96)) / starts.length;
  await chart.getByRole('img').click({ position: { x, y: box.height - 48 - 3 } });
  return { since: starts[b]!, until: starts[b]! + width - 1, key: bottom[b]!, count: counts[b]! };
}

test('the demo: health, denials, deny rates and the guard matrix; bars, rows and cells open the explorer on their receipts', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const report = cli(DEMO_STORE);
  await page.goto('/security');
  await expect(page.getByTestId('security-view')).toBeVisible({ timeout: 60_000 });
  await expectReportNumbers(page, report);
  // The demo kernel's key is pinned (e2e/pinned.ts): only the uncheckpointed tail skips a check.
  await expect(page.locator('[data-testid=health-line][data-topic=signers]')).toContainText('The signer is pinned as trusted.');
  const tail = report.receipts.filter((r) => r.checks.inclusion === 'skipped').length;
  expect(tail).toBeGreaterThan(0);
  await expect(page.locator('[data-testid=health-line][data-topic=skipped]')).toHaveText(
    `OKChecks skipped: inclusion on ${fmt(tail)} receipts (no checkpoint covers them yet).`,
  );
  await expect(page.getByTestId('failed-none')).toBeVisible();

  // The denial totals agree with each other: the health line, the chart, the two tables, the servers.
  const denials = page.locator('[data-testid=health-line][data-topic=denials]');
  const denied = Number((await denials.getByRole('link').nth(1).innerText()).replace(/,/g, ''));
  expect(denied).toBeGreaterThan(100);
  await expect(page.getByTestId('denials-chart')).toHaveAttribute('data-total', String(denied));
  const sum = async (sel: string, attr: string) =>
    (await page.locator(sel).evaluateAll((els, a) => els.map((e) => Number(e.getAttribute(a))), attr)).reduce((x, y) => x + y, 0);
  expect(await sum('[data-testid=denials-by-guard] tbody tr', 'data-count')).toBe(denied);
  expect(await sum('[data-testid=deny-rates] tbody tr', 'data-denied')).toBe(denied);
  await page.screenshot({ path: testInfo.outputPath('security-demo.png'), fullPage: true });

  // A bar: the explorer lists that guard's verified denials in that bucket.
  const bar = await clickBar(page);
  await expect(page).toHaveURL(/\/receipts\?/);
  const url = new URL(page.url());
  expect(url.searchParams.getAll('decision')).toEqual(['deny']);
  expect(url.searchParams.getAll('guard')).toEqual([bar.key]);
  expect(url.searchParams.getAll('verdict')).toEqual(['verified']);
  expect([Number(url.searchParams.get('since')), Number(url.searchParams.get('until'))]).toEqual([bar.since, bar.until]);
  expect(await explorerCount(page)).toBe(bar.count);
  await page.goBack();

  // Grouped by tool, in hour-wide bars: the state is in the URL and survives a reload.
  await page.getByTestId('stack-by-tool').click();
  await page.getByTestId('denials-bucket').selectOption('3600');
  await expect(page).toHaveURL(/[?&]by=tool/);
  await expect(page).toHaveURL(/[?&]bucket=3600/);
  await page.reload();
  await expect(page.getByTestId('denials-chart')).toHaveAttribute('data-by', 'tool', { timeout: 60_000 });
  await expect(page.getByTestId('denials-chart')).toHaveAttribute('data-bucket-seconds', '3600');
  await expect(page.getByTestId('denials-chart')).toHaveAttribute('data-total', String(denied));
  const byTool = await clickBar(page);
  await expect(page).toHaveURL(/\/receipts\?/);
  expect(new URL(page.url()).searchParams.getAll('toolName')).toEqual([byTool.key]);
  expect(await explorerCount(page)).toBe(byTool.count);
  await page.goBack();

  // A server row: its denials.
  const row = page.locator('[data-testid=deny-rates] tbody tr').first();
  const server = (await row.getAttribute('data-server'))!;
  const serverDenied = Number(await row.getAttribute('data-denied'));
  await row.locator('td.rate-col').click();
  await expect(page).toHaveURL(/\/receipts\?/);
  expect(new URL(page.url()).searchParams.getAll('toolServer')).toEqual([server]);
  expect(await explorerCount(page)).toBe(serverDenied);
  await page.goBack();

  // A matrix cell's failures: that tool's receipts whose evidence failed at that guard.
  const cell = page.locator('[data-testid=guard-matrix] td.cell[data-fail]:not([data-fail="0"])').first();
  const fails = Number(await cell.getAttribute('data-fail'));
  const guard = (await cell.getAttribute('data-guard'))!;
  const tool = (await cell.locator('xpath=ancestor::tr').getAttribute('data-tool'))!;
  await cell.getByTestId('matrix-fail-link').click();
  await expect(page).toHaveURL(/\/receipts\?/);
  const cellUrl = new URL(page.url());
  expect([cellUrl.searchParams.getAll('toolName'), cellUrl.searchParams.getAll('guardFailed')]).toEqual([[tool], [guard]]);
  expect(await explorerCount(page)).toBe(fails);
  await page.screenshot({ path: testInfo.outputPath('security-demo-matrix-cell-explorer.png') });
});

test('corpus/good with its key pinned: the numbers match the CLI report and a count of the raw log', async ({ page }, testInfo) => {
  const dir = join(CORPUS, 'good');
  const keys = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
  for (const key of keys) await pinKey(page, key);
  const report = cli(dir, keys);
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  // In-app navigation keeps the opened files (a reload could not reopen them).
  await page.getByRole('navigation').getByRole('link', { name: 'Security' }).click();
  await expect(page.getByTestId('security-view')).toHaveAttribute('data-source', '14 files');
  await expectReportNumbers(page, report);
  await expect(page.locator('[data-testid=health-line][data-topic=signers]')).toHaveText(/The signer is pinned as trusted\./);
  await expect(page.locator('[data-testid=health-line][data-topic=skipped]')).toContainText(
    'Checks skipped: inclusion on 80 receipts (no checkpoint covers them yet).',
  );

  const raw = readFileSync(join(dir, 'receipts.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { receipt: { tool_server: string; decision?: { verdict: string; guard?: string } } }).receipt);
  const decided = raw.filter((r) => r.decision);
  const denied = decided.filter((r) => r.decision!.verdict === 'deny');
  await expect(page.locator('[data-testid=health-line][data-topic=denials]')).toContainText(
    `of the ${decided.length} verified calls with a decision were denied (${denied.length})`,
  );
  await expect(page.getByTestId('denials-chart')).toHaveAttribute('data-total', String(denied.length));
  for (const server of new Set(decided.map((r) => r.tool_server))) {
    const row = page.locator(`[data-testid=deny-rates] tbody tr[data-server="${server}"]`);
    await expect(row).toHaveAttribute('data-calls', String(decided.filter((r) => r.tool_server === server).length));
    await expect(row).toHaveAttribute('data-denied', String(denied.filter((r) => r.tool_server === server).length));
  }
  const guards = new Map<string, number>();
  for (const r of denied) guards.set(r.decision!.guard!, (guards.get(r.decision!.guard!) ?? 0) + 1);
  for (const [guard, n] of guards)
    await expect(page.locator(`[data-testid=denials-by-guard] tr[data-key="${guard}"]`)).toHaveAttribute('data-count', String(n));
  await page.screenshot({ path: testInfo.outputPath('security-corpus-good.png'), fullPage: true });

  const bar = await clickBar(page);
  await expect(page).toHaveURL(/\/receipts\?/);
  expect(new URL(page.url()).searchParams.getAll('guard')).toEqual([bar.key]);
  expect(await explorerCount(page)).toBe(bar.count);
});

test('corpus/tampered-signature: the failed receipt is grouped by its problem codes and left out of the denials', async ({ page }, testInfo) => {
  const dir = join(CORPUS, 'tampered-signature');
  const report = cli(dir);
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  await page.getByRole('navigation').getByRole('link', { name: 'Security' }).click();
  await expect(page.getByTestId('security-view')).toHaveAttribute('data-source', '14 files');
  await expectReportNumbers(page, report);
  const verification = page.locator('[data-testid=health-line][data-topic=verification]');
  await expect(verification).toContainText('1 failed verification (1 with a signature that does not verify, 1 not in the checkpoint that covers it)');
  await expect(page.getByTestId('health-summary')).toHaveAttribute('data-bad', '1');
  await expect(page.getByTestId('failed-note')).toContainText('did not verify');
  await page.screenshot({ path: testInfo.outputPath('security-tampered-signature.png'), fullPage: true });

  const group = page.locator('[data-testid=failure-group][data-code=signature_invalid]');
  await expect(group).toHaveAttribute('data-receipts', '1');
  const failedId = report.problems.find((p) => p.code === 'signature_invalid')!.receipt_id!;
  await expect(group.getByTestId('failure-link')).toHaveText(failedId);
  await group.getByTestId('failure-group-explorer').click();
  await expect(page).toHaveURL(/\/receipts\?problem=signature_invalid$/);
  expect(await explorerCount(page)).toBe(1);
  await expect(page.locator(`[data-receipt-id="${failedId}"]`)).toBeVisible();
});
