import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { CSP_PROBE as PROBE, cspViolations } from './server-logs';

// The Content-Security-Policy (proxy.ts, server/security-headers.ts) must let every part
// of the app work — Next's nonce'd scripts, the verify and layout Web Workers, sql.js and
// hash-wasm WebAssembly, ECharts, the DAG — while blocking what an injected script would do.
// Any violation reported by any page is a bug: the walk below finds none in the server's
// report log, and none in the console. The positive control shows the log does fill up when
// something is blocked, so the first test can fail.

test.describe.configure({ timeout: 180_000 });

function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) seen.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (/Content.Security.Policy/i.test(e.message)) seen.push(`pageerror: ${e.message}`);
  });
  return seen;
}

/** Moves the mouse across a chart, so ECharts draws its tooltips and hover states. */
async function hoverChart(page: Page, testId: string): Promise<void> {
  const canvas = page.getByTestId(testId).locator('canvas').first();
  await expect(canvas).toBeVisible({ timeout: 60_000 });
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  for (const f of [0.3, 0.5, 0.7]) await page.mouse.move(box.x + box.width * f, box.y + box.height * 0.8);
}

async function nav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Receipt Audit' }).getByRole('link', { name, exact: true }).click();
}

test('every page works under the CSP with no violation reported or logged', async ({ page, browser }) => {
  const consoleCsp = watchConsole(page);

  // Overview: the server's demo log, read by the log worker (sql.js WebAssembly) and verified
  // by the verify workers (hash-wasm WebAssembly, WebCrypto).
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 90_000 });
  await expect(page.getByTestId('count-verified')).not.toHaveText('0');
  await expect(page.getByTestId('count-failed')).toHaveText('0');

  // Receipts, then one receipt's page and its share link.
  await nav(page, 'Receipts');
  const row = page.locator('[data-receipt-id]').first();
  await expect(row).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await row.click();
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await expect(page.getByTestId('merkle-path')).toHaveAttribute('data-matches', 'true', { timeout: 30_000 });
  const shareLink = page.getByTestId('share-fragment-link');
  await expect(shareLink).toHaveValue(/\/share#.+/);
  const fragmentLink = await shareLink.inputValue();

  // Security and Finance: ECharts, hovered for tooltips.
  await nav(page, 'Security');
  await expect(page.getByTestId('security-view')).toBeVisible({ timeout: 60_000 });
  await hoverChart(page, 'denials-chart');
  await nav(page, 'Finance');
  await expect(page.getByTestId('finance-view')).toBeVisible({ timeout: 60_000 });
  await hoverChart(page, 'finance-spend-chart');

  // Compliance: the checkpoint timeline chart.
  await nav(page, 'Compliance');
  await expect(page.getByTestId('compliance')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compliance').locator('canvas').first()).toBeVisible({ timeout: 60_000 });

  // DAG: a session laid out by ELK in the layout worker, drawn by xyflow.
  await nav(page, 'DAG');
  const session = page.getByTestId('dag-session').first();
  await expect(session).toBeVisible({ timeout: 60_000 });
  await session.click();
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('dag-node').first()).toBeVisible();

  await nav(page, 'Trust');
  await expect(page.getByTestId('trust-key-input')).toBeVisible();

  // Self-test: every vector in both engines, in the page.
  await nav(page, 'Self-test');
  const selftest = page.getByTestId('selftest');
  await expect(selftest).toHaveAttribute('data-done', 'true', { timeout: 90_000 });
  await expect(selftest).toHaveAttribute('data-all-match', 'true');

  // A fresh page load of every route (each one server-rendered with its own nonce).
  for (const path of ['/receipts', '/security', '/finance', '/compliance', '/dag', '/trust', '/selftest']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('navigation', { name: 'Receipt Audit' })).toBeVisible();
  }

  // The share link in a fresh browser: it re-verifies the receipt from the fragment alone.
  const context = await browser.newContext();
  const other = await context.newPage();
  const otherCsp = watchConsole(other);
  await other.goto(fragmentLink);
  await expect(other.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await context.close();

  // report-uri posts are sent as the violation happens; give the last ones a moment to land.
  await page.goto('/trust');
  await page.waitForLoadState('networkidle');
  const violations = cspViolations().filter((v) => !v.sample.includes(PROBE));
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  expect([...consoleCsp, ...otherCsp]).toEqual([]);
});

// The positive control plays a stored injection that reached the HTML: the real /trust response,
// with its real CSP header, gets an inline script without the nonce, an inline event handler,
// and a script that does carry the nonce but calls eval and Function. (Code run through
// page.evaluate cannot serve: DevTools evaluation is exempt from the page's CSP.)
test('positive control: injected inline script, handler, eval and <style> are blocked and reported', async ({ page }) => {
  const id = `${PROBE}${randomUUID().slice(0, 8)}`; // reports sample 40 characters: keep it short
  const consoleCsp = watchConsole(page);
  await page.route(
    (url) => url.pathname === '/trust',
    async (route) => {
      const response = await route.fetch();
      const csp = response.headers()['content-security-policy'] ?? '';
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, csp).toBeTruthy();
      const injected = [
        `<script>/*${id}*/window.__inlineRan = true;</script>`,
        `<img src="data:," onerror="/*${id}*/window.__handlerRan = true">`,
        `<script nonce="${nonce}">` +
          `try { window.__evalResult = eval("/*${id}*/ 'ran'"); } catch (e) { window.__evalResult = e.name; }` +
          `try { window.__functionResult = Function("/*${id}*/ return 'ran'")(); } catch (e) { window.__functionResult = e.name; }` +
          `window.__nonceRan = true;</script>`,
        `<style>/*${id}*/ body { display: none !important; }</style>`,
      ].join('');
      const body = (await response.text()).replace('<body>', `<body>${injected}`);
      await route.fulfill({ response, body });
    },
  );
  await page.goto('/trust');
  await expect(page.getByTestId('trust-key-input')).toBeVisible();
  const outcome = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return { nonceRan: w.__nonceRan, inlineRan: w.__inlineRan, handlerRan: w.__handlerRan, evalResult: w.__evalResult, functionResult: w.__functionResult };
  });
  // The nonce'd script ran (so the probes ran), and everything else was refused.
  expect(outcome).toEqual({ nonceRan: true, inlineRan: undefined, handlerRan: undefined, evalResult: 'EvalError', functionResult: 'EvalError' });

  const reported = () =>
    cspViolations()
      .filter((v) => v.sample.includes(id))
      .map((v) => `${v.effectiveDirective} ${v.blockedUri} ${v.disposition}`);
  // Chromium sends one report for eval and Function (same directive, same document).
  const expected = ['script-src eval enforce', 'script-src-attr inline enforce', 'script-src-elem inline enforce', 'style-src-elem inline enforce'];
  await expect.poll(() => [...new Set(reported())].sort(), { timeout: 15_000 }).toEqual(expected);
  // The console listener sees CSP messages too (so its silence in the walk means something).
  expect(consoleCsp.length).toBeGreaterThan(0);
});
