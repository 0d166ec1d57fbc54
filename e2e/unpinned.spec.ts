// Contract part 2 §11 in the browser: with no key pinned nothing is "verified". The demo log and
// a share link signed by an attacker's own key are "intact, signer not pinned", in words and a
// colour of their own, with the signing key and a way to pin it (issue 20's attack: an
// attacker-signed share link showed green "verified" with nothing pinned).
import { expect, test } from '@playwright/test';
import { encodeBundle } from '../lib/share/bundle';
import { goodLog, keyFromSeed } from '../test/support/forge';
import { DEMO_KERNEL_KEY } from '../lib/trust/known-keys';
import { NOTHING_PINNED } from './pinned';

const GREEN = 'rgb(26, 127, 55)'; // #1a7f37, verified's colour

/** A share link for receipt 1 of a log its own key signed, with its checkpoint and proof. */
async function attackerLink(): Promise<{ fragment: string; key: string }> {
  const log = goodLog(3, 3, keyFromSeed(66));
  const fragment = await encodeBundle({
    v: 1,
    role: 'tool',
    receipt: JSON.stringify({ seq: 1, receipt: log.receipts[0] }),
    checkpoint: JSON.stringify(log.cp),
    proof: JSON.stringify(log.proofs[0]),
  });
  return { fragment, key: log.key.publicHex };
}

test.describe('with nothing pinned', () => {
  test.use({ storageState: NOTHING_PINNED });

  test('the demo is "intact, signer not pinned" on the overview and the explorer, never verified, until its key is pinned', async ({ page }) => {
    test.setTimeout(240_000); // the demo is verified four times
    await page.goto('/');
    const summary = page.getByTestId('verify-summary');
    await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
    await expect(summary).toHaveAttribute('data-state', 'unpinned');
    await expect(summary).toHaveAttribute('data-ok', 'false');
    await expect(summary).not.toContainText('Nothing failed');
    await expect(page.getByTestId('count-verified')).toHaveText('0');
    await expect(page.getByTestId('count-unpinned')).toHaveText('2769');
    await expect(page.getByTestId('count-checkpoints-unpinned')).toHaveText('24 of 24');
    const notice = page.getByTestId('unpinned-notice');
    await expect(notice).toContainText(DEMO_KERNEL_KEY);
    await expect(notice).toContainText('the published demo kernel key');
    // Never verified's colour: the banner is not the green "ok" one.
    await expect(summary.locator('.banner').first()).toHaveClass(/unpinned/);
    expect(
      await summary
        .locator('.banner')
        .first()
        .evaluate((e) => getComputedStyle(e).borderTopColor),
    ).not.toBe(GREEN);

    await page.goto('/receipts');
    const row = page.locator('a.tr[data-receipt-id]').first();
    await expect(row).toHaveAttribute('data-verdict', 'unpinned', { timeout: 60_000 });
    await expect(row).toContainText('intact, signer not pinned');
    await expect(page.locator('[data-verdict="verified"]')).toHaveCount(0);
    const cell = row.locator('.verdict');
    expect(await cell.evaluate((e) => getComputedStyle(e).color)).not.toBe(GREEN);

    // The receipt page says the same, with the key.
    await row.click();
    const verdict = page.getByTestId('receipt-verdict');
    await expect(verdict).toHaveAttribute('data-state', 'unpinned', { timeout: 30_000 });
    await expect(verdict).toContainText('intact, signer not pinned');
    await expect(page.getByTestId('unpinned-notice')).toContainText(DEMO_KERNEL_KEY);

    // The compliance report counts none of them, and says why.
    await page.getByRole('link', { name: 'Compliance' }).click();
    const scope = page.getByTestId('scope-unverified');
    await expect(scope).toContainText('2,769 of the 2,769 receipts in this selection were not verified', { timeout: 60_000 });
    await expect(scope).toContainText('(2,769 intact, signer not pinned)');
    await expect(page.getByTestId('scope-count-unpinned')).toHaveText('2,769');
    await expect(page.getByTestId('scope-count-verified')).toHaveText('0');

    // Pinning is the user's act, after a confirmation; then the demo verifies.
    await page.goto('/');
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
    await page.getByTestId('pin-key').first().click();
    await expect(page.getByTestId('pin-confirm')).toContainText('compare it');
    await page.getByTestId('pin-confirm-yes').click();
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-state', 'ok', { timeout: 60_000 });
    await expect(page.getByTestId('count-verified')).toHaveText('2769');
    await expect(page.getByTestId('unpinned-notice')).toHaveCount(0);
  });

  test('an attacker-signed share link is "intact, signer not pinned", never verified', async ({ page }) => {
    const { fragment, key } = await attackerLink();
    await page.goto(`/share#${fragment}`);
    const verdict = page.getByTestId('receipt-verdict');
    await expect(verdict).toHaveAttribute('data-state', 'unpinned', { timeout: 30_000 });
    await expect(verdict).toHaveAttribute('data-verdict', 'unverified');
    await expect(verdict).toContainText('intact, signer not pinned');
    await expect(verdict).not.toContainText(/\bverified\b/);
    await expect(verdict).toHaveClass(/unpinned/);
    await expect(page.getByTestId('unpinned-notice')).toContainText(key);
  });
});

test('with the demo key pinned, the attacker-signed share link fails: its signer is not pinned', async ({ page }) => {
  const { fragment } = await attackerLink();
  await page.goto(`/share#${fragment}`);
  const verdict = page.getByTestId('receipt-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('receipt-problems')).toContainText('untrusted_signer');
});
