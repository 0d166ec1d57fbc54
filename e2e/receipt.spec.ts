import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { openDeniedDemoReceipt, openFiles, pinKey } from './helpers';
import { NOTHING_PINNED } from './pinned';

// Each journey verifies the demo log in the page (several times over for the share round trip).
test.describe.configure({ timeout: 120_000 });

const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';

// Journey: an auditor opens one denied receipt of the demo and reads all of it.
test('the receipt page lays a receipt open: guards, parameters, hashes, Merkle path, fields, bytes, request tree', async ({ page }, testInfo) => {
  const id = await openDeniedDemoReceipt(page);
  await expect(page.getByTestId('receipt-decision')).toContainText('deny');
  const evidence = page.getByTestId('guard-evidence');
  await expect(evidence.locator('li')).not.toHaveCount(0);
  await expect(evidence.locator('li').last()).toContainText('blocked the call');
  await expect(page.getByText('Guards after it were not evaluated')).toBeVisible();
  await expect(page.getByTestId('receipt-parameters')).toContainText('"query": ');
  const paramHash = page.getByTestId('receipt-hashes').locator('tr', { hasText: 'action.parameter_hash' });
  await expect(paramHash).toContainText('match');
  const merkle = page.getByTestId('merkle-path');
  await expect(merkle).toHaveAttribute('data-matches', 'true');
  await expect(merkle).toContainText('The path reaches the signed root.');
  await expect(page.getByTestId('receipt-checkpoint')).toContainText(DEMO_KEY);
  const fields = page.getByTestId('receipt-fields');
  await expect(fields.locator('tr[data-status="signed"]', { hasText: 'capability_id' })).toHaveCount(1);
  await expect(fields.locator('tr[data-status="signature"]')).toHaveCount(1);
  await expect(page.getByTestId('receipt-financial')).toContainText('cost_charged');
  await page.getByText('Signed bytes: RFC 8785').click();
  await expect(page.getByTestId('receipt-canonical')).toContainText(`"id":"${id}"`);
  await page.getByText('Raw record, as the source holds it').click();
  await expect(page.getByTestId('receipt-raw')).toContainText('"seq":');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'receipt-page.png'), fullPage: true });

  // The request tree: the parent child receipt, and back.
  const parent = page.getByTestId('receipt-parents').getByRole('link').first();
  const parentId = (await parent.textContent())!;
  await parent.click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(parentId)}\\?file=[^&]+&line=\\d+$`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified');
  await expect(page.getByTestId('receipt-children')).toContainText(id);
});

/** `minor` in a two-decimal currency, grouped as /finance shows it: 177884n → "1,778.84". */
const twoDecimals = (minor: bigint) => `${(minor / 100n).toLocaleString('en-US')}.${String(minor % 100n).padStart(2, '0')}`;

// Journey: the auditor reads a long receipt: its verdict, its checks and a way to share it stay at
// hand; its amounts read as money, with the integers the receipt signs beside them.
test('the verdict, the checks and the share actions stay at hand; amounts read as on /finance, beside their minor units', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDeniedDemoReceipt(page);
  await expect(page.getByTestId('share-source-link')).toHaveValue(/\/receipts\//, { timeout: 30_000 });

  // The bar: the verdict and the checks as the checklist has them.
  const bar = page.getByTestId('receipt-bar');
  await expect(bar.getByTestId('receipt-bar-verdict')).toHaveText('verified');
  const checks = page.getByTestId('receipt-checks').locator('li');
  const total = await checks.count();
  const passed = await checks.and(page.locator('[data-status="pass"]')).count();
  const summary = bar.getByTestId('receipt-check-summary');
  await expect(summary).toHaveAttribute('data-pass', String(passed));
  await expect(summary).toHaveText(passed === total ? `all ${total} checks passed` : new RegExp(`^${passed} of ${total} checks passed`));

  // The amounts, from the receipt's own signed record: formatted in its currency, the integer beside it.
  const raw = JSON.parse((await page.getByTestId('receipt-raw').textContent())!) as { receipt: { metadata: { financial: Record<string, number | string> } } };
  const fin = raw.receipt.metadata.financial;
  expect(['EUR', 'USD']).toContain(fin.currency);
  const table = page.getByTestId('receipt-financial');
  for (const field of ['attempted_cost', 'budget_total', 'budget_remaining', 'cost_charged']) {
    const minor = BigInt(fin[field]!);
    const row = table.locator(`tr[data-field="${field}"]`);
    await expect(row, field).toHaveAttribute('data-minor', minor.toString());
    await expect(row.getByTestId('receipt-amount'), field).toHaveText(`${twoDecimals(minor)} ${fin.currency}`);
    await expect(row.getByTestId('receipt-minor-units'), field).toHaveText(`(${minor} minor units)`);
  }
  await expect(table.locator('tr[data-field="settlement_status"] td').first()).toHaveText(String(fin.settlement_status));
  // Plain words: no spec section numbers anywhere on the page.
  expect(await page.locator('main').innerText()).not.toContain('§');

  // Far down the page, the bar is still at the top of the window, over nothing it hides: the
  // checks link lands on the checks heading below it.
  await page.getByTestId('share-command').scrollIntoViewIfNeeded();
  const stuck = (await bar.boundingBox())!;
  expect(stuck.y).toBeLessThanOrEqual(1);
  await page.screenshot({ path: join(testInfo.project.outputDir, 'receipt-bar-scrolled.png') });
  await summary.click();
  await expect(page).toHaveURL(/#checks$/);
  await expect(page.locator('#checks')).toBeInViewport();
  expect((await page.locator('#checks').boundingBox())!.y).toBeGreaterThanOrEqual((await bar.boundingBox())!.y + (await bar.boundingBox())!.height);

  // A control reached from below (focus scrolls the window up to it) is not hidden under the bar either.
  await page.getByTestId('share-command').scrollIntoViewIfNeeded();
  const trustLink = page.getByTestId('receipt-trust').getByRole('link').first();
  await trustLink.focus();
  const barBox = (await bar.boundingBox())!;
  expect((await trustLink.boundingBox())!.y).toBeGreaterThanOrEqual(barBox.y + barBox.height);

  // The keyboard copies the link to the receipt in its log, the one the share section offers.
  const copy = bar.getByRole('button', { name: 'Copy link to this receipt in its log' });
  await copy.focus();
  await page.keyboard.press('Enter');
  await expect(bar.getByRole('status')).toHaveText('Link copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByTestId('share-source-link').inputValue());
  // "Share…" opens the share section, with its privacy note.
  await bar.getByRole('link', { name: 'Share…' }).click();
  await expect(page).toHaveURL(/#share$/);
  await expect(page.getByTestId('share-panel')).toBeInViewport();

  // At a phone's width the bar is at the top of the page and scrolls away with it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('share-command').scrollIntoViewIfNeeded();
  expect(await bar.evaluate((e) => getComputedStyle(e).position)).toBe('static');
  await expect(bar).not.toBeInViewport();
  await page.screenshot({ path: join(testInfo.project.outputDir, 'receipt-390.png'), fullPage: true });
  // On paper too, without its buttons.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ media: 'print' });
  expect(await bar.evaluate((e) => getComputedStyle(e).position)).toBe('static');
  await expect(bar.getByRole('button')).toBeHidden();
  await expect(bar.getByTestId('receipt-bar-verdict')).toBeVisible();
});

// In dark mode the pass, fail and deny words of the receipt page and of /finance are readable
// (the light theme's green and red are under 4.5:1 on the dark background), and the receipt
// page's wide boxes scroll by keyboard.
test('dark mode: the receipt page and /finance pass axe’s contrast and keyboard-scrolling rules', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openDeniedDemoReceipt(page);
  await expect(page.getByTestId('share-fragment-link')).toHaveValue(/\/share#/, { timeout: 30_000 });
  const rules = ['color-contrast', 'scrollable-region-focusable'];
  const receipt = await new AxeBuilder({ page }).include('main').withRules(rules).analyze();
  expect(receipt.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 100)}`))).toEqual([]);
  await page.goto('/finance');
  await expect(page.getByTestId('verified-note')).toBeVisible({ timeout: 60_000 });
  const finance = await new AxeBuilder({ page }).include('main').withRules(rules).analyze();
  expect(finance.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 100)}`))).toEqual([]);
});

// Journey: the auditor shares the receipt; a colleague with a fresh browser opens the links.
test('share links round-trip into a fresh browser, which re-verifies and says which keys it trusts', async ({ page, browser }, testInfo) => {
  const id = await openDeniedDemoReceipt(page);
  const fragmentLink = await page.getByTestId('share-fragment-link').inputValue();
  const sourceLink = await page.getByTestId('share-source-link').inputValue();
  expect(fragmentLink).toMatch(/\/share#[A-Za-z0-9_-]{200,}$/);
  expect(sourceLink).toMatch(new RegExp(`/receipts/${encodeURIComponent(id)}\\?source=server&file=receipts\\.ndjson&line=\\d+$`));
  await expect(page.getByText('contain this receipt')).toBeVisible();

  // A fresh browser: nothing pinned (the config's storageState would pin the demo key).
  const colleague = await browser.newContext({ storageState: NOTHING_PINNED });
  const other = await colleague.newPage();
  const fetched: string[] = [];
  other.on('request', (r) => fetched.push(r.url()));
  await other.goto(fragmentLink);
  // Intact, but not verified: no key is pinned here, and the sender's keys play no part.
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-state', 'unpinned', { timeout: 30_000 });
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'unverified');
  await expect(other.getByTestId('share-trust')).toContainText('No kernel key is pinned in this browser');
  await expect(other.getByTestId('merkle-path')).toHaveAttribute('data-matches', 'true');
  await expect(other.getByTestId('receipt-checks').locator('[data-check="inclusion"]')).toHaveAttribute('data-status', 'pass');
  // The page fetched code only: no log, and the fragment went nowhere.
  expect(fetched.filter((u) => u.includes('/v1/'))).toEqual([]);
  const fragment = fragmentLink.split('#')[1]!;
  expect(fetched.filter((u) => u.includes(fragment.slice(0, 40)))).toEqual([]);
  await other.screenshot({ path: join(testInfo.project.outputDir, 'share-page.png'), fullPage: true });

  // Pinned in the colleague's browser, the key is named and checked.
  await pinKey(other, DEMO_KEY);
  await other.goto(fragmentLink);
  await expect(other.getByTestId('share-trust')).toContainText(DEMO_KEY);
  await expect(other.getByTestId('receipt-checks').locator('[data-check="signer_trusted"]')).toHaveAttribute('data-status', 'pass');
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified');

  // A cut link says so.
  await other.goto(fragmentLink.slice(0, fragmentLink.length - 60));
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'missing');
  await expect(other.getByTestId('receipt-verdict')).toContainText('This link cannot be read');

  // The source link opens the log and the receipt in the colleague's browser, under their key.
  await other.goto(sourceLink);
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await expect(other.getByTestId('receipt-trust')).toContainText(DEMO_KEY);
  await colleague.close();

  // The downloaded evidence verifies with the command line, to the same checks.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('share-download').click()]);
  const file = join(testInfo.outputDir, download.suggestedFilename());
  await download.saveAs(file);
  const command = (await page.getByTestId('share-command').textContent())!;
  expect(command).toContain(`--trust-key ${DEMO_KEY}`);
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', file, '--trust-key', DEMO_KEY, '--json'], { maxBuffer: 16 << 20 });
  expect(run.status, run.stderr.toString()).toBe(0);
  const report = JSON.parse(run.stdout.toString()) as { receipts: { id: string; verdict: string; checks: Record<string, string> }[] };
  expect(report.receipts).toEqual([expect.objectContaining({ id, verdict: 'verified' })]);
  expect(report.receipts[0]!.checks.inclusion).toBe('pass');
});

// Bad input: a receipt carrying markup in a field the signature does not cover.
test('fields are text: markup in an unsigned field is shown, marked not signed, and never runs', async ({ page }, testInfo) => {
  const dir = join(testInfo.outputDir, 'xss');
  mkdirSync(dir, { recursive: true });
  const line = readFileSync(join(process.cwd(), 'lib/testdata/corpus/good/receipts.ndjson'), 'utf8').split('\n')[0]!;
  const id = JSON.parse(line).receipt.id as string;
  writeFileSync(join(dir, 'receipts.ndjson'), line.replace('"receipt":{', '"receipt":{"note":"<img src=x onerror=window.__pwned=1>",') + '\n');
  await openFiles(page, [join(dir, 'receipts.ndjson')]);
  await page.getByRole('link', { name: 'Receipts' }).click();
  await page.locator(`[data-receipt-id="${id}"]`).click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', /.+/);
  const note = page.getByTestId('receipt-fields').locator('tr', { hasText: 'note' }).first();
  await expect(note).toHaveAttribute('data-status', 'not signed');
  await expect(note).toContainText('"<img src=x onerror=window.__pwned=1>"');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  // Files on this computer have no source link; the self-contained link is offered instead.
  await expect(page.getByTestId('share-panel')).toContainText('opened from files on this computer');
});
