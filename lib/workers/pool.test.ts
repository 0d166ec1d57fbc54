// The page's worker pool, in one thread: workers that run the verify worker's
// own steps (verifyBatch) on structured clones of the real messages. A file's
// records travel as byte ranges the worker reads from the file; the report
// must be exactly the single-thread one, and no batch reads far past its
// records (a 17 MiB line skipped between them is not read).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFile, type SourceFile } from '../sources/package';
import { testdataPath } from '../../test/support/testdata';
import { LogVerifier } from '../verify/log-verifier';
import { reportToJson } from '../verify/report-json';
import { inProcessWorker } from '../../test/support/in-process-worker';
import { poolChecker } from './pool';
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
