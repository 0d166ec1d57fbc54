import { join } from 'node:path';
import { expect, test } from '@playwright/test';

// Journey: a newcomer opens the app and sees what it is.
test('home page shows the app title', async ({ page }, testInfo) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Receipt Audit');
  await expect(page.getByTestId('app-title')).toHaveText('Receipt Audit');
  // test-results/home.png, for a person to look at.
  await page.screenshot({ path: join(testInfo.project.outputDir, 'home.png'), fullPage: true });
});
