import { describe, expect, it } from 'vitest';
import { type RecordEvent, splitJsonArray, splitLines, splitRecords, wholeDocument } from './records';

const enc = new TextEncoder();

/** Feeds `text` in chunks of `size` bytes (1 splits every UTF-8 sequence). */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

async function collect(gen: AsyncIterable<RecordEvent>): Promise<RecordEvent[]> {
  const out: RecordEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

describe('splitLines (NDJSON)', () => {
  it('yields each line with its number and where its bytes are, whatever the chunk size; skips blank lines; accepts CRLF and a BOM', async () => {
    const text = '\ufeff{"a":1}\r\n\n  \n{"b":"é😀"}\n{"c":3}';
    for (const size of [1, 2, 3, 7, 1 << 20]) {
      const events = await collect(splitLines(chunked(enc.encode(text), size)));
      expect(events).toEqual([
        { kind: 'record', text: '{"a":1}', line: 1, start: 3, end: 10 },
        { kind: 'record', text: '{"b":"é😀"}', line: 4, start: 16, end: 30 },
        { kind: 'record', text: '{"c":3}', line: 5, start: 31, end: 38 },
      ]);
    }
  });

  it('reports invalid UTF-8 and oversized lines by line number, and keeps going', async () => {
    const bytes = new Uint8Array([...enc.encode('{"a":1}\n'), 0xff, 0xfe, 0x0a, ...enc.encode('x'.repeat(50) + '\n{"b":2}\n')]);
    const events = await collect(splitLines(chunked(bytes, 4), { maxRecordBytes: 20 }));
    expect(events).toEqual([
      { kind: 'record', text: '{"a":1}', line: 1, start: 0, end: 7 },
      { kind: 'error', line: 2, message: 'line is not valid UTF-8' },
      { kind: 'error', line: 3, message: 'record over 20 bytes (50 bytes): skipped without reading it whole' },
      { kind: 'record', text: '{"b":2}', line: 4, start: 62, end: 69 },
    ]);
  });
});

describe('splitJsonArray', () => {
  it('yields elements with the line they start on, across chunk boundaries and tricky strings', async () => {
    const text = '[\n {"a":"],}[{\\"\\\\"},\n  {"b":[1,{"c":2}]}, 3, "x"\n]\n';
    for (const size of [1, 5, 1 << 20]) {
      const events = await collect(splitJsonArray(chunked(enc.encode(text), size)));
      expect(events).toEqual([
        { kind: 'record', text: '{"a":"],}[{\\"\\\\"}', line: 2 },
        { kind: 'record', text: '{"b":[1,{"c":2}]}', line: 3 },
        { kind: 'record', text: '3', line: 3 },
        { kind: 'record', text: '"x"\n', line: 3 },
      ]);
    }
  });

  it('an empty array yields nothing; truncation, trailing commas and trailing garbage are errors', async () => {
    expect(await collect(splitJsonArray(chunked(enc.encode(' [ ] '), 2)))).toEqual([]);
    const truncated = await collect(splitJsonArray(chunked(enc.encode('[{"a":1},\n{"b":'), 3)));
    expect(truncated).toEqual([
      { kind: 'record', text: '{"a":1}', line: 1 },
      { kind: 'error', line: 2, message: 'the file ends in the middle of a record: the array element at line 2 never ends (the file is truncated)' },
    ]);
    expect((await collect(splitJsonArray(chunked(enc.encode('[1,]'), 1)))).at(-1)).toMatchObject({ kind: 'error', message: 'trailing comma before ]' });
    expect((await collect(splitJsonArray(chunked(enc.encode('[1] 2'), 1)))).at(-1)).toMatchObject({ kind: 'error' });
  });
});

describe('splitRecords picks the format', () => {
  it('NDJSON by extension or by a complete first line, arrays by [, else one document', async () => {
    const nd = '{"a":1}\n{"b":2}\n';
    expect((await collect(splitRecords('x.ndjson', chunked(enc.encode(nd), 3)))).length).toBe(2);
    expect((await collect(splitRecords('x.json', chunked(enc.encode(nd), 3)))).length).toBe(2);
    expect((await collect(splitRecords('x.json', chunked(enc.encode('[{"a":1},{"b":2}]'), 3)))).length).toBe(2);
    const pretty = '{\n  "a": {\n    "b": 1\n  }\n}\n';
    expect(await collect(splitRecords('x.json', chunked(enc.encode(pretty), 3)))).toEqual([{ kind: 'record', text: pretty, line: 1 }]);
  });

  it('a single document over the limit is refused with advice', async () => {
    const events = await collect(wholeDocument(chunked(enc.encode('{"a":"' + 'x'.repeat(100) + '"}'), 16), { maxRecordBytes: 50 }));
    expect(events).toEqual([{ kind: 'error', line: 1, message: expect.stringMatching(/document is over 50 bytes; use NDJSON/) }]);
  });

  // Found by records.fuzz.test.ts (shrunk counterexamples).
  it('a BOM split across the first chunks is still dropped: a JSON array read one byte at a time', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('[1,\n{"a":2}]')]);
    for (const size of [1, 2, 3, 64]) {
      expect(await collect(splitRecords('a.json', chunked(bytes, size)))).toEqual([
        { kind: 'record', text: '1', line: 1 },
        { kind: 'record', text: '{"a":2}', line: 2 },
      ]);
    }
  });

  it('a file or first line holding only a BOM is blank, not an empty record', async () => {
    for (const name of ['a.json', 'a.ndjson', 'a']) {
      expect(await collect(splitRecords(name, chunked(new Uint8Array([0xef, 0xbb, 0xbf]), 16))), name).toEqual([]);
    }
    const bomLine = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(' \r\n{"a":1}\n')]);
    expect(await collect(splitRecords('a.ndjson', chunked(bomLine, 2)))).toEqual([{ kind: 'record', text: '{"a":1}', line: 2, start: 6, end: 13 }]);
  });
});

describe('text logs (.txt, .log, .md)', () => {
  it('are one text record whatever they start with: a reply that opens with "{" is not JSON', async () => {
    const reply = '{thinking} It is Monday.\n\n---\nTool receipts:\n  shell: zc-receipt-1-x';
    for (const name of ['reply.txt', 'daemon.LOG', 'notes.md']) {
      expect(await collect(splitRecords(name, chunked(enc.encode(reply), 5))), name).toEqual([{ kind: 'record', text: reply, line: 1 }]);
    }
    // The same bytes named .json are split as JSON would be (its first line a record of its own).
    expect((await collect(splitRecords('reply.json', chunked(enc.encode(reply), 5)))).length).toBe(4);
  });

  it('past the record limit: one error saying a text log is read whole', async () => {
    const events = await collect(splitRecords('big.log', chunked(enc.encode('x'.repeat(64)), 16), { maxRecordBytes: 32 }));
    expect(events).toEqual([{ kind: 'error', line: 1, message: 'document is over 32 bytes; a text log is read whole: split it into smaller files' }]);
  });
});
