import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openDeniedDemoReceipt } from './helpers';

// Journey: a colleague opens a self-contained share link, re-verifies it and moves around the app.
// The receipt travels in the URL fragment, which a browser never sends: the server's own request
// log (RECEIPT_AUDIT_REQUEST_LOG, one JSON line {"method","url"} per request, written by the
// server) must hold the /share request and never the fragment.
const REQUEST_LOG = process.env.RECEIPT_AUDIT_REQUEST_LOG;

function loggedUrls(): string[] {
  if (!REQUEST_LOG || !existsSync(REQUEST_LOG)) return [];
  return readFileSync(REQUEST_LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { url: string }).url);
}

test('a share link fragment never reaches the server', async ({ page, browser }) => {
  // playwright.config.ts always sets the log's path; without it this test would prove nothing.
  expect(REQUEST_LOG, 'RECEIPT_AUDIT_REQUEST_LOG (set by playwright.config.ts)').toBeTruthy();
  test.setTimeout(120_000);
  await openDeniedDemoReceipt(page);
  const link = await page.getByTestId('share-fragment-link').inputValue();
  const fragment = link.split('#')[1]!;
  expect(fragment.length).toBeGreaterThan(200);
  // Pieces from all along the fragment: a server seeing any part of it would log one of them.
  const pieces = Array.from({ length: 8 }, (_, i) =>
    fragment.slice(Math.floor((i * (fragment.length - 24)) / 7), Math.floor((i * (fragment.length - 24)) / 7) + 24),
  );

  const colleague = await browser.newContext();
  const other = await colleague.newPage();
  await other.goto(link);
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 30_000 });
  // Around the app and back: in-app links, history, a reload of the share page itself.
  await other.getByRole('link', { name: 'Trust' }).click();
  await expect(other).toHaveURL(/\/trust$/);
  await other.goBack();
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 30_000 });
  await other.reload();
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 30_000 });
  await other.getByRole('link', { name: 'Overview' }).click();
  await expect(other.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await colleague.close();

  // The log is written as requests arrive; the share page's own request must be in it.
  await expect.poll(() => loggedUrls().filter((u) => u === '/share' || u.startsWith('/share?')).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  const urls = loggedUrls();
  const leaked = urls.filter((u) => u.includes('#') || pieces.some((p) => u.includes(p)));
  expect(leaked, `${leaked.length} of ${urls.length} logged requests carry the fragment`).toEqual([]);
});
