// Fuzz: splitRecords on arbitrary bytes cut into arbitrary chunks (empty ones, and cuts inside
// UTF-8 sequences, CRLF pairs and escapes, and chunks overwritten once read, as the browser
// frees them) yields exactly what one chunk yields; never throws;
// every event has a line inside the file; NDJSON lines match a naive whole-file split, and a
// JSON array's elements match JSON.parse of the whole file. Through loadFile, every problem
// names its file and line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { jsonText } from '../../test/support/json-arbitraries';
import { LogVerifier } from '../verify/log-verifier';
import { loadFile } from './package';
import { formatLimit, isUtf8 } from './record-bytes';
import { type RecordEvent, splitRecords } from './records';
import { SNIFF_BYTES, findBinary } from './text-sniff';

const enc = new TextEncoder();

async function* chunksAt(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(from, Math.max(from, cut)); // may be empty
    from = Math.max(from, cut);
  }
  yield bytes.subarray(from);
}

/**
 * Chunks that, like the browser's (lib/workers/browser-sources.ts frees each one once the next is
 * asked for), do not outlive their turn: each is overwritten with junk as soon as the next one is
 * asked for, so a reader that kept a chunk past its turn would see the junk.
 */
async function* reusedChunksAt(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(Math.max(1, bytes.length));
  for await (const chunk of chunksAt(bytes, cuts)) {
    buffer.fill(0x7b); // `{`: junk that changes how any kept bytes would parse
    buffer.set(chunk);
    yield buffer.subarray(0, chunk.length);
  }
}

async function collect(gen: AsyncIterable<RecordEvent>): Promise<RecordEvent[]> {
  const out: RecordEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

/**
 * The last line of a file cut inside a record: it opens `{` or `[` (after blanks) and its
 * brackets, outside strings, never balance. A byte-level walk, written apart from records.ts.
 */
function opensAndNeverCloses(b: Uint8Array): boolean {
  const first = b.findIndex((c) => c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a);
  if (first === -1 || (b[first] !== 0x7b && b[first] !== 0x5b)) return false;
  let depth = 0;
  let inString = false;
  for (let i = first; i < b.length; i++) {
    const c = b[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return inString || depth > 0;
}

const lineCount = (b: Uint8Array) => 1 + b.reduce((n, c) => n + (c === 0x0a ? 1 : 0), 0);

/** Pieces a log is made of: JSON documents, separators, multi-byte and invalid UTF-8, a BOM. */
const piece = fc.oneof(
  { weight: 4, arbitrary: jsonText.map(({ text }) => enc.encode(text)) },
  fc.constantFrom(...['\n', '\r\n', '\n\n', ',', '[', ']', ' ', '"', '\\', '{', '}', 'é', '😀', '\u2028', '\ufeff'].map((s) => enc.encode(s))),
  fc.constantFrom(Uint8Array.of(0xff), Uint8Array.of(0xc3), Uint8Array.of(0xf0, 0x9f), Uint8Array.of(0xed, 0xa0, 0x80), Uint8Array.of(0)),
  fc.uint8Array({ maxLength: 12 }),
);
const logBytes = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  fc.array(piece, { maxLength: 12 }).map((ps) => Uint8Array.from(ps.flatMap((p) => [...p]))),
  // NDJSON and arrays of real-looking documents, sometimes cut short.
  fc.tuple(fc.array(jsonText, { maxLength: 6 }), fc.constantFrom('\n', '\r\n', ','), fc.boolean(), fc.nat()).map(([docs, sep, array, cut]) => {
    const texts = docs.map((d) => d.text.replace(/\n/g, sep === ',' ? '\n' : ' '));
    const text = array || sep === ',' ? `[${texts.join(',')}]` : texts.join(sep);
    const bytes = enc.encode(text);
    return cut % 3 === 0 ? bytes.subarray(0, cut % (bytes.length + 1)) : bytes;
  }),
);
/** Sometimes with a BOM in front (which readers drop, wherever the first chunk ends). */
const logBytesMaybeBom = fc.tuple(logBytes, fc.boolean()).map(([b, bom]) => (bom ? Uint8Array.from([0xef, 0xbb, 0xbf, ...b]) : b));
const name = fc.constantFrom('a.json', 'a.ndjson', 'a.JSONL', 'a', 'receipts.ndjson');
const maxRecordBytes = fc.constantFrom(16, 64, 1 << 20);
// Cuts anywhere, and often in the first bytes (inside a BOM, the first UTF-8 sequence, the first CRLF).
const cutsFor = (b: Uint8Array) => fc.array(fc.oneof(fc.nat(b.length), fc.nat(Math.min(4, b.length))), { maxLength: 12 });
const input = fc
  .tuple(logBytesMaybeBom, name, maxRecordBytes)
  .chain(([bytes, n, max]) => fc.tuple(fc.constant(bytes), fc.constant(n), fc.constant(max), cutsFor(bytes)));

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

describe('isUtf8', () => {
  it('says exactly what a fatal TextDecoder says, without decoding', () => {
    // Bytes around every boundary of the UTF-8 table (lead bytes, continuation ranges, overlongs, surrogates, past U+10FFFF).
    const edgy = fc.constantFrom(0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x41);
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.array(edgy, { maxLength: 12 }).map((a) => Uint8Array.from(a)),
      fc.string({ unit: 'binary' }).map((s) => enc.encode(s)),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        let decodes = true;
        try {
          strict.decode(b);
        } catch {
          decodes = false;
        }
        expect(isUtf8(b)).toBe(decodes);
      }),
      fuzzParams(20_000),
    );
  });
});

describe('splitRecords', () => {
  it(
    'yields the same events whatever the chunking, each with a line inside the file',
    async () => {
      await fc.assert(
        fc.asyncProperty(input, async ([bytes, n, max, cuts]) => {
          const whole = await collect(splitRecords(n, chunksAt(bytes, []), { maxRecordBytes: max }));
          const chunked = await collect(splitRecords(n, chunksAt(bytes, cuts), { maxRecordBytes: max }));
          expect(chunked).toEqual(whole);
          const reused = await collect(splitRecords(n, reusedChunksAt(bytes, cuts), { maxRecordBytes: max }));
          expect(reused).toEqual(whole);
          // Without the texts: the same events, and the texts are what the bytes at start/end decode to.
          const textless = await collect(splitRecords(n, reusedChunksAt(bytes, cuts), { maxRecordBytes: max, textless: true }));
          expect(textless).toEqual(whole.map((e) => (e.kind === 'record' && e.start !== undefined ? { ...e, text: '' } : e)));
          for (const e of whole) if (e.kind === 'record' && e.start !== undefined) expect(strict.decode(bytes.subarray(e.start, e.end))).toBe(e.text);
          const lines = lineCount(bytes);
          for (const e of whole) {
            expect(Number.isInteger(e.line) && e.line >= 1 && e.line <= lines, `line ${e.line} of ${lines}`).toBe(true);
            if (e.kind === 'error') expect(e.message).not.toBe('');
          }
        }),
        fuzzParams(1500, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );

  it(
    'NDJSON: the records and errors of a naive whole-file split by line',
    async () => {
      const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
      const naive = (bytes: Uint8Array, max: number): RecordEvent[] => {
        const out: RecordEvent[] = [];
        let start = 0;
        for (let line = 1; start <= bytes.length; line++) {
          let end = bytes.indexOf(0x0a, start);
          if (end === -1) end = bytes.length;
          let b = bytes.subarray(start, end);
          let at = start;
          start = end + 1;
          if (b.length > max) {
            out.push({ kind: 'error', line, message: `record over ${formatLimit(max)} (${b.length} bytes): skipped without reading it whole` });
            continue;
          }
          const size = b.length;
          if (b[b.length - 1] === 0x0d) b = b.subarray(0, -1);
          if (line === 1 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
            b = b.subarray(3);
            at += 3;
          }
          if (end === bytes.length && opensAndNeverCloses(b)) {
            out.push({
              kind: 'error',
              line,
              message: `the file ends in the middle of a record: line ${line} stops after ${size} bytes (the file is truncated)`,
            });
            continue;
          }
          if (b.every((c) => c === 0x20 || c === 0x09 || c === 0x0d)) continue; // blank
          try {
            // Where its bytes are: the browser's verify workers read them there again.
            out.push({ kind: 'record', line, text: decoder.decode(b), start: at, end: at + b.length });
          } catch {
            out.push({ kind: 'error', line, message: 'line is not valid UTF-8' });
          }
        }
        return out;
      };
      // A file that is not text at all is one problem (text-sniff.ts decides; its own tests say how).
      const expected = (bytes: Uint8Array, max: number): RecordEvent[] => {
        const binary = findBinary(bytes.subarray(0, SNIFF_BYTES + 4));
        return binary
          ? [{ kind: 'error', line: binary.line, message: `is not a text log: ${binary.detail}; the rest of it was not read`, whole: true }]
          : naive(bytes, max);
      };
      await fc.assert(
        fc.asyncProperty(input, async ([bytes, , max, cuts]) => {
          expect(await collect(splitRecords('a.ndjson', chunksAt(bytes, cuts), { maxRecordBytes: max }))).toEqual(expected(bytes, max));
        }),
        fuzzParams(1500, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a JSON array: one record per element, each parsing to that element',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(jsonText, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), async (docs, cuts) => {
          const text = `[${docs.map((d) => d.text).join(',')}]`;
          const bytes = enc.encode(text);
          const events = await collect(
            splitRecords(
              'a.json',
              chunksAt(
                bytes,
                cuts.map((c) => c % (bytes.length + 1)),
              ),
            ),
          );
          expect(events.every((e) => e.kind === 'record')).toBe(true);
          expect(events.map((e) => JSON.parse((e as { text: string }).text) as unknown)).toEqual(JSON.parse(text));
        }),
        fuzzParams(800, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );
});

describe('loadFile', () => {
  it(
    'never throws, and every problem it reports names the file and a line',
    async () => {
      await fc.assert(
        fc.asyncProperty(input, async ([bytes, n, , cuts]) => {
          const v = new LogVerifier();
          await loadFile({ name: n, stream: () => chunksAt(bytes, cuts) }, v, 's');
          const report = await v.finish();
          for (const p of report.problems) {
            if (p.code !== 'parse_error' && p.code !== 'duplicate_key') continue; // whole-log findings have no single line
            expect(p.file).toBe(n);
            expect(Number.isInteger(p.line) && p.line! >= 1 && p.line! <= lineCount(bytes), `line ${p.line}`).toBe(true);
          }
        }),
        fuzzParams(800, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );
});
