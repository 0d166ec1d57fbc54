import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openFiles } from './helpers';
import { CORPUS_KEY } from './pinned';

// Journey: an auditor opens ZeroClaw and CodeWhale receipts beside a Chio log, filters the
// explorer by runtime, reads what each receipt can prove, then supplies ZeroClaw's key and the
// diff a CodeWhale review was written for, and the page checks them, exactly as the CLI does.
const TESTDATA = join(process.cwd(), 'lib/testdata');
const KEY = '2a'.repeat(32);
const CLEAN_DIFF = 'diff --git a/a b/a\n+ok\n';
const REVIEWS = ['clean-pass', 'old-diff', 'check-not-run', 'staged-no-checks', 'unresolved-warning'].map((n) => `review-receipt.${n}.json`);
const FILES: [string, string][] = [
  ['zeroclaw/synthesized/hmac-test-vectors.json', 'hmac-test-vectors.json'],
  ...REVIEWS.map((n): [string, string] => [`codewhale/synthesized/${n}`, n]),
  ['codewhale/conformance-receipt-v0.draft-example.json', 'conformance-receipt-v0.draft-example.json'],
  // Renamed: dropped beside other files, a receipts.ndjson would make them one evidence package.
  ['corpus/good/receipts.ndjson', 'chio-log.ndjson'],
];
const ZEROCLAW = 4;
const CODEWHALE = REVIEWS.length + 1;

/** A review receipt's id as the audit names it (CodeWhale's own file name): its time and the diff digest's first 12 hex. */
function reviewId(file: string): string {
  const r = JSON.parse(readFileSync(join(TESTDATA, 'codewhale/synthesized', file), 'utf8')) as { generated_at: string; diff_fingerprint: string };
  return `review-${r.generated_at.replace(/[-:]/g, '')}-${r.diff_fingerprint.replace(/^sha256:/, '').slice(0, 12)}`;
}

function workdir(): { dir: string; names: string[]; diff: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ra-dialects-page-'));
  for (const [from, to] of FILES) copyFileSync(join(TESTDATA, from), join(dir, to));
  const diff = join(dir, 'current.diff');
  writeFileSync(diff, CLEAN_DIFF);
  return { dir, names: FILES.map(([, to]) => to), diff };
}

// Picked files cannot be reopened after a reload: every move below is in-app navigation, as a user's.
// It waits for the route, since a receipt page has a key panel of its own to be mistaken for the overview's.
async function nav(page: Page, name: 'Overview' | 'Receipts'): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await page.waitForURL((u) => u.pathname === (name === 'Overview' ? '/' : '/receipts'));
}

/** The explorer narrowed to one runtime, through its buttons. */
async function explorer(page: Page, runtime: 'zeroclaw' | 'codewhale' | 'chio'): Promise<void> {
  await nav(page, 'Receipts');
  await page.getByTestId(`runtime-${runtime}`).click();
  await expect(page.getByTestId(`runtime-${runtime}`)).toHaveAttribute('aria-pressed', 'true');
}

async function zeroclawVerdicts(page: Page): Promise<string[]> {
  await explorer(page, 'zeroclaw');
  const rows = page.locator('[data-receipt-id]');
  await expect(rows).toHaveCount(ZEROCLAW);
  return rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict') ?? ''));
}

/** Enters the key and/or the diff on the overview and verifies the open log again with them. */
async function applyInputs(page: Page, inputs: { key?: string; diff?: string }): Promise<void> {
  await nav(page, 'Overview');
  const panel = page.getByTestId('dialect-inputs');
  if (!(await panel.evaluate((el) => (el as HTMLDetailsElement).open))) await panel.locator('summary').click();
  if (inputs.key !== undefined) await page.getByTestId('zc-key-input').fill(inputs.key);
  if (inputs.diff !== undefined) await page.getByTestId('cw-diff-input').setInputFiles(inputs.diff);
  await page.getByTestId('dialect-apply').click();
}

/** Nothing of the key anywhere the page could keep or leak it: address, storage, IndexedDB, cookies, the DOM. */
async function expectKeyNowhere(page: Page): Promise<void> {
  expect(page.url()).not.toContain(KEY.slice(0, 16));
  const kept = await page.evaluate(async () => ({
    storage: JSON.stringify([{ ...localStorage }, { ...sessionStorage }]),
    idb: (await indexedDB.databases()).map((d) => d.name ?? ''),
    dom: document.documentElement.outerHTML,
  }));
  expect(kept.storage).not.toContain(KEY.slice(0, 16));
  expect(kept.idb).toEqual([]);
  expect(kept.dom).not.toContain(KEY.slice(0, 16));
  expect(JSON.stringify(await page.context().cookies())).not.toContain(KEY.slice(0, 16));
}

test('dialect receipts load beside Chio ones: the runtime filter, and pages that say what each can prove', async ({ page }) => {
  const { dir, names } = workdir();
  await openFiles(
    page,
    names.map((n) => join(dir, n)),
  );
  await expect(page.getByTestId('runtime-counts')).toContainText('ZeroClaw');
  await nav(page, 'Receipts');
  await expect(page.getByTestId('explorer-count')).toHaveText(/^\d+ of \d+ receipts/);
  const all = Number(/of ([\d,]+)/.exec(await page.getByTestId('explorer-count').innerText())![1]!.replace(/,/g, ''));
  const count = (n: number) => new RegExp(`^${n.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} receipts`);
  await page.getByTestId('runtime-zeroclaw').click();
  await expect(page).toHaveURL(/type=zeroclaw/);
  await expect(page.getByTestId('explorer-count')).toHaveText(count(ZEROCLAW));
  await expect(page.locator('[data-receipt-id] [data-runtime]')).toHaveText(Array(ZEROCLAW).fill('ZeroClaw'));
  await page.getByTestId('runtime-codewhale').click();
  await expect(page).toHaveURL(/type=codewhale-review&type=codewhale-turn/);
  await expect(page.getByTestId('explorer-count')).toHaveText(count(CODEWHALE));
  await page.getByTestId('runtime-chio').click();
  await expect(page.getByTestId('explorer-count')).toHaveText(count(all - ZEROCLAW - CODEWHALE));
  await expect(page.locator('[data-receipt-id] [data-runtime="chio"]').first()).toHaveText('Chio');
  await page.getByTestId('runtime-all').click();
  await expect(page.getByTestId('explorer-count')).toHaveText(count(all));

  // Without the key, a ZeroClaw receipt is unverified, never verified, and its page says why.
  expect(await zeroclawVerdicts(page)).toEqual(Array(ZEROCLAW).fill('unverified'));
  await page.locator('[data-receipt-id]').first().click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'unverified');
  await expect(page.getByTestId('dialect-banner')).toHaveText(
    "HMAC tag: checkable only with the runtime's ephemeral key; without it the signature check is skipped, never passed.",
  );
  await expect(page.locator('[data-check="signature"]')).toHaveAttribute('data-status', 'skipped');
  await expect(page.locator('[data-check="signature"]')).toContainText('key not available (ephemeral)');
  await expect(page.getByTestId('dialect-facts')).toContainText('shell');
  await expect(page.getByTestId('no-share-note')).toBeVisible();

  // A CodeWhale review: unsigned, said plainly; without the diff its gate is not run.
  await explorer(page, 'codewhale');
  await page.locator(`[data-receipt-id="${reviewId('review-receipt.old-diff.json')}"]`).click();
  await expect(page.getByTestId('dialect-banner')).toHaveText(
    'Unsigned: an integrity check, not an authenticity check. Anyone can write or edit this receipt.',
  );
  await expect(page.locator('[data-check="review_gate"]')).toHaveAttribute('data-status', 'skipped');
  await expect(page.locator('[data-check="signature"]')).toContainText('unsigned: integrity, not authenticity');
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'unverified');
});

test('the key and the diff: entered on the page, the receipts are checked again, and the report is the CLI one', async ({ page }) => {
  // The log is verified three times over (no key, a wrong key, the right key and the diff): it
  // took 29 s of the default 30 on CI's 2 cores.
  test.setTimeout(90_000);
  const { dir, names, diff } = workdir();
  await openFiles(
    page,
    names.map((n) => join(dir, n)),
  );

  // A key that is not hex is refused, with the reason, and nothing is re-verified.
  await applyInputs(page, { key: 'not-a-key' });
  await expect(page.getByTestId('dialect-error')).toContainText('The key must be hex');
  await expect(page.getByTestId('zc-key-input')).toHaveAttribute('aria-invalid', 'true');

  // The wrong key fails every ZeroClaw tag, as signature_invalid.
  await applyInputs(page, { key: '00'.repeat(32) });
  await expect.poll(() => zeroclawVerdicts(page), { timeout: 30_000 }).toEqual(Array(ZEROCLAW).fill('failed'));
  await page.locator('[data-receipt-id]').first().click();
  await expect(page.locator('[data-check="signature"]')).toHaveAttribute('data-status', 'fail');
  await expect(page.locator('[data-testid="receipt-problems"] [data-code="signature_invalid"]')).toHaveCount(1);

  // The right key and the diff: every tag recomputes; the clean review passes CodeWhale's gate, the old one does not.
  await applyInputs(page, { key: KEY, diff });
  await expectKeyNowhere(page);
  await expect.poll(() => zeroclawVerdicts(page), { timeout: 30_000 }).toEqual(Array(ZEROCLAW).fill('verified'));
  await explorer(page, 'codewhale');
  const clean = page.locator('[data-receipt-id]').filter({ hasText: 'valid' });
  await expect(clean).toHaveCount(1);
  await expect(clean).toHaveAttribute('data-receipt-id', reviewId('review-receipt.clean-pass.json'));
  await clean.click();
  // check-not-run was written for the same diff in the same second: one id, two receipts on one page.
  await expect(page.getByTestId('dialect-shared-id')).toBeVisible();
  const cleanPass = page.locator('[data-testid="dialect-entry"][data-file="review-receipt.clean-pass.json"]');
  await expect(cleanPass.locator('[data-check="review_gate"]')).toHaveAttribute('data-status', 'pass');
  await expect(cleanPass.locator('[data-check="review_gate"]')).toContainText('valid: receipt matches current diff and has no unresolved risk');
  await expect(cleanPass.locator('[data-check="diff_fingerprint"]')).toHaveAttribute('data-status', 'pass');
  await expect(cleanPass.getByTestId('dialect-facts')).toContainText(/CodeWhale status\s*valid/);
  // Unsigned: passing every check still is not "verified".
  await expect(cleanPass.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'unverified');
  const notRun = page.locator('[data-testid="dialect-entry"][data-file="review-receipt.check-not-run.json"]');
  await expect(notRun.locator('[data-check="review_gate"]')).toHaveAttribute('data-status', 'fail');
  await expect(notRun.getByTestId('dialect-facts')).toContainText('not_run');
  await explorer(page, 'codewhale');
  const old = page.locator(`[data-receipt-id="${reviewId('review-receipt.old-diff.json')}"]`);
  await expect(old).toContainText('diff_mismatch');
  await old.click();
  await expect(page.locator('[data-check="diff_fingerprint"]')).toHaveAttribute('data-status', 'fail');
  await expect(page.locator('[data-check="review_gate"]')).toContainText('diff_mismatch');

  // The key is in memory only: not in the address bar, storage, IndexedDB, cookies or the page.
  await expectKeyNowhere(page);

  // The report the page exports is the CLI's with the same key and diff.
  const run = spawnSync(
    process.execPath,
    [join(process.cwd(), 'bin/receipt-audit.mjs'), 'verify', ...names, '--trust-key', CORPUS_KEY, '--hmac-key', KEY, '--diff', diff, '--json'],
    { cwd: dir, maxBuffer: 64 << 20 },
  );
  expect(run.status, run.stderr.toString()).toBeLessThan(2);
  const cli = JSON.parse(run.stdout.toString()) as { receipts: unknown[]; problems: unknown[]; summary: unknown; ok: boolean };
  await nav(page, 'Overview');
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as typeof cli;
  expect({ ok: browser.ok, summary: browser.summary, receipts: browser.receipts, problems: browser.problems }).toEqual({
    ok: cli.ok,
    summary: cli.summary,
    receipts: cli.receipts,
    problems: cli.problems,
  });

  // Forgetting them: back to skipped.
  await page.getByTestId('dialect-clear').click();
  await expect.poll(() => zeroclawVerdicts(page), { timeout: 30_000 }).toEqual(Array(ZEROCLAW).fill('unverified'));
});
