import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FLEET, requireFleetServer } from './fleet-server';
import { pinKey } from './helpers';
import { FLEET_KEYS, NOTHING_PINNED } from './pinned';

// The fleet view (issue 9) in Chromium, against the fleet server (e2e/fleet-server.ts): the index
// (ClickHouse) finds and counts receipts, and the browser verifies every receipt a page shows.
// The cluster holds the three demo kernels that scripts/test.mjs ingests (tools/fleet-demo.ts).

const KEYS = FLEET_KEYS;
const PAGE_SIZE = 200;

test.beforeEach(requireFleetServer);

interface KernelSummary {
  kernelKey: string;
  toolReceipts: string;
  checkpointedReceipts: string;
  inclusionProofs: string;
}

/** Waits until the page section says this page's `receipts` receipts are all verified in the browser. */
async function verifiedPage(page: Page, receipts: number): Promise<void> {
  const section = page.getByTestId('fleet-page');
  await expect(section).toHaveAttribute('data-done', 'true', { timeout: 20_000 });
  await expect(section).toHaveAttribute('data-receipts', String(receipts));
  await expect(section).toHaveAttribute('data-verified', String(receipts));
  await expect(section).toHaveAttribute('data-failed', '0');
  const rows = page.getByTestId('fleet-receipt-row');
  await expect(rows).toHaveCount(receipts);
  // Every row, not a sample: none may carry any other verdict.
  await expect(page.locator('[data-testid="fleet-receipt-row"]:not([data-verdict="verified"])')).toHaveCount(0);
}

/** The receipt ids of the rows shown, in order (from their links, which carry the whole id). */
async function shownIds(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByTestId('fleet-receipt-row')
    .locator('a')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => decodeURIComponent(h.replace(/^\/receipts\//, '')));
}

// Journey: an auditor opens the fleet, sees its kernels, and pins their keys.
test.describe('with nothing pinned', () => {
  test.use({ storageState: NOTHING_PINNED });
  test('fleet: /fleet lists the three demo kernels with their coverage, not pinned until their keys are pinned on /trust', async ({ page }) => {
    const api = await page.request.get(`${FLEET}/v1/fleet/kernels`);
    expect(api.status()).toBe(200);
    const { kernels } = (await api.json()) as { kernels: KernelSummary[] };
    expect(kernels.map((k) => k.kernelKey).sort()).toEqual([...KEYS].sort());

    await page.goto(`${FLEET}/fleet`);
    const rows = page.getByTestId('fleet-kernel-row');
    await expect(rows).toHaveCount(3);
    expect((await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kernel')))).sort()).toEqual([...KEYS].sort());
    for (const k of kernels) {
      const row = page.locator(`[data-testid="fleet-kernel-row"][data-kernel="${k.kernelKey}"]`);
      await expect(row.getByTestId('fleet-kernel-pinned')).toHaveText('not pinned');
      // The index's figures as the API gives them. scripts/test.mjs ingests 600 tool receipts a
      // kernel, a multiple of the demo's checkpoint batch (100), so every one is covered.
      expect(k.checkpointedReceipts).toBe(k.toolReceipts);
      const n = (s: string) => Number(s).toLocaleString('en-US');
      await expect(row.getByTestId('fleet-kernel-coverage')).toHaveText(
        `${n(k.checkpointedReceipts)} of ${n(k.toolReceipts)} (100%), ${n(k.inclusionProofs)} proofs`,
      );
    }

    for (const key of KEYS) await pinKey(page, key, FLEET);
    await page.goto(`${FLEET}/fleet`);
    await expect(rows).toHaveCount(3);
    for (const key of KEYS) {
      await expect(page.locator(`[data-testid="fleet-kernel-row"][data-kernel="${key}"]`).getByTestId('fleet-kernel-pinned')).toHaveText(/^pinned/);
    }
  });

  // Part 2 §11: before the keys are pinned, the page's receipts are intact, never verified.
  test('fleet: with no key pinned, a page of receipts is "intact, signer not pinned", never verified', async ({ page }) => {
    await page.goto(`${FLEET}/fleet`);
    const section = page.getByTestId('fleet-page');
    await expect(section).toHaveAttribute('data-done', 'true', { timeout: 20_000 });
    await expect(section).toHaveAttribute('data-verified', '0');
    await expect(page.getByTestId('fleet-page-verdicts')).toHaveAttribute('data-unpinned', String(PAGE_SIZE));
    await expect(page.getByTestId('fleet-page-verdicts')).toHaveClass(/unpinned/);
    await expect(page.locator('[data-testid="fleet-receipt-row"][data-verdict="verified"]')).toHaveCount(0);
    await expect(page.getByTestId('fleet-receipt-row').first().locator('td').first()).toHaveText('intact, signer not pinned');
    await expect(page.getByTestId('unpinned-notice')).toBeVisible();
  });
});

// Journey: the first page of the fleet is fetched from the index and verified in this browser.
test('fleet: the first page (200 receipts) verifies in the browser, with the index total of the summary', async ({ page }, testInfo) => {
  const summary = await page.request.get(`${FLEET}/v1/fleet/summary`);
  expect(summary.status()).toBe(200);
  const { byKernel } = (await summary.json()) as { byKernel: Record<string, string> };
  const total = Object.values(byKernel).reduce((a, n) => a + Number(n), 0);
  expect(total).toBeGreaterThan(PAGE_SIZE); // so there is a next page (the paging test relies on it)

  await page.goto(`${FLEET}/fleet`);
  await verifiedPage(page, PAGE_SIZE);
  // The page's figures: its kernels are the rows' kernels, and the index total is the summary's.
  const kernels = new Set(
    await page
      .getByTestId('fleet-receipt-row')
      .locator('td[title]')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('title'))),
  );
  expect([...kernels].every((k) => KEYS.includes(k!))).toBe(true);
  const figures = page.getByTestId('fleet-page-figures');
  await expect(figures).toContainText(
    `${PAGE_SIZE} receipts on this page, from ${kernels.size} kernel(s), of ${total.toLocaleString('en-US')} matching in the index`,
  );
  await expect(page.getByTestId('fleet-next')).toBeEnabled();
  // The top of the page (kernels, search, figures, first rows): the whole 200-row page is 8,000 px tall.
  await page.screenshot({ path: join(testInfo.project.outputDir, 'fleet.png'), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1600 } });
});

// Journey: the auditor narrows the fleet to one kernel's denials through the search form.
test("fleet: a search for one kernel's denials shows only its denials, verified, and the index count the summary gives", async ({ page }) => {
  const key = KEYS[2]!;
  const summary = await page.request.get(`${FLEET}/v1/fleet/summary?${new URLSearchParams({ kernelKey: key, outcome: 'deny' })}`);
  expect(summary.status()).toBe(200);
  const { byKernel, byOutcome } = (await summary.json()) as { byKernel: Record<string, string>; byOutcome: Record<string, string> };
  expect(Object.keys(byKernel)).toEqual([key]);
  const count = Number(byOutcome.deny);
  // One page holds them all (the demo denies about one call in six), so every one is checked below.
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(PAGE_SIZE);

  await page.goto(`${FLEET}/fleet`);
  await verifiedPage(page, PAGE_SIZE);
  await page.getByTestId('fleet-outcome').selectOption('deny');
  await page.getByTestId('fleet-kernelKey').selectOption(key);
  await page.getByTestId('fleet-search-button').click();
  await expect(page).toHaveURL(`${FLEET}/fleet?${new URLSearchParams({ kernelKey: key, outcome: 'deny' })}`);

  await verifiedPage(page, count);
  const rows = page.getByTestId('fleet-receipt-row');
  await expect(rows.locator('td.decision')).toHaveText(Array<string>(count).fill('deny'));
  expect(new Set(await rows.locator('td[title]').evaluateAll((tds) => tds.map((td) => td.getAttribute('title'))))).toEqual(new Set([key]));
  // The index figure on the page is the summary's count for the same filter.
  await expect(page.getByTestId('fleet-page-figures').locator('strong')).toHaveText(count.toLocaleString('en-US'));
  await expect(page.getByTestId('fleet-page-figures')).toContainText(`${count} receipts on this page, from 1 kernel(s)`);
  await expect(page.getByTestId('fleet-summary')).toContainText(`${count} receipts in 1 kernel(s); by outcome deny ${count}`);
});

// Journey: the auditor pages forward through the fleet, and back.
test('fleet: Next page shows 200 other receipts, verified; Previous returns to the first page', async ({ page }) => {
  await page.goto(`${FLEET}/fleet`);
  await verifiedPage(page, PAGE_SIZE);
  const first = await shownIds(page);
  expect(new Set(first).size).toBe(PAGE_SIZE);

  await page.getByTestId('fleet-next').click();
  await expect(page).toHaveURL(/[?&]cursor=\d+/);
  // Until the new page is verified the old rows may still show: wait for the rows to change.
  await expect(page.getByTestId('fleet-receipt-row').first().locator('a')).not.toHaveAttribute('href', `/receipts/${encodeURIComponent(first[0]!)}`);
  await verifiedPage(page, PAGE_SIZE);
  await expect(page.getByRole('heading', { name: 'This page (page 2)' })).toBeVisible();
  const second = await shownIds(page);
  expect(new Set(second).size).toBe(PAGE_SIZE);
  expect(second.filter((id) => first.includes(id))).toEqual([]);

  await page.getByTestId('fleet-prev').click();
  await expect(page).toHaveURL(`${FLEET}/fleet`);
  await expect(page.getByTestId('fleet-receipt-row').first().locator('a')).toHaveAttribute('href', `/receipts/${encodeURIComponent(first[0]!)}`);
  await verifiedPage(page, PAGE_SIZE);
  expect(await shownIds(page)).toEqual(first);
  await expect(page.getByTestId('fleet-prev')).toBeDisabled();
});

// Journey: a newcomer opens the fleet server's home page: it opens the fleet's first page.
test("fleet: the home page of a fleet server opens and verifies the fleet's first page", async ({ page }) => {
  await page.goto(`${FLEET}/`);
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 20_000 });
  await expect(summary).toHaveAttribute('data-ok', 'true');
  // A page of the fleet, not the demo store this server would serve without CLICKHOUSE_URL (2,769).
  await expect(page.getByTestId('count-verified')).toHaveText(String(PAGE_SIZE));
  await expect(page.getByTestId('count-failed')).toHaveText('0');
});

// Journey: from the fleet page, the auditor opens one receipt and reads its checks.
test('fleet: a receipt link opens the receipt page, verified with its inclusion proof', async ({ page }) => {
  await page.goto(`${FLEET}/fleet`);
  await verifiedPage(page, PAGE_SIZE);
  const [id] = await shownIds(page);
  await page.getByTestId('fleet-receipt-row').first().locator('a').click();
  await expect(page).toHaveURL(`${FLEET}/receipts/${encodeURIComponent(id!)}`);
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified');
  await expect(page.getByTestId('receipt-verdict')).toContainText('verified');
  const checks = page.getByTestId('receipt-checks');
  await expect(checks.locator('[data-check="signature"]')).toHaveAttribute('data-status', 'pass');
  // The fleet page carried the kernel's proof and checkpoint: the receipt is shown in its log.
  await expect(checks.locator('[data-check="inclusion"]')).toHaveAttribute('data-status', 'pass');
});
