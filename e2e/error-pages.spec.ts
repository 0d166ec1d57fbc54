import { expect, type Page, test } from '@playwright/test';

// Journey: a page fails to render for a real reason: this browser refuses to start a Web Worker
// (as a browser policy, an extension or a broken install can). The page that needed it shows its
// error page (app/**/error.tsx): what failed, in plain words and never a stack or "[object
// Object]", "Try again", which renders it again once the worker starts, and the way home. When
// the root layout fails (its log provider starts the log worker), the app's own error page
// (app/global-error.tsx) takes the place of everything.
test.describe.configure({ timeout: 120_000 });

/**
 * From the `from`-th Web Worker the page starts (0: the first), the browser refuses to start it,
 * as a browser does: the constructor throws a SecurityError. `window.__refuseFrom` moves the line.
 */
async function refuseWorkers(page: Page, from: number): Promise<void> {
  await page.addInitScript((first) => {
    const w = window as unknown as { Worker: typeof Worker; __refuseFrom: number; __started: number };
    const Real = w.Worker;
    w.__refuseFrom = first;
    w.__started = 0;
    w.Worker = class extends Real {
      constructor(url: string | URL, options?: WorkerOptions) {
        if (w.__started++ >= w.__refuseFrom) throw new DOMException('this browser refused to start a worker', 'SecurityError');
        super(url, options);
      }
    };
  }, from);
}

async function allowWorkers(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __refuseFrom: number }).__refuseFrom = Number.POSITIVE_INFINITY;
  });
}

/** The error page says what failed and why, with nothing a person should not read. */
async function expectErrorPage(page: Page, heading: string): Promise<void> {
  const error = page.getByTestId('route-error');
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(error.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expect(error).toContainText('It failed in this browser: this browser refused to start a worker');
  // What a person reads: textContent would add the page's inline scripts.
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\[object |\bat \S+ \(|\.js:\d+|SecurityError|undefined/);
  await expect(error.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(error.getByRole('link', { name: 'Go to the overview' })).toHaveAttribute('href', '/');
}

test('the DAG view cannot start its layout worker: its error page, then Try again draws the graph', async ({ page }) => {
  // The log worker starts (the log verifies); the layout worker, the page's next, is refused.
  await refuseWorkers(page, 1);
  await page.goto('/dag');
  await expectErrorPage(page, 'The DAG view could not be shown');
  // Only the route failed: the navigation and the log bar are still there.
  await expect(page.getByRole('navigation', { name: 'Receipt Audit' })).toBeVisible();
  await expect(page.getByTestId('log-bar')).toBeVisible();

  await allowWorkers(page);
  await page.getByTestId('route-error-retry').click();
  await expect(page.getByTestId('route-error')).toHaveCount(0);
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done', { timeout: 60_000 });
});

test('the log worker cannot start: the app error page replaces the layout, and Try again opens the log', async ({ page }) => {
  await refuseWorkers(page, 0);
  await page.goto('/');
  await expectErrorPage(page, 'Receipt Audit could not be shown');
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page).toHaveTitle('Receipt Audit could not be shown');

  await allowWorkers(page);
  await page.getByTestId('route-error-retry').click();
  await expect(page.getByTestId('route-error')).toHaveCount(0);
  await expect(page.getByTestId('app-title')).toBeVisible();
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
});
