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
