import { join } from 'node:path';
import { expect, test } from '@playwright/test';

// Journey: an auditor checks that their own browser verifies exactly as the
// contract says (verification.md §1.5): every vector, both engines, same verdicts.
test('Chromium gives every Ed25519 and Chio vector its expected verdict, in both engines', async ({ page }, testInfo) => {
  await page.goto('/selftest');
  const result = page.getByTestId('selftest');
  await expect(result).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(result).toHaveAttribute('data-webcrypto', 'cofactorless');
  for (const engine of ['webcrypto', 'noble']) {
    for (const [source, n] of Object.entries({ rfc8032: 5, wycheproof: 151, speccheck: 12, zip215: 196, supercop: 1024 })) {
      await expect(page.getByTestId(`selftest-${engine}-${source}`)).toHaveText(`${n} of ${n}`);
    }
  }
  await expect(page.getByTestId('selftest-agreement')).toHaveText(/agree on 1388 of 1388/);
  await expect(page.getByTestId('selftest-chio-A')).toHaveText('4 of 4');
  await expect(page.getByTestId('selftest-chio-B')).toHaveText('14 of 14');
  await expect(result).toHaveAttribute('data-all-match', 'true');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'selftest.png'), fullPage: true });
});
