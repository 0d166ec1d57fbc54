import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { COLUMN_LABEL, PRESETS, type Preset } from '../lib/query/explorer-columns';
import { explorerUrl } from '../lib/query/explorer-filter';
import { parseCsv } from '../lib/text/csv';
import { bucketFilter } from '../lib/readers/finance-spend';
import { openFiles } from './helpers';

// Journeys of an auditor who lives in the explorer: narrow the demo log, keep the view as a link,
// read it, take it away as a file. The demo log: 2,769 receipts, every one verified (its key is
// pinned by the suite's storage state, e2e/pinned.ts).
const ALL = /^2,769 of 2,769 receipts$/;

// Each test loads the demo log (2,769 receipts) at least once, some twice: on a busy 2-core machine that is more than the default 30 s.
test.describe.configure({ timeout: 90_000 });

/**
 * Accessibility problems in the page's main part. Rows stay real links (`<a role="row">`: open in
 * a new tab, copy the address), which axe's best-practice rule aria-allowed-role does not list for
 * `a[href]`; no WCAG rule concerns it.
 */
async function axeViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).include('main').disableRules(['aria-allowed-role']).analyze();
  return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);
}

const count = (page: Page) => page.getByTestId('explorer-count');
const shown = async (page: Page) => Number((await count(page).innerText()).split(' of ')[0]!.replace(/,/g, ''));
const headers = (page: Page) => page.locator('[data-testid=receipt-table] .thead [role=columnheader]');
const rows = (page: Page) => page.locator('[data-receipt-id]');

/** Filter by a field's value as a user does: the field, then the value (its option reads "value (count)"). */
async function pick(page: Page, field: string, value: string): Promise<number> {
  await page.getByTestId('explorer-filter-field').selectOption({ label: field });
  const menu = page.getByTestId('explorer-filter-value');
  const option = menu.locator('option').filter({ hasText: new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(([\\d,]+)\\)$`) });
  await expect(option).toHaveCount(1);
  const rowsWithIt = Number(/\(([\d,]+)\)$/.exec((await option.innerText()).trim())![1]!.replace(/,/g, ''));
  await menu.selectOption((await option.getAttribute('value'))!);
  return rowsWithIt;
}

async function openDemo(page: Page, path = '/receipts'): Promise<void> {
  await page.goto(path);
  await expect(count(page)).not.toContainText('still verifying', { timeout: 60_000 });
  await expect(count(page)).toHaveText(/ of 2,769 receipts$/, { timeout: 60_000 });
}

test('the explorer filters the demo log, keeps the filter in the URL, and opens a receipt', async ({ page }, testInfo) => {
  await openDemo(page);
  await expect(count(page)).toHaveText(ALL);
  // Rows carry their verdict and id.
  await expect(rows(page).first()).toHaveAttribute('data-verdict', 'verified');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'explorer.png'), fullPage: true });

  const denials = await pick(page, 'decision', 'deny');
  await expect(page).toHaveURL(/decision=deny/);
  await expect(count(page)).toHaveText(`${denials.toLocaleString('en-US')} of 2,769 receipts`);
  expect(denials).toBeGreaterThan(100);
  for (const row of await rows(page).all()) await expect(row.locator('[data-col=decision]')).toHaveText('deny');

  // A filtered view is a link: reloading keeps it.
  await page.reload();
  await expect(count(page)).toHaveText(`${denials.toLocaleString('en-US')} of 2,769 receipts`, { timeout: 60_000 });

  // Keyboard: focus the table, move down twice, open with Enter.
  await page.getByTestId('receipt-table').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('j');
  await expect(rows(page).nth(2)).toHaveAttribute('aria-selected', 'true');
  const third = await rows(page).nth(2).getAttribute('data-receipt-id');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(third!)}\\?file=[^&]+&line=\\d+$`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await page.screenshot({ path: join(testInfo.project.outputDir, 'receipt.png'), fullPage: true });
});

test('the Security preset shows the tampered receipt of a corpus case, and its page says why it failed', async ({ page }) => {
  const dir = join(process.cwd(), 'lib/testdata/corpus/tampered-signature');
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  await page.getByRole('link', { name: 'Receipts' }).click();
  await page.getByTestId('preset-security').click();
  const row = page.locator('[data-receipt-id="rcpt-000007-fb1061b9"]');
  await expect(row).toHaveAttribute('data-verdict', 'failed');
  await row.click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'failed');
  // The flipped bit leaves R off the curve, so the strict Ed25519 rules reject it before any equation.
  await expect(page.locator('.checklist li.fail').first()).toContainText('signature');
  await expect(page.getByText('R is not a canonical Ed25519 point encoding').first()).toBeVisible();
});

// Defect: the verdict and problem entries of "filter by" did nothing after a direct load or a
// reload: their option values held a NUL, which the HTML parser turns into U+FFFD.
test('the verdict filter works on a direct load and after a reload; every menu value is intact', async ({ page, request }) => {
  const html = await (await request.get('/receipts')).text();
  expect(html).not.toMatch(/[\u0000\uFFFD]/);

  await openDemo(page);
  expect(await pick(page, 'verdict', 'verified')).toBe(2769);
  await expect(page).toHaveURL(/[?&]verdict=verified(&|$)/);
  await expect(page.locator('[data-chip=verdict]')).toContainText('verdict: verified');
  await page.reload();
  await expect(count(page)).toHaveText(ALL, { timeout: 60_000 });
  await expect(page.locator('[data-chip=verdict]')).toBeVisible();
  // After the reload, every menu's values are intact and work.
  const fields = await page.getByTestId('explorer-filter-field').locator('option').allInnerTexts();
  for (const field of fields) {
    await page.getByTestId('explorer-filter-field').selectOption({ label: field });
    const values = await page
      .getByTestId('explorer-filter-value')
      .locator('option')
      .evaluateAll((os) => os.slice(1).map((o) => (o as HTMLOptionElement).value));
    for (const v of values) expect(typeof JSON.parse(v), `${field}: ${v}`).toBe('string');
  }
  const tenants = await pick(page, 'tenant', 'tenant-initech');
  await expect(page).toHaveURL(/verdict=verified.*tenant=tenant-initech/);
  await expect(count(page)).toHaveText(`${tenants.toLocaleString('en-US')} of 2,769 receipts`);
});

test('the problem filter finds the tampered receipt of a corpus case', async ({ page }) => {
  const dir = join(process.cwd(), 'lib/testdata/corpus/tampered-signature');
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  await page.getByRole('link', { name: 'Receipts' }).click();
  await expect(count(page)).toHaveText(/^280 of 280 receipts$/, { timeout: 60_000 });
  expect(await pick(page, 'problem', 'signature_invalid')).toBe(1);
  await expect(page).toHaveURL(/\/receipts\?problem=signature_invalid$/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toHaveAttribute('data-receipt-id', 'rcpt-000007-fb1061b9');
});

// Defect: a Finance chart bar opened the explorer on a time window that showed nowhere and could
// not be cleared. The link is built as the chart builds it (spend-chart.tsx → bucketFilter → explorerUrl).
test('a time window is a chip and a from/to control in UTC, kept in the URL', async ({ page }) => {
  const since = Date.UTC(2026, 0, 1, 1) / 1000;
  // The settled USD segment of the 01:00 bar of an hourly chart.
  const bar = bucketFilter({ start: since, bucketSeconds: 3600, bucketLabel: 'hour', count: 1, series: [] }, 0, 'USD', 'settled');
  await openDemo(page, explorerUrl(bar));
  const inWindow = await shown(page);
  expect(inWindow).toBeGreaterThan(0);
  const chip = page.locator('[data-chip=time]');
  await expect(chip).toHaveText(/time \(UTC\): 2026-01-01 01:00:00 to 2026-01-01 01:59:59/);
  await expect(page.getByTestId('explorer-since')).toHaveValue('2026-01-01 01:00:00');
  await expect(page.getByTestId('explorer-until')).toHaveValue('2026-01-01 01:59:59');
  for (const t of await page.locator('[data-receipt-id] [data-col=time]').allInnerTexts()) expect(t.startsWith('2026-01-01 01:'), t).toBe(true);

  // Removing the chip clears the window only.
  await chip.click();
  await expect(page).not.toHaveURL(/since=|until=/);
  await expect(page).toHaveURL(/currency=USD/);
  await expect(page.getByTestId('explorer-since')).toHaveValue('');
  expect(await shown(page)).toBeGreaterThan(inWindow);

  // Typed, to the minute: "to" takes the whole minute it names.
  await page.getByTestId('explorer-since').fill('2026-01-01 02:00');
  await page.getByTestId('explorer-since').press('Enter');
  await page.getByTestId('explorer-until').fill('2026-01-01 02:29');
  await page.getByTestId('explorer-until').blur();
  await expect(page).toHaveURL(new RegExp(`since=${since + 3600}&until=${since + 3600 + 29 * 60 + 59}`));
  await expect(page.locator('[data-chip=time]')).toHaveText(/2026-01-01 02:00:00 to 2026-01-01 02:29:59/);
  // Text that is no time says so and changes nothing.
  await page.getByTestId('explorer-until').fill('tomorrow');
  await page.getByTestId('explorer-until').press('Enter');
  await expect(page.getByTestId('explorer-until')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(new RegExp(`until=${since + 3600 + 29 * 60 + 59}`));
  await page.reload();
  await expect(page.getByTestId('explorer-until')).toHaveValue('2026-01-01 02:29:59', { timeout: 60_000 });
});

// Defect: the Compliance preset promised its policy, trust level, kind and signer and showed none.
test('each preset shows exactly its columns; Compliance the policy, trust level, kind and signer', async ({ page }) => {
  await openDemo(page);
  for (const p of Object.keys(PRESETS) as Preset[]) {
    await page.getByTestId(`preset-${p}`).click();
    await expect(page.getByTestId(`preset-${p}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(headers(page)).toHaveText(PRESETS[p].columns.map((c) => new RegExp(`^${COLUMN_LABEL[c].replace(/[()]/g, '\\$&')}`)));
  }
  await page.getByTestId('preset-compliance').click();
  for (const name of ['policy', 'trust level', 'kind', 'signer']) await expect(page.getByRole('columnheader', { name, exact: false }).first()).toBeVisible();
  const first = rows(page).first();
  for (const col of ['policyHash', 'trustLevel', 'kind', 'kernelKey']) await expect(first.locator(`[data-col=${col}]`), col).not.toBeEmpty();
  // The signer is the demo kernel's key (a hash column clips; its start is what is read).
  await expect(first.locator('[data-col=kernelKey]')).toHaveText(/^4e9f3e296bcc/);
});

/** Cells whose text does not fit (the ellipsis shows), among the rows on screen. */
const clipped = (table: Locator, col = '') =>
  table
    .locator(`[data-receipt-id] [role=gridcell]${col ? `[data-col=${col}]` : ''}`)
    .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => `${(c as HTMLElement).dataset.col}: ${c.textContent}`));

// Defect: the cost column cut "3,956.08 U…" while a quarter of the table was empty.
test('columns are sized to their content: nothing clipped while there is room; at 390 px the table scrolls in its box', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDemo(page, '/receipts?preset=finance&sort=-cost');
  const table = page.getByTestId('receipt-table');
  await expect(rows(page).first().locator('[data-col=cost]')).toHaveText('3,956.08 USD');
  expect(await clipped(table)).toEqual([]);
  const tableFit = () =>
    table.evaluate((t) => {
      const body = t.querySelector('.tbody')!;
      const row = t.querySelector('[data-receipt-id]')!;
      return { body: body.clientWidth, scroll: body.scrollWidth, row: row.getBoundingClientRect().width };
    });
  // The table fills its box and needs no sideways scroll.
  let box = await tableFit();
  expect(box.scroll).toBeLessThanOrEqual(box.body);
  expect(box.row).toBeGreaterThanOrEqual(box.body - 1);
  for (const path of ['/receipts', '/receipts?preset=security', '/receipts?preset=compliance']) {
    await openDemo(page, path);
    box = await tableFit();
    expect(box.scroll, path).toBeLessThanOrEqual(box.body);
    // Only 64-digit hashes may be cut (at their end), and only when the table is at its box's width.
    const cut = await clipped(table);
    expect(
      cut.filter((c) => !/^(policyHash|kernelKey): [0-9a-f]{40,}/.test(c)),
      path,
    ).toEqual([]);
    if (cut.length) expect(box.row, path).toBeLessThanOrEqual(box.body + 1);
  }
  await page.screenshot({ path: join(testInfo.project.outputDir, 'explorer-1440.png') });

  // A phone: the page never scrolls sideways; the table does, in its own box, and still cuts no cost.
  await page.setViewportSize({ width: 390, height: 844 });
  await openDemo(page, '/receipts?preset=finance&sort=-cost');
  const main = await page.evaluate(() => ({ scroll: document.querySelector('main')!.scrollWidth, width: document.querySelector('main')!.clientWidth }));
  expect(main.scroll).toBeLessThanOrEqual(main.width);
  box = await tableFit();
  expect(box.scroll).toBeGreaterThan(box.body);
  expect(await clipped(table, 'cost')).toEqual([]);
  // The keyboard scrolls it sideways, and the header follows.
  await table.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => table.evaluate((t) => [t.querySelector('.tbody')!.scrollLeft, t.querySelector('.thead')!.scrollLeft])).toEqual([120, 120]);
  await page.screenshot({ path: join(testInfo.project.outputDir, 'explorer-390.png'), fullPage: true });
});

test('search is live: results as you type, a chip to remove it', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('explorer-search').pressSequentially('transfer_f', { delay: 30 });
  await expect(page).toHaveURL(/[?&]q=transfer_f(&|$)/);
  // The URL changes first; the count follows once the log worker has answered the query.
  await expect.poll(() => shown(page)).toBeLessThan(2769);
  const found = await shown(page);
  expect(found).toBeGreaterThan(0);
  for (const t of await page.locator('[data-receipt-id] [data-col=toolName]').allInnerTexts()) expect(t).toBe('transfer_funds');
  const chip = page.locator('[data-chip=q]');
  await expect(chip).toHaveText(/search: transfer_f/);
  await chip.click();
  await expect(count(page)).toHaveText(ALL);
  await expect(page.getByTestId('explorer-search')).toHaveValue('');
  // Enter searches at once.
  await page.getByTestId('explorer-search').fill('srv-payments');
  await page.getByTestId('explorer-search').press('Enter');
  await expect(page).toHaveURL(/q=srv-payments/);
});

test('no row matches: the page says so, with the filters, and clears them', async ({ page }) => {
  await openDemo(page, '/receipts?q=no-such-receipt-anywhere&decision=deny');
  const empty = page.getByTestId('explorer-empty');
  await expect(empty).toContainText('No receipts match these filters');
  await expect(empty).toContainText('search: no-such-receipt-anywhere');
  await expect(empty).toContainText('decision: deny');
  await expect(count(page)).toHaveText('0 of 2,769 receipts');
  await expect(page.getByTestId('explorer-export-csv')).toBeDisabled();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByTestId('explorer-empty-clear').click();
  await expect(count(page)).toHaveText(ALL);
  await expect(page).toHaveURL(/\/receipts$/);
});

test('the column chooser: columns on and off, kept in the link; a preset brings its own back', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('explorer-columns').locator('summary').click();
  // Each box is the URL's `cols` (controlled): click, then see it follow.
  await page.getByTestId('column-tenant').click();
  await expect(page.getByTestId('column-tenant')).toBeChecked();
  await page.getByTestId('column-guard').click();
  await expect(page.getByTestId('column-guard')).not.toBeChecked();
  await expect(page).toHaveURL(/cols=time%2Cid%2CtoolServer%2CtoolName%2Cdecision%2Ccost%2Ctenant%2Cverdict/);
  await expect(headers(page).filter({ hasText: 'tenant' })).toHaveCount(1);
  await expect(headers(page).filter({ hasText: 'blocking guard' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await page.reload();
  await expect(count(page)).toHaveText(ALL, { timeout: 60_000 });
  await expect(headers(page).filter({ hasText: 'tenant' })).toHaveCount(1);
  await page.getByTestId('preset-compliance').click();
  await expect(page).not.toHaveURL(/cols=/);
  await expect(headers(page).filter({ hasText: 'signer' })).toHaveCount(1);
});

test('export: the filtered rows in their order as CSV and NDJSON, amounts in exact minor units', async ({ page }) => {
  await openDemo(page, '/receipts?preset=finance&sort=-cost&currency=USD');
  const n = await shown(page);
  const download = async (id: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
    return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
  };
  const csvFile = await download('explorer-export-csv');
  expect(csvFile.name).toBe(`receipts-${n}.csv`);
  const csv = parseCsv(csvFile.text);
  const nd = (await download('explorer-export-ndjson')).text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, string | number | null>);
  expect(csv.length - 1).toBe(n);
  expect(nd.length).toBe(n);
  const h = csv[0]!;
  expect(csv.slice(1).map((r) => r[h.indexOf('id')])).toEqual(nd.map((r) => r.id));
  expect(csv.slice(1).map((r) => r[h.indexOf('cost_minor')])).toEqual(nd.map((r) => r.cost_minor));
  expect(nd.every((r) => r.currency === 'USD' && typeof r.cost_minor === 'string' && /^\d+$/.test(r.cost_minor))).toBe(true);
  // The rows on screen, in the same order, with the same amounts as the cells show (USD: two decimals).
  const onScreen = await rows(page).evaluateAll((rs) =>
    rs.slice(0, 15).map((r) => [r.getAttribute('data-receipt-id'), r.querySelector('[data-col=cost]')!.textContent]),
  );
  onScreen.forEach(([id, cost], i) => {
    expect(nd[i]!.id).toBe(id);
    const minor = String(nd[i]!.cost_minor).padStart(3, '0');
    expect(cost!.replace(/,/g, '')).toBe(`${minor.slice(0, -2)}.${minor.slice(-2)} USD`);
  });
  expect(nd[0]!.cost_minor).toBe('395608');
});

test('every control is reachable by keyboard, labelled, with a visible focus', async ({ page }) => {
  await openDemo(page, '/receipts?decision=deny');
  await page.getByTestId('preset-all').focus();
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    const f = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const s = getComputedStyle(el);
      const name = el.getAttribute('aria-label') || (el as HTMLInputElement).labels?.[0]?.innerText || el.innerText || '';
      return {
        what: `${el.localName}${el.dataset.testid ? `#${el.dataset.testid}` : ''}`,
        name: name.trim(),
        outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0,
        shadow: s.boxShadow !== 'none',
      };
    });
    seen.push(f.what);
    expect(f.name, f.what).not.toBe('');
    expect(f.outline || f.shadow, `${f.what} shows its focus`).toBe(true);
    if (f.what === 'div#receipt-table') break;
    await page.keyboard.press('Tab');
  }
  for (const id of [
    'explorer-search',
    'explorer-filter-field',
    'explorer-filter-value',
    'explorer-since',
    'explorer-until',
    'explorer-export-csv',
    'receipt-table',
  ])
    expect(
      seen.some((s) => s.endsWith(`#${id}`)),
      id,
    ).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
});
