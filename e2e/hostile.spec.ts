import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { writeHostileCorpus, type HostileCorpus } from '../test/support/hostile';
import { openFiles } from './helpers';
import { NOTHING_PINNED } from './pinned';

// Journey: an auditor opens a log written by an attacker. Every string the page can show carries
// script, markup, javascript: URLs, bidi overrides, zero-width characters, lookalikes, zalgo,
// controls or 100 KB without a space (test/support/hostile.ts); the receipts are properly signed,
// so every view shows them. Nothing may run, no link may point at script, the layout must hold at
// 1280 and 800 px, and what hides must be made visible. No CSP is relied on.
test.describe.configure({ timeout: 180_000 });
// A browser that pins nothing yet: the test's first step pins the attacker's key from a trust file
// with a hostile label, so the log verifies and every view shows it (with the label).
test.use({ storageState: NOTHING_PINNED });

interface Watch {
  dialogs: string[];
  errors: string[];
}

function watch(page: Page): Watch {
  const w: Watch = { dialogs: [], errors: [] };
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  return w;
}

/** Nothing from the log ran or became markup: no flag, no dialog, no handler attribute, no script URL. */
async function expectInert(page: Page, w: Watch, where: string): Promise<void> {
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const a of Array.from(el.attributes)) {
        const name = a.name.toLowerCase();
        if (name.startsWith('on')) bad.push(`<${el.localName} ${name}>`);
        if (
          ['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data', 'poster'].includes(name) &&
          /^\s*(javascript|vbscript|data):/i.test(a.value)
        ) {
          bad.push(`<${el.localName} ${name}="${a.value.slice(0, 40)}">`);
        }
      }
    }
    // The log's markup never became elements (the corpus uses src=x and inline script setting __pwned).
    for (const el of document.querySelectorAll('img[src="x"], svg[onload], iframe, object, embed')) bad.push(`<${el.localName}> element`);
    for (const s of Array.from(document.scripts)) if ((s.textContent ?? '').includes('__pwned')) bad.push('<script> with the payload');
    return { bad, pwned: (window as unknown as { __pwned?: unknown }).__pwned };
  });
  expect(found.pwned, `${where}: window.__pwned`).toBeUndefined();
  expect(found.bad, `${where}: markup from the log`).toEqual([]);
  expect(w.dialogs, `${where}: dialogs`).toEqual([]);
  expect(w.errors, `${where}: page errors`).toEqual([]);
}

/** The page does not scroll sideways at 1280 and at 800 px; a screenshot of each to look at. */
async function expectLayoutHolds(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 900 });
    // Let charts and the DAG resize to the new width.
    await page.waitForTimeout(300);
    const { scrollWidth, clientWidth, widest } = await page.evaluate(() => {
      const clientWidth = document.documentElement.clientWidth;
      // The deepest elements that reach past the right edge, to say what broke the layout.
      const past = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > clientWidth + 2);
      const widest = past
        .filter((el) => !past.some((other) => other !== el && el.contains(other)))
        .slice(0, 5)
        .map((el) => `<${el.localName} class="${el.className}"> right=${Math.round(el.getBoundingClientRect().right)}`);
      return { scrollWidth: document.documentElement.scrollWidth, clientWidth, widest };
    });
    await page.screenshot({ path: join(testInfo.project.outputDir, `hostile-${name}-${width}.png`), fullPage: true });
    expect.soft(scrollWidth, `${name} at ${width} px: the document scrolls sideways (${widest.join(', ')})`).toBeLessThanOrEqual(clientWidth + 2);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Marker badges (components/ui/safe-text.tsx) with these labels are on the page. */
async function expectMarks(page: Page, where: string, labels: (string | RegExp)[]): Promise<void> {
  const marks = page.getByTestId('reveal-mark');
  for (const label of labels) await expect(marks.filter({ hasText: label }).first(), `${where}: a ${label} marker`).toBeVisible();
}

async function nav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
}

let corpus: HostileCorpus;

test.beforeAll(async ({}, testInfo) => {
  corpus = writeHostileCorpus(testInfo.outputPath('hostile-corpus'));
});

test('a hostile, signed log: nothing runs, nothing links to script, the layout holds, hidden text is shown', async ({ page }, testInfo) => {
  const w = watch(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  // Trust: the signing key pinned from a trust file whose label is hostile (RLO, Cyrillic, zero-width, markup, 100 KB).
  await page.goto('/trust');
  await page.getByTestId('trust-import').setInputFiles(corpus.trustFile);
  const label = page.getByTestId('trust-list').getByTestId('trust-label');
  await expect(label).toHaveCount(1);
  await expectMarks(page, 'trust', ['U+202E', 'U+0430', 'U+200B']);
  await expect(label.getByTestId('show-all')).toBeVisible();
  await expect(label).toContainText('<img src=x onerror=');
  await expectInert(page, w, 'trust');
  await expectLayoutHolds(page, testInfo, 'trust');

  await openFiles(page, corpus.files);

  // Overview: the signed receipts verify (so every view shows them); the tampered ones fail and are listed.
  await expect(page.getByTestId('count-verified')).toHaveText('43');
  await expect(page.getByTestId('count-failed')).toHaveText('2');
  const problems = page.getByTestId('problems');
  for (const code of ['signature_invalid', 'parameter_hash_mismatch', 'checkpoint_structure_invalid', 'unsigned_field', 'parse_error']) {
    await expect(problems.locator(`[data-code="${code}"]`)).toHaveCount(1);
  }
  // The forged receipt's id holds an RLO, the file name an RLO and a Cyrillic 'а', the unsigned one zero-width characters.
  await expectMarks(page, 'overview', ['U+202E', 'U+0430', 'U+200B']);
  await expectInert(page, w, 'overview');
  await expectLayoutHolds(page, testInfo, 'overview');

  // Explorer: the tool receipts (their ids hold "rcpt-"), every column hostile.
  await nav(page, 'Receipts');
  await page.getByTestId('explorer-search').fill('rcpt-');
  await page.getByTestId('explorer-search').press('Enter');
  await expect(page.getByTestId('explorer-count')).toContainText('17 of');
  await expectMarks(page, 'explorer', ['U+202E', 'U+2067', 'U+200B', 'U+0430', 'U+FF50', 'U+001B', /^\+\d+ combining marks$/]);
  // Long cells are clipped and say by how much (no "show all" inside a row, which is a link).
  await expect(page.getByTestId('receipt-table').getByTestId('clipped').first()).toBeVisible();
  await expectInert(page, w, 'explorer');
  await expectLayoutHolds(page, testInfo, 'explorer');

  // The receipt with an unsigned extra field (zero-width id; an unsigned key of markup holding RLO + 100 KB).
  await page.getByTestId('explorer-search').fill('rcpt-17');
  await page.getByTestId('explorer-search').press('Enter');
  const row = page.locator('[data-receipt-id]');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-receipt-id', corpus.tampered.unsignedField);
  await row.click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await expectMarks(page, 'receipt', ['U+200B', 'U+200C', 'U+200D', 'U+2060', 'U+FEFF', 'U+202E']);
  const unsigned = page.getByTestId('receipt-fields').locator('tr[data-status="not signed"]');
  await expect(unsigned).toHaveCount(2);
  // The unsigned key is markup, shown as text; its value (RLO + 100 KB) is clipped with "show all",
  // and asking shows all of it, wrapped inside the page.
  const longField = unsigned.filter({ hasText: '<img src=x onerror=' });
  await expect(longField).toHaveCount(1);
  await expect(longField.getByTestId('clipped')).toContainText('more characters');
  await longField.getByTestId('show-all').click();
  await expect(longField.getByTestId('show-all')).toHaveCount(0);
  expect((await longField.innerText()).length).toBeGreaterThan(100_000);
  await expectInert(page, w, 'receipt');
  await expectLayoutHolds(page, testInfo, 'receipt');
  const fragmentLink = await page.getByTestId('share-fragment-link').inputValue();

  for (const [view, ready] of [
    ['DAG', 'dag-sessions'],
    ['Finance', 'finance-section-budgets'],
    ['Compliance', 'report-scope'],
    ['Security', 'health-summary'],
  ] as const) {
    await nav(page, view);
    await expect(page.getByTestId(ready)).toBeVisible({ timeout: 30_000 });
    // The DAG lays its graphs out in a worker: look at them drawn.
    if (view === 'DAG')
      for (const graph of await page.locator('[data-layout]').all()) await expect(graph).toHaveAttribute('data-layout', 'done', { timeout: 30_000 });
    await expectMarks(page, view, ['U+202E', 'U+200B']);
    await expectInert(page, w, view);
    await expectLayoutHolds(page, testInfo, view.toLowerCase());
  }

  // The share page, in this browser (which now pins the key under its hostile label).
  await page.goto(fragmentLink);
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 30_000 });
  await expect(page.getByTestId('receipt-checks').locator('[data-check="signer_trusted"]')).toHaveAttribute('data-status', 'pass');
  await expectMarks(page, 'share', ['U+200B', 'U+202E', 'U+0430']);
  await expectInert(page, w, 'share');
  await expectLayoutHolds(page, testInfo, 'share');
});
