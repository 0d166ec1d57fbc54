import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { parseCsv } from '../lib/text/csv';
import { openFiles } from './helpers';
import { CORPUS_KEY } from './pinned';
import { DEMO_KERNEL_KEY } from '../lib/trust/known-keys';

// Journey: a finance reader opens /finance and reconciles the log: every number on the page is
// the command line's (its report's finance section), a bar of the spend chart opens exactly its
// receipts in the explorer, a budget break leads to its receipt, and every table downloads as CSV.
const CORPUS = join(process.cwd(), 'lib/testdata/corpus');

interface CliBudget {
  capability_id: string;
  grant_index: number;
  currency: string;
  budget_total: number;
  charged: number;
  remaining: number;
  receipts: number;
  by_settlement: { settled: number; pending: number; failed: number };
  breaks: string[];
}
interface CliReport {
  summary: { receipts: number; verified: number };
  finance: { budgets: CliBudget[]; excluded: string[] };
}

/** The CLI's report (`--json`); its amounts are far below 2^53 in these logs. */
function cli(path: string): CliReport {
  // With the keys the page has pinned (e2e/pinned.ts): a receipt is verified only under a pinned key.
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', path, '--trust-key', DEMO_KERNEL_KEY, '--trust-key', CORPUS_KEY, '--json'], {
    maxBuffer: 64 << 20,
  });
  expect(run.status, run.stderr.toString()).toBeLessThan(2);
  return JSON.parse(run.stdout.toString()) as CliReport;
}

/** Opens a corpus case through the file input, then /finance through the nav (a reload would drop picked files). */
async function openCaseFinance(page: Page, name: string): Promise<void> {
  const dir = join(CORPUS, name);
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  await page.getByRole('link', { name: 'Finance' }).click();
  await expect(page.getByTestId('finance-view')).toBeVisible({ timeout: 60_000 });
}

/** The budget table equals the CLI's budgets, row by row, in the same order. */
async function expectBudgetsMatch(page: Page, report: CliReport): Promise<void> {
  const rows = page.getByTestId('finance-budget-row');
  await expect(rows).toHaveCount(report.finance.budgets.length);
  for (const [i, b] of report.finance.budgets.entries()) {
    const row = rows.nth(i);
    const attrs = {
      capability: b.capability_id,
      grant: String(b.grant_index),
      total: String(b.budget_total),
      charged: String(b.charged),
      remaining: String(b.remaining),
      receipts: String(b.receipts),
      settled: String(b.by_settlement.settled),
      pending: String(b.by_settlement.pending),
      failed: String(b.by_settlement.failed),
      breaks: String(b.breaks.length),
    };
    for (const [k, v] of Object.entries(attrs)) await expect(row, `budget ${i} ${k}`).toHaveAttribute(`data-${k}`, v);
  }
}

/** Per currency, the cards' charged and settlement amounts are the sums of the CLI's budgets (every receipt is verified here). */
async function expectCurrenciesMatch(page: Page, report: CliReport): Promise<void> {
  const currencies = [...new Set(report.finance.budgets.map((b) => b.currency))].sort();
  const cards = page.getByTestId('finance-currency');
  await expect(cards).toHaveCount(currencies.length);
  for (const currency of currencies) {
    const mine = report.finance.budgets.filter((b) => b.currency === currency);
    const card = page.locator(`[data-testid="finance-currency"][data-currency="${currency}"]`);
    await expect(card).toHaveAttribute('data-charged', String(mine.reduce((a, b) => a + b.charged, 0)));
    await expect(card).toHaveAttribute('data-receipts', String(mine.reduce((a, b) => a + b.receipts, 0)));
    for (const s of ['settled', 'pending', 'failed'] as const) {
      await expect(card.getByTestId(`finance-currency-${s}`)).toHaveAttribute('data-amount', String(mine.reduce((a, b) => a + b.by_settlement[s], 0)));
    }
  }
}

async function downloadCsv(page: Page, testId: string): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return parseCsv(readFileSync(await download.path(), 'utf8'));
}

test('the demo: budgets and totals are the CLI’s; a bar of the spend chart opens exactly its receipts', async ({ page }, testInfo) => {
  // The demo is verified twice (here, then in the explorer the bar opens): about 28 s on a busy 2-core machine.
  test.setTimeout(90_000);
  await page.goto('/finance');
  await expect(page.getByTestId('finance-view')).toBeVisible({ timeout: 60_000 });
  const report = cli(join(process.cwd(), 'data/demo/receipts.sqlite3'));
  await expect(page.getByTestId('verified-note')).toHaveAttribute('data-counted', String(report.summary.verified));
  await expect(page.getByTestId('verified-note')).toHaveAttribute('data-left', '0');
  await expectBudgetsMatch(page, report);
  await expectCurrenciesMatch(page, report);
  await expect(page.getByTestId('finance-banner')).toHaveAttribute('data-breaks', '0');
  await expect(page.getByTestId('finance-denials')).toHaveAttribute('data-rows', '12');
  await expect(page.getByTestId('finance-oracle-table')).toHaveAttribute('data-rows', '25');

  const budgets = await downloadCsv(page, 'finance-csv-budgets');
  expect(budgets[0]!.slice(0, 4)).toEqual(['capability_id', 'grant_index', 'currency', 'root_budget_holder']);
  expect(budgets.length).toBe(1 + report.finance.budgets.length);
  const h = budgets[0]!;
  expect(budgets.slice(1).map((r) => r[h.indexOf('charged_minor')])).toEqual(report.finance.budgets.map((b) => String(b.charged)));
  const oracle = await downloadCsv(page, 'finance-csv-oracle');
  expect(oracle.length).toBe(1 + 25);
  expect(oracle.slice(1).every((r) => /^\d{17,}$/.test(r[oracle[0]!.indexOf('original_cost_units')]!))).toBe(true);

  const chart = page.getByTestId('finance-spend-chart');
  const currency = (await chart.getAttribute('data-currency'))!;
  await page.screenshot({ path: join(testInfo.project.outputDir, 'finance-demo.png'), fullPage: true });

  // The bucket with the most settled spend: its bar's settled segment sits on the axis.
  const cells = await page.locator('[data-testid="finance-spend-table"] td[data-status="settled"]').evaluateAll((tds) =>
    tds.map((td) => ({
      bucket: Number(td.getAttribute('data-bucket')),
      since: td.getAttribute('data-since')!,
      receipts: Number(td.getAttribute('data-receipts')),
      amount: BigInt(td.getAttribute('data-amount')!),
    })),
  );
  const best = cells.reduce((a, c) => (c.amount > a.amount ? c : a));
  const [left, right, , bottom] = (await chart.getAttribute('data-grid'))!.split(',').map(Number) as [number, number, number, number];
  const buckets = Number(await chart.getAttribute('data-buckets'));
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.locator('[role="img"]').boundingBox())!;
  const x = box.x + left! + ((best.bucket + 0.5) * (box.width - left! - right!)) / buckets;
  await page.mouse.click(x, box.y + box.height - bottom! - 3);
  await expect(page).toHaveURL(/\/receipts\?/);
  const params = new URL(page.url()).searchParams;
  expect(params.getAll('verdict')).toEqual(['verified']);
  expect(params.getAll('currency')).toEqual([currency]);
  expect(params.getAll('settlement')).toEqual(['settled']);
  expect(params.get('since')).toBe(best.since);
  await expect(page.getByTestId('explorer-count')).toHaveText(`${best.receipts.toLocaleString('en-US')} of 2,769 receipts`, { timeout: 30_000 });
});

test('corpus/good: the CLI’s budgets and totals; long pending follows the threshold in the URL', async ({ page }, testInfo) => {
  await openCaseFinance(page, 'good');
  const report = cli(join(CORPUS, 'good'));
  await expectBudgetsMatch(page, report);
  await expectCurrenciesMatch(page, report);
  await expect(page.getByTestId('finance-failed')).toHaveAttribute('data-rows', '11');
  // The failed settlements' title: the count, then the amount per currency (never added across
  // currencies), summed from the raw NDJSON; an amount, not the source code of one (issue 21).
  const failedRaw = readFileSync(join(CORPUS, 'good', 'receipts.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).receipt.metadata?.financial as { cost_charged: number; currency: string; settlement_status: string } | undefined)
    .filter((f) => f?.settlement_status === 'failed');
  expect(failedRaw.length).toBe(11);
  const failedSums = new Map<string, bigint>();
  for (const f of failedRaw) failedSums.set(f!.currency, (failedSums.get(f!.currency) ?? 0n) + BigInt(f!.cost_charged));
  const failedTitle = [...failedSums]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, v]) => ` · ${(Number(v) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} ${c}`)
    .join('');
  expect(failedSums.size).toBe(2); // EUR and USD, two decimals each
  await expect(page.getByTestId('finance-failed-title')).toHaveText(`Failed settlements: 11${failedTitle}`);
  await expect(page.getByTestId('finance-denials-empty')).toBeVisible();
  await expect(page.getByTestId('finance-oracle-empty')).toBeVisible();
  await expect(page.getByTestId('finance-long-pending-empty')).toBeVisible();

  // Pending for more than an hour before the log's last receipt, counted from the raw NDJSON.
  const times = (file: string) =>
    readFileSync(join(CORPUS, 'good', file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).receipt);
  const receipts = times('receipts.ndjson') as { timestamp: number; metadata?: { financial?: { settlement_status: string } } }[];
  const last = Math.max(...receipts.map((r) => r.timestamp), ...times('child-receipts.ndjson').map((r: { timestamp: number }) => r.timestamp));
  const longPending = receipts.filter((r) => r.metadata?.financial?.settlement_status === 'pending' && r.timestamp < last - 3600).length;
  expect(longPending).toBeGreaterThan(0);
  await page.getByTestId('finance-pending-hours').selectOption('1');
  await expect(page).toHaveURL(/[?&]pendingHours=1(&|$)/);
  await expect(page.getByTestId('finance-long-pending')).toHaveAttribute('data-rows', String(longPending));
  await expect(page.getByTestId('finance-long-pending-title')).toContainText(`Pending for more than 1 h: ${longPending}`);

  const failed = await downloadCsv(page, 'finance-csv-failed');
  expect(failed[0]!.slice(0, 3)).toEqual(['receipt_id', 'unix_time', 'time_utc']);
  expect(failed.length).toBe(1 + 11);
  const currencies = await downloadCsv(page, 'finance-csv-currencies');
  expect(currencies.map((r) => r[0])).toEqual(['currency', 'EUR', 'USD']);
  await page.screenshot({ path: join(testInfo.project.outputDir, 'finance-corpus-good.png'), fullPage: true });
});

test('corpus/tampered-signature: the budget break is red and leads to its receipt; the excluded receipt is listed', async ({ page }, testInfo) => {
  await openCaseFinance(page, 'tampered-signature');
  const report = cli(join(CORPUS, 'tampered-signature'));
  await expectBudgetsMatch(page, report);
  const broken = report.finance.budgets.find((b) => b.breaks.length > 0)!;
  await expect(page.getByTestId('finance-banner')).toHaveAttribute('data-breaks', '1');
  await expect(page.getByTestId('finance-excluded')).toContainText(report.finance.excluded[0]!);
  const row = page.locator(`[data-testid="finance-budget-row"][data-capability="${broken.capability_id}"]`);
  await expect(row).toHaveClass(/fin-break-row/);
  await page.screenshot({ path: join(testInfo.project.outputDir, 'finance-break.png'), fullPage: true });
  const brk = page.getByTestId('finance-break');
  await expect(brk).toHaveCount(1);
  await expect(brk).toContainText('before it, rcpt-000007-fb1061b9 of this group was left out because the signature did not pass');
  await brk.getByRole('link', { name: broken.breaks[0] }).click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${broken.breaks[0]}$`));
  await expect(page.getByTestId('receipt-verdict')).toBeVisible({ timeout: 30_000 });
});
