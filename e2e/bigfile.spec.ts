// Journey: an auditor drops a 2 GiB NDJSON log (300 signed receipts among
// records far over the 16 MiB limit, one of 300 MiB), 1 GiB of random bytes
// and a 1 GiB SQLite file onto the page (issue 7 §4). Each bad input is one
// clear problem naming its file, every receipt verifies, the tab survives,
// and the memory of the page, its workers and every Chromium process stays
// under 2.5 GB. The files are generated under the temp folder and removed.
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type BigNdjson, writeBigNdjson, writeGarbage } from '../test/support/bigfile/generate';
import { keyFromSeed } from '../test/support/forge';
import { keysPinned } from './pinned';

// The big log's kernel key (test/support/bigfile/generate.ts), pinned: its receipts are verified only under it.
test.use({ storageState: keysPinned([keyFromSeed(41).publicHex]) });
import { type MemoryPeaks, watchMemory } from '../scripts/bench/memory-watch';

const MEMORY_LIMIT_BYTES = 2.5e9;

let dir: string;
let big: BigNdjson;

test.beforeAll(() => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), 'ra-e2e-bigfile-'));
  big = writeBigNdjson(join(dir, 'big.ndjson'));
  writeGarbage(join(dir, 'garbage.bin'), 2 ** 30, 'e2e-garbage');
  // A SQLite header and then 1 GiB of holes: the page must refuse it before reading it.
  const fd = openSync(join(dir, 'huge.sqlite3'), 'w');
  writeSync(fd, Buffer.from('SQLite format 3\0'));
  closeSync(fd);
  truncateSync(join(dir, 'huge.sqlite3'), 2 ** 30 + 4096);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a 2 GiB log, 1 GiB of garbage and a 1 GiB store: clear problems, every receipt verified, the tab alive, memory under 2.5 GB', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(300_000);
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });

  // Memory while the files are read: JS heap of the page and all its workers (CDP), PSS of every Chromium process.
  const memory = await watchMemory(await context.newCDPSession(page));
  let peaks: MemoryPeaks;
  const started = Date.now();
  try {
    await page.getByTestId('source-input').setInputFiles(['big.ndjson', 'garbage.bin', 'huge.sqlite3'].map((f) => join(dir, f)));
    await expect(summary).toHaveAttribute('data-source', '3 files');
    await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 240_000 });
  } finally {
    peaks = await memory.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  const { heapBytes: heapPeak, workers: workersSeen, pssKb: pssPeakKb } = peaks;
  console.log(
    `page: ${big.bytes} + ${2 ** 30} bytes in ${seconds.toFixed(1)} s; JS heap peak ${(heapPeak / 2 ** 20).toFixed(0)} MB (page + ${workersSeen} workers), Chromium PSS peak ${(pssPeakKb / 1024).toFixed(0)} MB`,
  );

  // The tab did not crash: it still answers and renders.
  expect(await page.evaluate(() => 6 * 7)).toBe(42);
  await expect(page.getByText(/^(Cancelled: |Could not verify )/)).toHaveCount(0);
  await expect(summary).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('count-verified')).toHaveText('300');
  await expect(page.getByTestId('count-failed')).toHaveText('0');

  const group = page.locator('[data-testid=problem-group][data-code=parse_error]');
  await expect(group).toHaveAttribute('data-count', String(big.oversized.length + 2));
  if (!(await group.evaluate((d) => (d as HTMLDetailsElement).open))) await group.locator('summary').click();
  const problems = page.getByTestId('problems');
  await expect(problems).toContainText(/garbage\.bin:1 garbage\.bin is not a text log: binary data at byte \d+; the rest of it was not read/);
  await expect(problems).toContainText(
    'huge.sqlite3 is 1.0 GiB: the SQLite reader (sql.js) holds a whole store in memory, so the page reads stores up to 1 GiB.',
  );
  const huge = big.oversized.find((o) => o.bytes > 300 * 2 ** 20)!;
  // Each problem reads "<file>:<line> (why no receipt links there) <message>".
  for (const o of [huge, big.oversized[0]!]) {
    await expect(problems).toContainText(
      new RegExp(`big\\.ndjson:${o.line} \\([^)]*\\) record over 16 MiB \\(${o.bytes} bytes\\): skipped without reading it whole`),
    );
  }
  await page.screenshot({ path: join(testInfo.project.outputDir, 'bigfile.png') });

  expect(heapPeak).toBeGreaterThan(0);
  expect(workersSeen).toBeGreaterThanOrEqual(2); // the log worker and at least one verify worker were measured
  expect(heapPeak).toBeLessThan(MEMORY_LIMIT_BYTES);
  expect(pssPeakKb * 1024).toBeLessThan(MEMORY_LIMIT_BYTES);
});
