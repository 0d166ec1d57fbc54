// A file read by a reader worker (read-file.ts), here in one thread on
// structured clones of the real messages: the same events and hash as reading
// it in place, read errors with their name, a reader stopped when the log
// worker stops, and never more than a few batches ahead.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ReadJob, type SourceFile, readRecords } from '../sources/package';
import type { RecordEvent } from '../sources/records';
import { testdataPath } from '../../test/support/testdata';
import { type ReadPort, type ReadRequest, type ReadResponse, type ReadWorker, readInWorker, serveRead } from './read-file';

const MiB = 1024 * 1024;

/**
 * A reader worker in this thread: every message crosses as a structured clone, asynchronously
 * (`cloneRequests` false: the log worker's requests cross as they are, for a stand-in Blob).
 */
function inProcessReader(seen: { terminated: boolean; ahead: number; maxAhead: number }, cloneRequests = true): ReadWorker {
  const worker: ReadPort<ReadResponse, ReadRequest> = {
    onmessage: null,
    postMessage(m, transfer) {
      if (seen.terminated) return;
      const data = structuredClone(m, { transfer: transfer ?? [] });
      if (m.type === 'events') seen.maxAhead = Math.max(seen.maxAhead, ++seen.ahead);
      setTimeout(() => reader.onmessage?.({ data } as MessageEvent<ReadResponse>));
    },
  };
  const reader: ReadWorker = {
    onmessage: null,
    onerror: null,
    postMessage(m) {
      if (m.type === 'ack') seen.ahead--;
      const data = cloneRequests ? structuredClone(m) : m;
      setTimeout(() => worker.onmessage?.({ data } as MessageEvent<ReadRequest>));
    },
    terminate() {
      seen.terminated = true;
    },
  };
  serveRead(worker);
  return reader;
}

async function drain(run: AsyncGenerator<RecordEvent, unknown>): Promise<{ events: RecordEvent[]; result: unknown }> {
  const events: RecordEvent[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

const bytesFile = (bytes: Uint8Array): SourceFile => ({
  name: 'receipts.ndjson',
  async *stream() {
    for (let at = 0; at < bytes.length; at += 65_536) yield bytes.slice(at, at + 65_536);
  },
});

describe('reading a file in a reader worker', () => {
  // Real receipts with a BOM, CRLF, a line over the record limit, a line that is not UTF-8, blank lines and a cut last line.
  const lines = readFileSync(testdataPath('corpus/tampered-field/receipts.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const text = ['\ufeff' + lines.slice(0, 100).join('\r\n'), `{"blob":"${'a'.repeat(17 * MiB)}"}`, '', ...lines.slice(100), lines[0]!.slice(0, 50)].join('\n');
  const encoded = new TextEncoder().encode(text);
  const bytes = new Uint8Array(encoded.length + 3);
  bytes.set(encoded.subarray(0, 2000));
  bytes.set([0x0a, 0xff, 0x0a], 2000); // a line holding a byte that is never UTF-8
  bytes.set(encoded.subarray(2000), 2003);
  const jobs: ReadJob[] = [
    { split: true, textless: true, hash: true },
    { split: true, textless: false, hash: true },
    { split: false, textless: false, hash: true },
  ];

  it.each(jobs)('gives the events and hash of reading in place (%o)', async (job) => {
    const expected = await drain(readRecords(bytesFile(bytes), job));
    if (job.split) {
      expect(expected.events.length).toBeGreaterThan(lines.length);
      expect(expected.events.filter((e) => e.kind === 'error').length).toBe(3);
    }
    const seen = { terminated: false, ahead: 0, maxAhead: 0 };
    let counted = 0;
    const got = await drain(
      readInWorker(
        () => inProcessReader(seen),
        new Blob([bytes]),
        'receipts.ndjson',
        job,
        (n) => (counted += n),
      ),
    );
    expect(got).toEqual(expected);
    expect(counted).toBe(bytes.length);
    expect(seen.terminated).toBe(true);
  });

  it('stays a few batches ahead of a slow log worker, and stops when the log worker stops', async () => {
    const many = new TextEncoder().encode(`${lines.join('\n')}\n`.repeat(200));
    const seen = { terminated: false, ahead: 0, maxAhead: 0 };
    const run = readInWorker(
      () => inProcessReader(seen),
      new Blob([many]),
      'receipts.ndjson',
      jobs[0]!,
      () => {},
    );
    for (let i = 0; i < 9000; i++) {
      const next = await run.next();
      expect(next.done).toBe(false);
      if (i % 1000 === 0) await new Promise((r) => setTimeout(r, 20)); // the reader runs ahead meanwhile
    }
    expect(seen.maxAhead).toBeGreaterThan(1);
    expect(seen.maxAhead).toBeLessThanOrEqual(4);
    await run.return({ sha256: '', bytes: 0 });
    expect(seen.terminated).toBe(true);
  });

  it('a read that fails ends with the error, its name kept', async () => {
    const unreadable = {
      stream: () =>
        new ReadableStream({
          pull(c) {
            c.error(Object.assign(new Error('the file could not be read'), { name: 'NotReadableError' }));
          },
        }),
    } as unknown as Blob;
    const seen = { terminated: false, ahead: 0, maxAhead: 0 };
    const err = await drain(
      readInWorker(
        () => inProcessReader(seen, false),
        unreadable,
        'receipts.ndjson',
        jobs[0]!,
        () => {},
      ),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('NotReadableError');
    expect((err as Error).message).toBe('the file could not be read');
    expect(seen.terminated).toBe(true);
  });

  it.each([
    ['out of memory', 'the file reader failed: out of memory'],
    ['', 'the file reader failed: its script did not load'],
  ])('a reader that dies (error event %j) ends the read with an Error saying so, after the events it sent', async (detail, message) => {
    const many = new TextEncoder().encode(`${lines.join('\n')}\n`.repeat(50));
    const seen = { terminated: false, ahead: 0, maxAhead: 0 };
    let reader: ReadWorker | null = null;
    const run = readInWorker(
      () => (reader = inProcessReader(seen)),
      new Blob([many]),
      'receipts.ndjson',
      jobs[0]!,
      () => {},
    );
    for (let i = 0; i < 100; i++) expect((await run.next()).done).toBe(false);
    // The browser's error event on the worker object, as a dying reader worker fires it.
    const event = { message: detail, prevented: false, preventDefault: () => void (event.prevented = true) };
    reader!.onerror?.(event as unknown as ErrorEvent);
    expect(event.prevented).toBe(true);
    let after = 0;
    const err = await (async () => {
      for (;;) if (!(await run.next()).done) after++;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('Error');
    expect((err as Error).message).toBe(message);
    expect(after).toBeGreaterThan(0); // the rest of the batches already received came first
    expect(seen.terminated).toBe(true);
  });
});
