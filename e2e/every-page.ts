import { expect, type Page } from '@playwright/test';

// Every page of the app on the demo log, as a user reaches them: the overview verifies the log
// once, the nav's links move between the views (the verified log stays open; a fresh load would
// verify it again), a receipt opens from the explorer and its share link in the same browser.
// e2e/a11y.spec.ts and e2e/responsive.spec.ts look at each page this walk reaches.
// /fleet needs a fleet server (e2e/fleet.spec.ts) and is not part of the walk.

/** The demo range the compliance report is narrowed to (UTC, typed as a user does): it spans three of the four policies. */
export const DEMO_RANGE = { since: '2026-01-01T00:40:00', until: '2026-01-01T04:00:00' } as const;

export type PageName =
  | 'overview'
  | 'receipts'
  | 'receipt'
  | 'dag'
  | 'finance'
  | 'compliance'
  | 'compliance-range'
  | 'security'
  | 'trust'
  | 'selftest'
  | 'share';

export const PAGE_NAMES: readonly PageName[] = [
  'overview',
  'receipts',
  'receipt',
  'dag',
  'finance',
  'compliance',
  'compliance-range',
  'security',
  'trust',
  'selftest',
  'share',
];

async function nav(page: Page, name: string): Promise<void> {
  // A link the page cannot bring on screen (a nav wider than a phone) fails here, not at the test's end.
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click({ timeout: 15_000 });
}

/** Narrows /compliance to DEMO_RANGE through its date inputs, as a user does, and waits for the narrowed report. */
export async function narrowComplianceToDemoRange(page: Page): Promise<void> {
  for (const [id, value] of [
    ['range-since', DEMO_RANGE.since],
    ['range-until', DEMO_RANGE.until],
  ] as const) {
    await page.getByTestId(id).fill(value);
    await page.getByTestId(id).blur();
  }
  await expect(page).toHaveURL(/\/compliance\?since=\d+&until=\d+$/);
  await expect(page.getByTestId('scope-range')).toContainText('2026-01-01 00:40:00 UTC to 2026-01-01 04:00:00 UTC, inclusive');
}

/**
 * Walks every page, calling `visit` once each page shows what it is for (the verified log's
 * views, the receipt's verdict, the self-test's result). The walk itself asserts nothing else.
 */
export async function visitEveryPage(page: Page, visit: (name: PageName) => Promise<void>): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', 'true');
  await visit('overview');

  await nav(page, 'Receipts');
  const row = page.locator('[data-receipt-id]').first();
  await expect(row).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await visit('receipts');

  await row.click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await expect(page.getByTestId('share-fragment-link')).toHaveValue(/\/share#.+/);
  const shareLink = await page.getByTestId('share-fragment-link').inputValue();
  await visit('receipt');

  await nav(page, 'DAG');
  await expect(page.getByTestId('dag-sessions')).toBeVisible({ timeout: 60_000 });
  await visit('dag');

  await nav(page, 'Finance');
  await expect(page.getByTestId('finance-view')).toBeVisible({ timeout: 60_000 });
  await visit('finance');

  await nav(page, 'Compliance');
  await expect(page.getByTestId('compliance')).toHaveAttribute('data-counted', /^[1-9]\d*$/, { timeout: 60_000 });
  await visit('compliance');
  await narrowComplianceToDemoRange(page);
  await visit('compliance-range');

  await nav(page, 'Security');
  await expect(page.getByTestId('security-view')).toBeVisible({ timeout: 60_000 });
  await visit('security');

  await nav(page, 'Trust');
  await expect(page.getByTestId('trust-list')).toBeVisible();
  await visit('trust');

  await nav(page, 'Self-test');
  await expect(page.getByTestId('selftest')).toHaveAttribute('data-done', 'true', { timeout: 90_000 });
  await visit('selftest');

  // The share link, opened in this browser (the demo key is pinned here): verified from the fragment alone.
  await page.goto(shareLink);
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await visit('share');
}
