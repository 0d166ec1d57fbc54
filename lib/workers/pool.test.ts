// The page's worker pool, in one thread: workers that run the verify worker's
// own steps (verifyBatch) on structured clones of the real messages. A file's
// records travel as byte ranges the worker reads from the file; the report
// must be exactly the single-thread one, and no batch reads far past its
// records (a 17 MiB line skipped between them is not read). And with real
// worker threads that die: the whole pool fails, saying a verify worker did.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorker } from '../../bin/cli/node-worker';
import { loadFile, roleForFileName, type SourceFile } from '../sources/package';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from '../verify/log-verifier';
import type { RecordChecker } from '../verify/record-checker';
import { ORDER_STRIDE, type RecordOutput } from '../verify/record-output';
import { reportToJson } from '../verify/report-json';
import { inProcessWorker } from '../../test/support/in-process-worker';
import { type WorkerLike, poolChecker } from './pool';
import type { WireBatch } from './wire';

const MiB = 1024 * 1024;

/** Records how far each batch's byte ranges span. */
function spanOf(spans: number[]) {
  return (batch: WireBatch) => {
    const ranges = batch.ranges ?? [];
    const starts = ranges.filter((_, i) => i % 2 === 0 && ranges[i]! >= 0);
    const ends = ranges.filter((_, i) => i % 2 === 1 && ranges[i]! >= 0);
    if (starts.length > 0) spans.push(Math.max(...ends) - Math.min(...starts));
  };
}

describe('the pool strategy (VerifyPool)', () => {
  it('a file read by byte ranges: the single-thread report, and batches that stop at a skipped 17 MiB line', async () => {
    const lines = readFileSync(testdataPath('corpus/tampered-field/receipts.ndjson'), 'utf8').split('\n');
    const half = Math.floor(lines.length / 2);
    const text = ['\ufeff' + lines.slice(0, half).join('\r\n'), `{"blob":"${'a'.repeat(17 * MiB)}"}`, ...lines.slice(half)].join('\n');
    const bytes = new TextEncoder().encode(text);
    const blob = new Blob([bytes]);
    const file = (withBlob: boolean): SourceFile => ({
      name: 'receipts.ndjson',
      async *stream() {
        for (let at = 0; at < bytes.length; at += 100_000) yield bytes.slice(at, at + 100_000);
      },
      ...(withBlob ? { blob } : {}),
    });

    const single = new LogVerifier();
    await loadFile(file(false), single, 'files');
    const expected = reportToJson(await single.finish());

    const spans: number[] = [];
    const pool = new LogVerifier({ checker: poolChecker(() => inProcessWorker({ onBatch: spanOf(spans) }), { workers: 3, batchSize: 40 }) });
    await loadFile(file(true), pool, 'files');
    const report = await pool.finish();
    expect(report.summary.receipts).toBeGreaterThan(200);
    expect(reportToJson(report)).toBe(expected);
    expect(spans.length).toBeGreaterThan(5);
    expect(Math.max(...spans)).toBeLessThan(MiB);
  });
});

describe('the pool when a verify worker dies', () => {
  const threads: Worker[] = [];
  afterEach(async () => {
    await Promise.all(threads.splice(0).map((t) => t.terminate()));
  });

  /** A real worker thread running `code` (plain JavaScript), as the pool's WorkerLike. */
  function thread(code: string): WorkerLike {
    const t = new Worker(code, { eval: true });
    threads.push(t);
    return nodeWorker(t);
  }
  /** Takes `init`, then throws (an uncaught error: the thread dies) on its first batch. */
  const BREAKS_ON_BATCH = `
    require('node:worker_threads').parentPort.on('message', (m) => {
      if (m.type === 'batch') throw new Error('the verify worker broke on purpose');
    });`;

  const name = 'receipts.ndjson';
  const lines = readFileSync(testdataPath(`corpus/tampered-field/${name}`), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);

  function pool(spawn: () => WorkerLike): { pool: RecordChecker; delivered: RecordOutput[] } {
    const delivered: RecordOutput[] = [];
    const context = { trust: TrustStore.empty(), views: false, families: [], deliver: (out: RecordOutput) => void delivered.push(out) };
    return { pool: poolChecker(spawn, { workers: 2, batchSize: 10 })(context), delivered };
  }

  /** Checks every line, then drains: the error that stopped it, or null. */
  async function run(p: RecordChecker): Promise<Error | null> {
    try {
      for (const [i, text] of lines.entries()) await p.check(text, { file: name, line: i + 1, role: roleForFileName(name), space: 'files' }, i * ORDER_STRIDE);
      await p.drain();
      return null;
    } catch (e) {
      return e as Error;
    }
  }

  it('one of two workers dies on its batch: the whole pool fails, naming a verify worker and its error', async () => {
    let n = 0;
    const { pool: p } = pool(() => (n++ === 0 ? inProcessWorker() : thread(BREAKS_ON_BATCH)));
    const error = await run(p);
    expect(error?.message).toBe('a verify worker failed: the verify worker broke on purpose');
    expect(p.broken).toBe(true);
    await expect(p.check(lines[0]!, { file: name, line: 1, role: roleForFileName(name), space: 'files' }, 0)).rejects.toBe(error);
    p.close();
  });

  it('a worker whose script does not load fails the pool before any batch', async () => {
    const { pool: p, delivered } = pool(() => thread('this is not JavaScript'));
    await new Promise<void>((resolve) => threads[1]!.once('exit', () => resolve()));
    expect(p.broken).toBe(true);
    const error = await run(p);
    expect(error?.message).toMatch(/^a verify worker failed: .*(SyntaxError|Unexpected)/);
    expect(delivered).toEqual([]);
    p.close();
  });

  it('close() with batches on their way: drain fails as cancelled, and their answers are not delivered', async () => {
    const { pool: p, delivered } = pool(() => inProcessWorker());
    for (const [i, text] of lines.slice(0, 30).entries())
      await p.check(text, { file: name, line: i + 1, role: roleForFileName(name), space: 'files' }, i * ORDER_STRIDE);
    p.close(); // the in-process workers answer all the same: their answers must be dropped
    await expect(p.drain()).rejects.toThrow('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    expect(delivered).toEqual([]);
    expect(p.recordsChecked).toBe(0);
  });
});
