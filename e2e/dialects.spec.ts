import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openFiles } from './helpers';

// Journey: an auditor opens ZeroClaw and CodeWhale receipts beside a Chio log, filters the
// explorer by runtime, reads what each receipt can prove, then supplies ZeroClaw's key and the
// diff a CodeWhale review was written for, and the page checks them, exactly as the CLI does.
const TESTDATA = join(process.cwd(), 'lib/testdata');
const KEY = '2a'.repeat(32);
const CLEAN_DIFF = 'diff --git a/a b/a\n+ok\n';
const FILES: [string, string][] = [
  ['zeroclaw/synthesized/hmac-test-vectors.json', 'hmac-test-vectors.json'],
  ['codewhale/synthesized/review-receipt.clean-pass.json', 'review-receipt.clean-pass.json'],
  ['codewhale/synthesized/review-receipt.old-diff.json', 'review-receipt.old-diff.json'],
  ['codewhale/conformance-receipt-v0.draft-example.json', 'conformance-receipt-v0.draft-example.json'],
  // Renamed: dropped beside other files, a receipts.ndjson would make them one evidence package.
  ['corpus/good/receipts.ndjson', 'chio-log.ndjson'],
];

function workdir(): { dir: string; names: string[]; diff: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ra-dialects-page-'));
  for (const [from, to] of FILES) copyFileSync(join(TESTDATA, from), join(dir, to));
  const diff = join(dir, 'current.diff');
  writeFileSync(diff, CLEAN_DIFF);
  return { dir, names: FILES.map(([, to]) => to), diff };
}

// Picked files cannot be reopened after a reload: every move below is in-app navigation, as a user's.
const nav = (page: Page, name: 'Overview' | 'Receipts') => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();

/** The explorer narrowed to one runtime, through its buttons. */
async function explorer(page: Page, runtime: 'zeroclaw' | 'codewhale' | 'chio'): Promise<void> {
  await nav(page, 'Receipts');
  await page.getByTestId(`runtime-${runtime}`).click();
  await expect(page).toHaveURL(/type=/);
}

async function zeroclawVerdicts(page: Page): Promise<string[]> {
  await explorer(page, 'zeroclaw');
  const rows = page.locator('[data-receipt-id]');
  await expect(rows).toHaveCount(4);
  return rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict') ?? ''));
}

async function applyInputs(page: Page, inputs: { key?: string; diff?: string }): Promise<void> {
  await nav(page, 'Overview');
  const panel = page.getByTestId('dialect-inputs');
  if (!(await panel.evaluate((el) => (el as HTMLDetailsElement).open))) await panel.locator('summary').click();
  if (inputs.key !== undefined) await page.getByTestId('zc-key-input').fill(inputs.key);
  if (inputs.diff !== undefined) await page.getByTestId('cw-diff-input').setInputFiles(inputs.diff);
  await page.getByTestId('dialect-apply').click();
}

test('dialect receipts load beside Chio ones: the runtime filter, and pages that say what each can prove', async ({ page }) => {
  const { dir, names } = workdir();
  await openFiles(page, names.map((n) => join(dir, n)));
  await nav(page, 'Receipts');
  await expect(page.getByTestId('explorer-count')).toHaveText(/^\d+ of \d+ receipts/);
  const all = Number(/of ([\d,]+)/.exec(await page.getByTestId('explorer-count').innerText())![1]!.replace(/,/g, ''));
  await page.getByTestId('runtime-zeroclaw').click();
  await expect(page).toHaveURL(/type=zeroclaw/);
  await expect(page.getByTestId('explorer-count')).toHaveText(new RegExp(`^4 of ${all.toLocaleString('en-US')} receipts`));
  await page.getByTestId('runtime-codewhale').click();
  await expect(page.getByTestId('explorer-count')).toHaveText(/^3 of /);
  await page.getByTestId('runtime-chio').click();
  await expect(page.getByTestId('explorer-count')).toHaveText(new RegExp(`^${all - 7} of `));

  // Without the key, a ZeroClaw receipt is unverified, never verified, and its page says why.
  expect(await zeroclawVerdicts(page)).toEqual(['unverified', 'unverified', 'unverified', 'unverified']);
  await page.locator('[data-receipt-id]').first().click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'unverified');
  await expect(page.getByTestId('dialect-banner')).toContainText("checkable only with the runtime's ephemeral key");
  await expect(page.locator('[data-check="signature"]')).toContainText('key not available (ephemeral)');
  await expect(page.getByTestId('dialect-facts')).toContainText('shell');

  // A CodeWhale review: unsigned, said plainly; without the diff its gate is not run.
  await explorer(page, 'codewhale');
  await page.locator('[data-receipt-id^="review-"]').first().click();
  await expect(page.getByTestId('dialect-banner')).toHaveText('Unsigned: an integrity check, not an authenticity check. Anyone can write or edit this receipt.');
  await expect(page.locator('[data-check="review_gate"]')).toHaveAttribute('data-status', 'skipped');
  await expect(page.locator('[data-check="signature"]')).toContainText('unsigned: integrity, not authenticity');
});

test('the key and the diff: entered on the page, the receipts are checked again, and the report is the CLI one', async ({ page }) => {
  const { dir, names, diff } = workdir();
  await openFiles(page, names.map((n) => join(dir, n)));

  // A key that is not hex is refused, with the reason, and nothing is re-verified.
  await applyInputs(page, { key: 'not-a-key' });
  await expect(page.getByTestId('dialect-error')).toContainText('The key must be hex');

  // The wrong key fails every ZeroClaw tag.
  await applyInputs(page, { key: '00'.repeat(32) });
  await expect.poll(() => zeroclawVerdicts(page), { timeout: 30_000 }).toEqual(['failed', 'failed', 'failed', 'failed']);

  // The right key and the diff: every tag recomputes; the clean review passes CodeWhale's gate, the old one does not.
  await applyInputs(page, { key: KEY, diff });
  await expect.poll(() => zeroclawVerdicts(page), { timeout: 30_000 }).toEqual(['verified', 'verified', 'verified', 'verified']);
  await explorer(page, 'codewhale');
  const clean = page.locator('[data-receipt-id^="review-"]').filter({ hasText: 'valid' });
  await expect(clean).toHaveCount(1);
  await clean.click();
  await expect(page.locator('[data-check="review_gate"]')).toHaveAttribute('data-status', 'pass');
  await expect(page.locator('[data-check="review_gate"]')).toContainText('valid: receipt matches current diff and has no unresolved risk');
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'unverified');
  await explorer(page, 'codewhale');
  await expect(page.locator('[data-receipt-id^="review-"]').filter({ hasText: 'diff_mismatch' })).toHaveCount(1);

  // The key is in memory only: not in the address bar, not in storage.
  expect(page.url()).not.toContain(KEY);
  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  expect(stored).not.toContain(KEY);
  expect(stored).not.toContain('2a2a2a2a');

  // The report the page exports is the CLI's with the same key and diff.
  const run = spawnSync(process.execPath, [join(process.cwd(), 'bin/receipt-audit.mjs'), 'verify', ...names, '--hmac-key', KEY, '--diff', diff, '--json'], { cwd: dir, maxBuffer: 64 << 20 });
  expect(run.status, run.stderr.toString()).toBeLessThan(2);
  const cli = JSON.parse(run.stdout.toString()) as { receipts: unknown[]; problems: unknown[]; summary: unknown; ok: boolean };
  await nav(page, 'Overview');
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as typeof cli;
  expect({ ok: browser.ok, summary: browser.summary, receipts: browser.receipts, problems: browser.problems }).toEqual({ ok: cli.ok, summary: cli.summary, receipts: cli.receipts, problems: cli.problems });

  // Forgetting them: back to skipped.
  await page.getByTestId('dialect-clear').click();
  await expect.poll(() => zeroclawVerdicts(page), { timeout: 30_000 }).toEqual(['unverified', 'unverified', 'unverified', 'unverified']);
});
