// Runner C of `npm run bench`: the dashboard verifies an evidence package chosen through its file
// input, in headless Chromium, timed in the page from the input's `change` event.
//
// The file input and the summary live on the overview (`/`); the receipt rows on the explorer
// (`/receipts`); both show the one session of the app's LogProvider. So each run: a fresh
// context; the demo kernel key pinned on /trust (as e2e/helpers.ts pinKey does); `/` until the
// server's own small log is verified (as e2e/helpers.ts openFiles does); then every file of the
// package into the file input. In the same task as the `change` event the page is sent to the
// explorer through the nav link (a client-side navigation: the session goes on), where the first
// row (`[data-receipt-id]`, shown once its record's own checks are done) and the end (the count
// no longer says "still verifying": the session is done) are seen by a MutationObserver. Then
// back on `/`, the summary for "N files" must be done, and its counts are read.
import { type Browser, chromium, type Page } from '@playwright/test';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_ARGS } from '../chromium-args';
import { type MemoryPeaks, watchMemory } from './memory-watch';

/** Our usual flags (scripts/chromium-args.ts), and precise heap numbers. */
const ARGS = [...CHROMIUM_ARGS, '--enable-precise-memory-info'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
}

// Runs in the page before its own scripts (a string, so no bundler helper leaks into it).
const INSTRUMENT = `(() => {
  const b = { change: null, files: null, firstRow: null, done: null };
  window.__benchC = b;
  window.addEventListener('change', (e) => {
    const t = e.target;
    if (b.change !== null || !(t instanceof HTMLInputElement) || t.getAttribute('data-testid') !== 'source-input') return;
    b.change = e.timeStamp;
    b.files = t.files ? t.files.length : 0;
    setTimeout(() => {
      const link = document.querySelector('nav a[href="/receipts"]');
      if (link) link.click();
    }, 0);
  }, true);
  const check = () => {
    if (b.change === null) return;
    if (b.firstRow === null && document.querySelector('[data-receipt-id]')) b.firstRow = performance.now();
    if (b.done === null && b.firstRow !== null) {
      const count = document.querySelector('[data-testid=explorer-count]');
      if (count && !count.textContent.includes('still verifying')) b.done = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();`;

export interface BrowserRun {
  /** change → done, ms. */
  ms: number;
  /** change → first receipt row in the DOM, ms. */
  firstRowMs: number;
  /** Largest sum of Runtime.getHeapUsage usedSize over the page and its workers, MB (2^20 bytes). */
  jsHeapPeakMb: number;
  /** Largest sum of PSS over the browser's processes, MB. */
  peakMemoryMb: number;
  /** What the page's summary says afterwards. */
  page: { receipts: number; verified: number; failed: number; unverified: number; ok: boolean; workerMs: number };
}

const int = (s: string | null | undefined) => Number(String(s ?? '').replace(/[^\d]/g, ''));

/** Every file of the package folder (it is flat). */
export function packageFiles(pkg: string): string[] {
  return readdirSync(pkg)
    .map((f) => path.join(pkg, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

/** Pins `key` on /trust, as e2e/helpers.ts pinKey does. */
async function pinKey(page: Page, key: string): Promise<void> {
  await page.goto('/trust');
  await page.getByTestId('trust-key-input').fill(key);
  await page.getByTestId('trust-key-add').click();
  await page.getByTestId('trust-list').filter({ hasText: key }).waitFor({ timeout: 10_000 });
}

export async function runBrowser(browser: Browser, o: { origin: string; pkg: string; key: string; timeoutMs: number }): Promise<BrowserRun> {
  const files = packageFiles(o.pkg);
  const label = `${files.length} file${files.length === 1 ? '' : 's'}`;
  const context = await browser.newContext({ baseURL: o.origin });
  try {
    const page = await context.newPage();
    await page.addInitScript(INSTRUMENT);
    await pinKey(page, o.key);
    await page.goto('/');
    const summary = page.getByTestId('verify-summary');
    await page.locator('[data-testid=verify-summary][data-done=true]').waitFor({ state: 'attached', timeout: 120_000 });

    // Memory while the package is verified: the JS heap of the page and of all its workers (CDP,
    // every 200 ms, summed) and the PSS of every Chromium process (every 250 ms).
    // The server's own demo log was just verified and remembered; the benchmark's log is another
    // history under the same demo key, which the page would stop on as a fork. It measures
    // verification, not continuity: forget the remembered checkpoints first.
    await page.evaluate(() => localStorage.removeItem('receipt-audit.checkpoints.v1'));
    const memory = await watchMemory(await context.newCDPSession(page));
    let b: { change: number | null; files: number | null; firstRow: number | null; done: number | null };
    let peaks: MemoryPeaks;
    try {
      await page.getByTestId('source-input').setInputFiles(files);
      // A function, not a string: the page's CSP forbids evaluating strings (Playwright would eval one).
      await page.waitForFunction(() => (window as unknown as { __benchC: { done: number | null } }).__benchC.done !== null, undefined, {
        timeout: o.timeoutMs,
        polling: 250,
      });
      b = (await page.evaluate('({ ...window.__benchC })')) as typeof b;
    } finally {
      peaks = await memory.stop();
    }
    if (b.change === null || b.firstRow === null || b.done === null) throw new Error(`the page did not record its times: ${JSON.stringify(b)}`);
    if (b.files !== files.length) throw new Error(`the file input got ${b.files} files, not ${files.length}`);

    // The summary of what the page verified, on the overview.
    await page.getByRole('navigation').getByRole('link', { name: 'Overview', exact: true }).click();
    await page.locator(`[data-testid=verify-summary][data-done=true][data-source="${label}"]`).waitFor({ state: 'attached', timeout: 60_000 });
    const failed = page.getByText(/^(Cancelled: |Could not verify )/);
    if (await failed.count()) throw new Error(`the page did not verify ${label}: ${await failed.first().innerText()}`);
    const banner = await summary.locator('.banner').innerText();
    const m = /([\d,]+) receipts and [\d,]+ checkpoints \([\d,]+ KiB\) in ([\d,]+) ms/.exec(banner);
    if (!m) throw new Error(`unexpected summary: ${banner}`);
    const counts = {
      receipts: int(m[1]),
      verified: int(await page.getByTestId('count-verified').textContent()),
      failed: int(await page.getByTestId('count-failed').textContent()),
      unverified: int(await page.getByTestId('count-unverified').textContent()),
      ok: (await summary.getAttribute('data-ok')) === 'true',
      workerMs: int(m[2]),
    };
    // The log worker and its verify pool must have been seen, or the heap is the page's alone.
    if (peaks.workers < 2) throw new Error(`the JS heap sampler saw ${peaks.workers} workers (expected the log worker and its verify workers)`);
    return {
      ms: b.done - b.change,
      firstRowMs: b.firstRow - b.change,
      jsHeapPeakMb: peaks.heapBytes / 2 ** 20,
      peakMemoryMb: peaks.pssKb / 1024,
      page: counts,
    };
  } finally {
    await context.close();
  }
}
