// Big and broken input through the real splitter (issue 7 §4): records far over
// the limit, a file of random bytes, a file cut in the middle of a record. The
// sizes are real (hundreds of MiB pass through splitRecords), but the bytes are
// streamed from a generator that reuses one chunk, so the test never holds them.
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, type RecordEvent, type SplitStats, splitRecords } from './records';
import { findBinary } from './text-sniff';

const enc = new TextEncoder();
const MiB = 1 << 20;

async function collect(gen: AsyncIterable<RecordEvent>): Promise<RecordEvent[]> {
  const out: RecordEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

/** A line of `bytes` bytes with its newline: `{"p":"aaaa…"}\n`, streamed in 1 MiB chunks of one reused buffer (stricter than the browser, which frees each chunk once read). */
async function* hugeLine(bytes: number): AsyncGenerator<Uint8Array> {
  const fill = new Uint8Array(MiB).fill(0x61);
  yield enc.encode('{"p":"');
  let left = bytes - 9;
  while (left > 0) {
    const n = Math.min(left, MiB);
    yield fill.subarray(0, n);
    left -= n;
  }
  yield enc.encode('"}\n');
}

/** Deterministic bytes (xorshift32), `total` of them in chunks of `chunk`; counts what was pulled. */
function seededBytes(seed: number, total: number, chunk: number, pulled: { bytes: number }): AsyncIterable<Uint8Array> {
  let x = seed >>> 0 || 1;
  return {
    async *[Symbol.asyncIterator]() {
      for (let done = 0; done < total; done += chunk) {
        const b = new Uint8Array(Math.min(chunk, total - done));
        for (let i = 0; i < b.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          b[i] = x & 0xff;
        }
        pulled.bytes += b.length;
        yield b;
      }
    },
  };
}

describe('records over the limit are skipped while streaming, never held whole', () => {
  it('a 17 MiB and a 300 MiB line between good records: one error each, by line; at most one record buffered', async () => {
    const stats: SplitStats = { maxBufferedBytes: 0 };
    async function* log(): AsyncGenerator<Uint8Array> {
      yield enc.encode('{"a":1}\n');
      yield* hugeLine(17 * MiB);
      yield enc.encode('{"a":2}\n');
      yield* hugeLine(300 * MiB);
      yield enc.encode('{"a":3}\n');
    }
    const events = await collect(splitRecords('big.ndjson', log(), { stats }));
    expect(events).toEqual([
      { kind: 'record', text: '{"a":1}', line: 1, start: 0, end: 7 },
      { kind: 'error', line: 2, message: `record over 16 MiB (${17 * MiB - 1} bytes): skipped without reading it whole` },
      { kind: 'record', text: '{"a":2}', line: 3, start: 8 + 17 * MiB, end: 15 + 17 * MiB },
      { kind: 'error', line: 4, message: `record over 16 MiB (${300 * MiB - 1} bytes): skipped without reading it whole` },
      { kind: 'record', text: '{"a":3}', line: 5, start: 16 + 317 * MiB, end: 23 + 317 * MiB },
    ]);
    // What the splitter held at any moment: up to the limit while a line might still fit, then nothing.
    expect(stats.maxBufferedBytes).toBeLessThanOrEqual(MAX_RECORD_BYTES);
  });

  it('the same inside a JSON array: an element over the limit is one error and the next element still comes out', async () => {
    const stats: SplitStats = { maxBufferedBytes: 0 };
    async function* log(): AsyncGenerator<Uint8Array> {
      yield enc.encode('[{"a":1},\n');
      const line = hugeLine(40 * MiB);
      for await (const c of line) yield c[c.length - 1] === 0x0a ? c.subarray(0, c.length - 1) : c;
      yield enc.encode(',\n{"a":2}]\n');
    }
    const events = await collect(splitRecords('big.json', log(), { stats }));
    expect(events.map((e) => (e.kind === 'record' ? e.text : `${e.line}: ${e.message}`))).toEqual([
      '{"a":1}',
      `2: array element over 16 MiB (${40 * MiB - 1} bytes): skipped without reading it whole`,
      '{"a":2}',
    ]);
    expect(stats.maxBufferedBytes).toBeLessThanOrEqual(MAX_RECORD_BYTES + MiB);
  });
});

describe('a file that is not text is one problem, and is not read further', () => {
  for (const name of ['garbage.ndjson', 'garbage.json', 'garbage.bin']) {
    it(`${name}: 64 MiB of seeded random bytes → one "not a text log" error; little of it is read`, async () => {
      const pulled = { bytes: 0 };
      const events = await collect(splitRecords(name, seededBytes(7, 64 * MiB, MiB, pulled)));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        kind: 'error',
        whole: true,
        message: expect.stringMatching(/^is not a text log: binary data at byte \d+; the rest of it was not read$/),
      });
      expect(pulled.bytes).toBeLessThanOrEqual(2 * MiB);
    });
  }

  it('findBinary: text, one bad line among text and a UTF-8 sequence cut by the block are text; random, UTF-16 and SQLite are not', () => {
    const text = enc.encode('{"a":"é😀"}\n'.repeat(10_000));
    expect(findBinary(text)).toBeNull();
    const oneBadLine = new Uint8Array([...enc.encode('{"a":1}\n'.repeat(200)), 0, 1, 2, 0xff, 0xfe, 0x0a, ...enc.encode('{"a":1}\n'.repeat(200))]);
    expect(findBinary(oneBadLine)).toBeNull();
    // A 4-byte emoji cut by the end of the sniffed block (the file goes on).
    const cut = new Uint8Array(64 * 1024 + 10).fill(0x61);
    cut.set([0xf0, 0x9f, 0x98, 0x80], 64 * 1024 - 2);
    expect(findBinary(cut)).toBeNull();
    const random = new Uint8Array(4096);
    let x = 99;
    for (let i = 0; i < random.length; i++) random[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    expect(findBinary(random)).toMatchObject({ detail: expect.stringMatching(/^binary data at byte \d+$/) });
    const utf16 = new Uint8Array(Array.from('{"a":1}\n'.repeat(50)).flatMap((c) => [c.charCodeAt(0), 0]));
    expect(findBinary(utf16)).toMatchObject({ byte: 1, line: 1 });
    const sqlite = enc.encode('SQLite format 3\0' + 'x'.repeat(100));
    expect(findBinary(sqlite)?.detail).toMatch(/a SQLite database/);
    // The line of the first binary byte.
    expect(findBinary(new Uint8Array([...enc.encode('{"a":1}\n{"b":2}\n'), ...new Uint8Array(100)]))).toMatchObject({ byte: 16, line: 3 });
  });
});

describe('a file cut in the middle of a record', () => {
  it('NDJSON: the last line that opens and never closes says the file ends in the middle of a record', async () => {
    for (const tail of ['{"seq":3,"receipt":{"id":"r', '{"a":"x\\"}', '[1,2']) {
      const events = await collect(
        splitRecords(
          'cut.ndjson',
          (async function* () {
            yield enc.encode(`{"a":1}\n{"a":2}\n${tail}`);
          })(),
        ),
      );
      expect(events.slice(0, 2).map((e) => e.kind)).toEqual(['record', 'record']);
      expect(events[2]).toEqual({
        kind: 'error',
        line: 3,
        message: `the file ends in the middle of a record: line 3 stops after ${enc.encode(tail).length} bytes (the file is truncated)`,
      });
    }
  });

  it('a complete last line without a newline is a record; a line that is not JSON is left to the parser', async () => {
    const run = async (text: string) =>
      collect(
        splitRecords(
          'x.ndjson',
          (async function* () {
            yield enc.encode(text);
          })(),
        ),
      );
    expect(await run('{"a":1}\n{"b":"}"}')).toEqual([
      { kind: 'record', text: '{"a":1}', line: 1, start: 0, end: 7 },
      { kind: 'record', text: '{"b":"}"}', line: 2, start: 8, end: 17 },
    ]);
    expect((await run('{"a":1}\nnot json')).at(-1)).toEqual({ kind: 'record', text: 'not json', line: 2, start: 8, end: 16 });
    // A record cut in the middle but followed by a newline is an ordinary bad line (the parser says why).
    expect((await run('{"a":\n{"b":2}\n')).map((e) => e.kind)).toEqual(['record', 'record']);
  });
});
