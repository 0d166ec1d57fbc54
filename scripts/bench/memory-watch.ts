// Peak memory of a browser while something runs: the JS heap of the page and all its workers
// (jsHeapSampler, about every 200 ms) and the PSS of every Chromium process (every 250 ms).
// Used by the page benchmark and by the big-file browser test.
import type { CDPSession } from '@playwright/test';
import { browserPssKb } from '../bench-app';
import { jsHeapSampler } from './js-heap';

export interface MemoryPeaks {
  /** Largest summed JS heap seen, in bytes. */
  heapBytes: number;
  /** Most workers attached at once. */
  workers: number;
  /** Largest summed PSS of the Chromium processes, in KiB. */
  pssKb: number;
}

/** Starts sampling; `stop()` takes a last reading and returns the peaks. */
export async function watchMemory(cdp: CDPSession): Promise<{ stop(): Promise<MemoryPeaks> }> {
  const heap = await jsHeapSampler(cdp);
  const peaks: MemoryPeaks = { heapBytes: 0, workers: 0, pssKb: browserPssKb() };
  let sampling = true;
  const heapLoop = (async () => {
    while (sampling) {
      const started = Date.now();
      peaks.heapBytes = Math.max(peaks.heapBytes, await heap.sample());
      peaks.workers = Math.max(peaks.workers, heap.workers);
      await new Promise((r) => setTimeout(r, Math.max(0, 200 - (Date.now() - started))));
    }
  })();
  const pssTimer = setInterval(() => (peaks.pssKb = Math.max(peaks.pssKb, browserPssKb())), 250);
  return {
    async stop() {
      peaks.pssKb = Math.max(peaks.pssKb, browserPssKb());
      sampling = false;
      clearInterval(pssTimer);
      await heapLoop;
      return peaks;
    },
  };
}
