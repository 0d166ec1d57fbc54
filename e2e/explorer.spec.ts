import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles } from './helpers';

// Journey: an auditor narrows the demo log to what matters and opens a receipt.
test('the explorer filters the demo log, keeps the filter in the URL, and opens a receipt', async ({ page }, testInfo) => {
  await page.goto('/receipts');
  const count = page.getByTestId('explorer-count');
  await expect(count).toHaveText(/^2,769 of 2,769 receipts$/, { timeout: 60_000 });
  // Rows carry their verdict and id.
  const first = page.locator('[data-receipt-id]').first();
  await expect(first).toHaveAttribute('data-verdict', 'verified');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'explorer.png'), fullPage: true });

  await page.getByTestId('explorer-add-filter').selectOption({ label: 'deny' });
  await expect(page).toHaveURL(/decision=deny/);
  const denied = await count.textContent();
  expect(Number(denied!.split(' ')[0]!.replace(/,/g, ''))).toBeGreaterThan(100);
  for (const row of await page.locator('[data-receipt-id]').all()) await expect(row).toContainText('deny');

  // A filtered view is a link: reloading keeps it.
  await page.reload();
  await expect(count).toHaveText(denied!, { timeout: 60_000 });

  // Keyboard: focus the table, move down twice, open with Enter.
  await page.getByTestId('receipt-table').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const third = await page.locator('[data-receipt-id]').nth(2).getAttribute('data-receipt-id');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(third!)}\\?file=[^&]+&line=\\d+$`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await page.screenshot({ path: join(testInfo.project.outputDir, 'receipt.png'), fullPage: true });
});

test('the Security preset shows the tampered receipt of a corpus case, and its page says why it failed', async ({ page }) => {
  const dir = join(process.cwd(), 'lib/testdata/corpus/tampered-signature');
  await openFiles(page, readdirSync(dir).map((f) => join(dir, f)));
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
