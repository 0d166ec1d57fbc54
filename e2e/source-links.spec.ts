import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { pinKey } from './helpers';
import { keysPinned } from './pinned';
import { genAReceipt, goodLog, keyFromSeed, ndjson, writePackage } from '../test/support/forge';

// Issue 20, part 3: how a page opens the log a link names, and how it addresses one receipt.
// Two small servers on other 127.0.0.1 ports: `home` serves the user's own small log (the tab's
// log, opened by URL: small logs keep this spec fast), and `other` plays the other origin a link
// names. `other` serves a genuine package (checkpoint and proofs, signed by `kernel`) and a loose
// file with a forged copy of one of its receipts, same id, re-signed by `attacker`, and logs every
// request it gets.

const LAST_SOURCE = 'receipt-audit.source.v1';
const kernel = keyFromSeed(7);
const attacker = keyFromSeed(66);
const ID = 'rcpt-test-000002';

let other: Server;
let home: Server;
let origin: string;
let homeLog: string;
const requests: string[] = [];

/** A server on a free 127.0.0.1 port serving `files` (path → file) with CORS; `log` gets each path asked for. */
async function serve(files: Record<string, string>, log: string[] = []): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    log.push(path);
    const file = files[path];
    if (!file) return void res.writeHead(404, { 'access-control-allow-origin': '*' }).end();
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test.beforeAll(async () => {
  const { receipts, cp, proofs } = goodLog(3, 2, kernel);
  const pkg = writePackage({
    'checkpoints.ndjson': ndjson([cp]),
    'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))),
    'inclusion-proofs.ndjson': ndjson(proofs),
  });
  const forged = join(pkg, 'forged.ndjson');
  writeFileSync(forged, ndjson([genAReceipt({ seq: 2, key: attacker, extra: { tool_name: 'transfer_funds' } })]));
  const files: Record<string, string> = { '/forged.ndjson': forged };
  for (const f of ['manifest.json', 'checkpoints.ndjson', 'receipts.ndjson', 'inclusion-proofs.ndjson']) files[`/genuine/${f}`] = join(pkg, f);
  ({ server: other, origin } = await serve(files, requests));
  const own = join(pkg, 'own.ndjson');
  writeFileSync(own, ndjson([genAReceipt({ seq: 1, key: kernel, extra: { id: 'rcpt-own-1' } })]));
  let homeOrigin: string;
  ({ server: home, origin: homeOrigin } = await serve({ '/own.ndjson': own }));
  homeLog = `${homeOrigin}/own.ndjson`;
});

test.afterAll(async () => {
  await Promise.all([other, home].map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Opens `url` from the overview's picker (added to the open log with `add`), as a user does. */
async function openUrl(page: Page, url: string, label: string, add = false): Promise<void> {
  if (add) await page.getByTestId('source-add').check();
  await page.getByLabel('URL of a package or file').fill(url);
  await page.getByRole('button', { name: 'open URL' }).click();
  await expect(summary(page)).toHaveAttribute('data-source', label);
  await expect(summary(page)).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
}

const summary = (page: Page) => page.getByTestId('verify-summary');

async function shoot(page: Page, dir: string, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

// Attack: a link to a receipt "in its log" that names the attacker's server. The page asks first,
// naming the origin; nothing is fetched from it before the user agrees; and the log it opens is
// for that page only, never the tab's log (a reload or the other pages show the log from before).
test.describe('the genuine kernel pinned', () => {
  test.use({ storageState: keysPinned([kernel.publicHex]) });
  test('a ?source= on another origin asks first, fetches nothing before, and never becomes the tab’s log', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const shots = testInfo.project.outputDir;
    mkdirSync(shots, { recursive: true });
    // The tab's log: the user's own, opened by its URL.
    await page.goto('/');
    await openUrl(page, homeLog, homeLog);
    const tabLog = await page.evaluate((k) => sessionStorage.getItem(k), LAST_SOURCE);
    expect(tabLog).toBe(JSON.stringify([{ kind: 'url', url: homeLog }]));

    const log = `${origin}/genuine/`;
    const link = `/receipts/${ID}?source=${encodeURIComponent(log)}&file=receipts.ndjson&line=2`;
    requests.length = 0;
    await page.goto(link);
    const consent = page.getByTestId('source-consent');
    await expect(consent).toBeVisible();
    await expect(page.getByTestId('source-consent-origin')).toHaveText(origin);
    await expect(consent).toContainText(log);
    await shoot(page, shots, 'source-consent');
    // Declined: still nothing fetched, and the page says so.
    await page.getByTestId('source-consent-decline').click();
    await expect(page.getByTestId('source-declined')).toContainText(`Nothing was loaded from ${origin}`);
    expect(requests).toEqual([]);

    await page.reload();
    await expect(consent).toBeVisible();
    expect(requests).toEqual([]);
    await page.getByTestId('source-consent-load').click();
    const verdict = page.getByTestId('receipt-verdict');
    await expect(verdict).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
    await expect(verdict).toContainText(log);
    await expect(page.getByTestId('view-note')).toBeVisible();
    expect(requests).toContain('/genuine/manifest.json');
    // The tab's log is untouched: stored, on the other pages, and after a reload.
    expect(await page.evaluate((k) => sessionStorage.getItem(k), LAST_SOURCE)).toBe(tabLog);
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect(summary(page)).toHaveAttribute('data-source', homeLog);
    await expect(summary(page)).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
    await page.reload();
    await expect(summary(page)).toHaveAttribute('data-source', homeLog);
    await expect(summary(page)).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
    expect(requests.filter((r) => !r.startsWith('/genuine/'))).toEqual([]);
  });
});

// Attack: a second receipt under a genuine receipt's id, from another source. Both are listed
// with their source, file, line and verdict; each opens its own page; the id alone shows no verdict.
test('one id in two sources: a problem at each copy, and the receipt page lists and opens both', async ({ page, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  await pinKey(page, kernel.publicHex);
  await page.goto('/');
  const genuine = `${origin}/genuine/`;
  const forged = `${origin}/forged.ndjson`;
  await openUrl(page, genuine, genuine);
  await openUrl(page, forged, `${genuine} + ${forged}`, true);
  const group = page.locator('[data-testid="problem-group"][data-code="duplicate_receipt_id"]');
  await expect(group).toHaveAttribute('data-count', '2');
  await expect(group).toContainText('receipts.ndjson:2 in');

  // The id alone (the log is reopened after the reload): no verdict, both copies listed.
  await page.goto(`/receipts/${ID}`);
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'ambiguous', { timeout: 60_000 });
  const copies = page.getByTestId('receipt-copy');
  await expect(copies).toHaveCount(2);
  await expect(copies.nth(0)).toHaveAttribute('data-verdict', 'verified');
  await expect(copies.nth(0)).toContainText(genuine);
  await expect(copies.nth(1)).toHaveAttribute('data-verdict', 'failed');
  await expect(copies.nth(1)).toContainText('forged.ndjson:1');
  await shoot(page, testInfo.project.outputDir, 'receipt-id-only');

  // Each copy opens its own page, which names it and lists the other.
  await copies.nth(1).getByTestId('receipt-copy-link').click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${ID}\\?file=forged\\.ndjson&line=1&from=`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'failed');
  await expect(page.getByTestId('receipt-problems')).toContainText('untrusted_signer');
  await expect(page.getByTestId('receipt-raw')).toContainText(attacker.publicHex, { timeout: 30_000 });
  await expect(copies.nth(1)).toHaveAttribute('aria-current', 'page');
  // Its share link names this copy in its own log, so a colleague re-verifies the same one.
  await expect(page.getByTestId('share-source-link')).toHaveValue(`${baseURL}/receipts/${ID}?source=${encodeURIComponent(forged)}&file=forged.ndjson&line=1`);
  await shoot(page, testInfo.project.outputDir, 'receipt-copies');
  await copies.nth(0).getByTestId('receipt-copy-link').click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified');
  await expect(page.getByTestId('share-source-link')).toHaveValue(
    `${baseURL}/receipts/${ID}?source=${encodeURIComponent(genuine)}&file=receipts.ndjson&line=2`,
  );

  // The explorer's rows open their own copy.
  await page.goto(`/receipts?q=${ID}`);
  const rows = page.locator(`[data-receipt-id="${ID}"]`);
  await expect(rows).toHaveCount(2, { timeout: 60_000 });
  const hrefs = await rows.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual([
    `/receipts/${ID}?file=receipts.ndjson&line=2&from=${encodeURIComponent(genuine)}`,
    `/receipts/${ID}?file=forged.ndjson&line=1&from=${encodeURIComponent(forged)}`,
  ]);
  await shoot(page, testInfo.project.outputDir, 'explorer-copies');
});
