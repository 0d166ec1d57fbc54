import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { pinKey } from './helpers';

const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';

// Journey: an auditor pins the key they were given, and the log is checked against it.
test('pinning the demo key on /trust makes every demo receipt pass signer_trusted', async ({ page }, testInfo) => {
  await pinKey(page, DEMO_KEY);
  await page.screenshot({ path: join(testInfo.project.outputDir, 'trust.png'), fullPage: true });
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('count-verified')).toHaveText('2769');
  await expect(page.getByRole('row', { name: /signer_trusted/ })).toContainText('2769');
  await expect(page.getByText('pinned', { exact: true })).toBeVisible();
});

test('a key that is not a kernel key is refused with a reason; another pinned key makes the demo fail', async ({ page }) => {
  await page.goto('/trust');
  await page.getByTestId('trust-key-input').fill('not-a-key');
  await page.getByTestId('trust-key-add').click();
  await expect(page.getByRole('status')).toContainText('not a kernel key');
  await pinKey(page, 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737');
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('count-failed')).toHaveText('2769');
});

// Journey: the keys pinned in the browser go to CI as the command line's --trust-file.
test('the exported trust file pins the same signer for receipt-audit --trust-file', async ({ page }) => {
  const dir = join(process.cwd(), 'lib/testdata/corpus/good');
  const [key] = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
  await pinKey(page, key!);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Export \(for receipt-audit --trust-file\)/ }).click()]);
  expect(download.suggestedFilename()).toBe('receipt-audit-trust.json');
  const file = await download.path();
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', dir, '--trust-file', file, '--json'], { maxBuffer: 64 << 20 });
  expect(run.status, run.stderr.toString()).toBe(0);
  const report = JSON.parse(run.stdout.toString()) as { receipts: { checks: { signer_trusted: string } }[] };
  expect(report.receipts.length).toBe(280);
  expect(report.receipts.every((r) => r.checks.signer_trusted === 'pass')).toBe(true);
});
