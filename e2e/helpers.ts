import { expect, type Page } from '@playwright/test';

/**
 * Opens files through the file input and waits until the summary is the one
 * for these files (the page first opens this server's log on its own).
 */
export async function openFiles(page: Page, files: string[]): Promise<void> {
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  // Loading the page anew after files were opened cannot reopen them: then no log is open (the
  // log bar says so) and the files are chosen again here. Otherwise this server's log opens first.
  const lost = page.locator('[data-testid="log-bar"][data-state="lost"]');
  await expect(summary.and(page.locator('[data-done="true"]')).or(lost)).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('source-input').setInputFiles(files);
  const label = `${files.length} file${files.length === 1 ? '' : 's'}`;
  await expect(summary).toHaveAttribute('data-source', label);
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  // A session that ended without a report (cancelled, or the workers failed) says why here.
  const failed = page.getByText(/^(Cancelled: |Could not verify )/);
  if (await failed.count()) throw new Error(`the page did not verify ${label}: ${await failed.first().innerText()}`);
}

/**
 * Pins a kernel key on /trust, as a user does. `origin` names another server (e.g. the fleet
 * server, e2e/fleet-server.ts): pinned keys live in that origin's storage, not the default's.
 */
export async function pinKey(page: Page, key: string, origin = ''): Promise<void> {
  await page.goto(`${origin}/trust`);
  await page.getByTestId('trust-key-input').fill(key);
  await page.getByTestId('trust-key-add').click();
  await expect(page.getByTestId('trust-list')).toContainText(key);
}

/** Opens the first denied receipt of the demo log from the explorer, as a user does. */
export async function openDeniedDemoReceipt(page: Page): Promise<string> {
  await page.goto('/receipts?decision=deny&guard=budget');
  const row = page.locator('[data-receipt-id]').first();
  await expect(row).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  const id = (await row.getAttribute('data-receipt-id'))!;
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(id)}\\?file=[^&]+&line=\\d+$`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  return id;
}
