// One load of files through the page's file input, with the memory it costs: the page is opened
// (its server's own log verified first), the files are picked, and every `pollMs` the PSS of all
// Chromium processes and the JS heap of the page and its workers are sampled until the summary
// says the picked files are done. Shared by bench:bigfile and bench:hostile.
import type { Page } from '@playwright/test';
import { browserPssKb } from '../bench-app';
import { jsHeapSampler } from './js-heap';

export interface PageLoad {
  /** From picking the files to the summary, or to the crash; null when the time ran out. */
  seconds: number | null;
  /** Why it did not finish: 'the page crashed' or 'not done after N s'. */
  failure: string | null;
  peakPssMiB: number;
  peakHeapBytes: number;
  /** The summary's text (whitespace collapsed), once done. */
  summary: string;
}

export async function loadFilesInPage(
  page: Page,
  files: string[],
  opt: { pollMs: number; printEveryS: number; timeoutS?: number; log: (s: string) => void },
): Promise<PageLoad> {
  let crashed = false;
  page.on('crash', () => (crashed = true));
  await page.goto('/');
  const done = page.locator('[data-testid=verify-summary][data-done=true]');
  await done.waitFor({ state: 'attached', timeout: 120_000 });
  const heap = await jsHeapSampler(await page.context().newCDPSession(page));
  const started = Date.now();
  await page.getByTestId('source-input').setInputFiles(files);
  // The picked files' summary ("N files"), not the server's log verified before.
  const label = `${files.length} file`;
  let peakPssMiB = 0;
  let peakHeapBytes = 0;
  let lastPrint = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, opt.pollMs));
    const pss = browserPssKb() / 1024;
    peakPssMiB = Math.max(peakPssMiB, pss);
    const s = (Date.now() - started) / 1000;
    const end = (seconds: number | null, failure: string): PageLoad => ({ seconds, failure, peakPssMiB, peakHeapBytes, summary: '' });
    if (crashed) return end(s, 'the page crashed');
    if (opt.timeoutS !== undefined && s > opt.timeoutS) return end(null, `not done after ${opt.timeoutS} s`);
    const h = await heap.sample();
    peakHeapBytes = Math.max(peakHeapBytes, h);
    if (s - lastPrint >= opt.printEveryS) {
      lastPrint = s;
      opt.log(
        `    ${s.toFixed(0)} s: PSS ${pss.toFixed(0)} MiB (peak ${peakPssMiB.toFixed(0)}), JS heap ${(h / 2 ** 20).toFixed(0)} MiB (peak ${(peakHeapBytes / 2 ** 20).toFixed(0)}; page + ${heap.workers} workers)`,
      );
    }
    if ((await done.count()) > 0 && ((await done.first().getAttribute('data-source')) ?? '').includes(label)) {
      const seconds = (Date.now() - started) / 1000;
      peakPssMiB = Math.max(peakPssMiB, browserPssKb() / 1024);
      return { seconds, failure: null, peakPssMiB, peakHeapBytes, summary: (await done.first().innerText()).replace(/\s+/g, ' ') };
    }
  }
}
