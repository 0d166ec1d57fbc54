// Streaming record splitting (contract §2, issue "streaming"): NDJSON by line,
// a top-level JSON array by element, or one JSON document. Bytes arrive in
// chunks and each record is decoded on its own, so a large log never needs the
// whole file as one string. Attacker-controlled bytes: invalid UTF-8, an
// oversized record or a truncated array become located errors, and every other
// record still comes out. A file that is not text at all (findBinary) is one
// problem and is not read further.

import { StringState, concat, decodeRecord, formatLimit, hasBom, isBlank, isUnfinished, isUtf8, withoutBom } from './record-bytes';
import { SNIFF_BYTES, findBinary } from './text-sniff';

export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** `whole`: the error is about the file as a whole (its message reads after the file's name) and no record follows. */
export type RecordEvent =
  /** `start`/`end`: where the text's UTF-8 bytes are in the stream (NDJSON lines; absent where a record is not one run of bytes). */
  { kind: 'record'; text: string; line: number; start?: number; end?: number } | { kind: 'error'; line: number; message: string; whole?: true };

export interface SplitOptions {
  maxRecordBytes?: number;
  /**
   * NDJSON records come with `text` empty, their bytes checked as UTF-8 but not decoded: for a
   * reader that reads them again at `start`/`end` (the browser's verify workers). In Chromium a
   * decoded string keeps its bytes outside the JS heap until a full collection, so decoding every
   * record of a 2 GB log only to drop the text held hundreds of MB. Other formats decode as usual.
   */
  textless?: boolean;
  /** Filled in as bytes are held for a record (tests prove the bound: one record, never a whole line past the limit). */
  stats?: SplitStats;
}

export interface SplitStats {
  maxBufferedBytes: number;
}

function noteBuffered(options: SplitOptions, bytes: number): void {
  if (options.stats && bytes > options.stats.maxBufferedBytes) options.stats.maxBufferedBytes = bytes;
}

const NL = 0x0a;

const oversizedMessage = (what: string, max: number, size: number) => `${what} over ${formatLimit(max)} (${size} bytes): skipped without reading it whole`;

/** NDJSON: one record per line; blank lines are skipped; `\r\n` is accepted. */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>, options: SplitOptions = {}): AsyncGenerator<RecordEvent> {
  const max = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  let parts: Uint8Array[] = [];
  let size = 0;
  let oversized = false;
  let line = 1;
  /** Where the current line's first byte is in the stream. */
  let lineAt = 0;
  // Past the limit a line's bytes are counted and dropped, never held: memory is one record at most.
  const finishLine = function* (terminated: boolean): Generator<RecordEvent> {
    const current = line++;
    if (oversized) {
      yield { kind: 'error', line: current, message: oversizedMessage('record', max, size) };
    } else if (size > 0) {
      let bytes = concat(parts, size);
      let start = lineAt;
      if (bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
      // A BOM is dropped before the blank test: a line holding only a BOM is blank, not an empty record.
      if (current === 1 && hasBom(bytes)) {
        bytes = bytes.subarray(3);
        start += 3;
      }
      if (!terminated && isUnfinished(bytes)) {
        yield {
          kind: 'error',
          line: current,
          message: `the file ends in the middle of a record: line ${current} stops after ${size} bytes (the file is truncated)`,
        };
      } else if (!isBlank(bytes)) {
        const text = options.textless ? (isUtf8(bytes) ? '' : null) : decodeRecord(bytes);
        if (text === null) yield { kind: 'error', line: current, message: 'line is not valid UTF-8' };
        else yield { kind: 'record', text, line: current, start, end: start + bytes.length };
      }
    }
    lineAt += size + 1;
    parts = [];
    size = 0;
    oversized = false;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!oversized && end > start) {
        if (size + (end - start) > max) {
          oversized = true;
          parts = [];
        } else {
          parts.push(chunk.subarray(start, end));
          noteBuffered(options, size + (end - start));
        }
      }
      size += end - start;
      if (nl === -1) break;
      yield* finishLine(true);
      start = nl + 1;
    }
    // A line continuing into the next chunk: its bytes from this one are copied, as the chunk may be freed.
    if (parts.length > 0 && parts[parts.length - 1]!.buffer === chunk.buffer) parts[parts.length - 1] = parts[parts.length - 1]!.slice();
  }
  if (size > 0 || oversized) yield* finishLine(false);
}

/**
 * A top-level JSON array, element by element, tracking strings and nesting at
 * the byte level (UTF-8 continuation bytes never look like ASCII syntax).
 */
export async function* splitJsonArray(chunks: AsyncIterable<Uint8Array>, options: SplitOptions = {}): AsyncGenerator<RecordEvent> {
  const max = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  let state: 'before' | 'between' | 'element' | 'after' = 'before';
  let depth = 0;
  const str = new StringState();
  let line = 1;
  let elementLine = 1;
  let parts: Uint8Array[] = [];
  let size = 0;
  let oversized = false;
  let sawElement = false;
  const emit = (): RecordEvent | null => {
    const current = elementLine;
    const total = size;
    const over = oversized;
    const bytes = over ? new Uint8Array(0) : concat(parts, size);
    parts = [];
    size = 0;
    oversized = false;
    if (over) return { kind: 'error', line: current, message: oversizedMessage('array element', max, total) };
    if (isBlank(bytes)) return { kind: 'error', line: current, message: 'empty array element' };
    const text = decodeRecord(bytes);
    return text === null ? { kind: 'error', line: current, message: 'array element is not valid UTF-8' } : { kind: 'record', text, line: current };
  };
  for await (const chunk of withoutBom(chunks)) {
    let segStart = state === 'element' ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === NL) line++;
      if (state === 'element') {
        if (str.step(c)) continue;
        if (c === 0x7b || c === 0x5b) depth++;
        else if ((c === 0x7d || c === 0x5d) && depth > 0) depth--;
        else if (depth === 0 && (c === 0x2c || c === 0x7d || c === 0x5d)) {
          // A top-level `,` ends the element; a top-level `]` also closes the array.
          append(chunk, segStart, i);
          segStart = -1;
          const ev = emit();
          if (ev) yield ev;
          state = c === 0x2c ? 'between' : 'after';
        }
        continue;
      }
      const ws = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
      if (ws) continue;
      if (state === 'before') {
        if (c !== 0x5b) {
          yield { kind: 'error', line, message: 'expected a JSON array' };
          return;
        }
        state = 'between';
        continue;
      }
      if (state === 'between') {
        if (c === 0x5d && !sawElement) {
          state = 'after';
          continue;
        }
        sawElement = true;
        if (c === 0x5d) {
          yield { kind: 'error', line, message: 'trailing comma before ]' };
          state = 'after';
          continue;
        }
        state = 'element';
        elementLine = line;
        depth = 0;
        segStart = i;
        i--; // re-scan this byte in element state
        continue;
      }
      // state === 'after'
      yield { kind: 'error', line, message: 'unexpected content after the closing ]' };
      return;
    }
    if (state === 'element' && segStart !== -1) append(chunk, segStart, chunk.length, true);
  }
  const end: string = state;
  if (end === 'element') {
    yield {
      kind: 'error',
      line: elementLine,
      message: `the file ends in the middle of a record: the array element at line ${elementLine} never ends (the file is truncated)`,
    };
  } else if (end !== 'after') {
    yield { kind: 'error', line, message: end === 'before' ? 'the file is empty' : 'the file ends before the closing ]: it is truncated' };
  }

  /** `keep`: the element goes on into the next chunk, so its bytes are copied (the chunk may be freed). */
  function append(chunk: Uint8Array, from: number, to: number, keep = false): void {
    if (from < 0 || to <= from || oversized) {
      if (from >= 0 && to > from) size += to - from;
      return;
    }
    if (size + (to - from) > max) {
      oversized = true;
      parts = [];
    } else {
      parts.push(keep ? chunk.slice(from, to) : chunk.subarray(from, to));
      noteBuffered(options, size + (to - from));
    }
    size += to - from;
  }
}

/** One JSON document, or one text file (`text`): the whole file is one record, up to the record limit. */
export async function* wholeDocument(chunks: AsyncIterable<Uint8Array>, options: SplitOptions = {}, textLog = false): AsyncGenerator<RecordEvent> {
  const max = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  const hint = textLog ? 'a text log is read whole: split it into smaller files' : 'use NDJSON or a JSON array for large logs';
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > max) {
      yield { kind: 'error', line: 1, message: `document is over ${formatLimit(max)}; ${hint}` };
      return;
    }
    parts.push(chunk.slice()); // kept past the next chunk: a copy
    noteBuffered(options, size);
  }
  let bytes = concat(parts, size);
  if (hasBom(bytes)) bytes = bytes.subarray(3);
  if (isBlank(bytes)) return;
  const text = decodeRecord(bytes);
  if (text === null) yield { kind: 'error', line: 1, message: 'file is not valid UTF-8' };
  else yield { kind: 'record', text, line: 1 };
}

/** A text file (a reply, a transcript, a terminal log) by its name: read whole, as one text record (role `text`). */
export function isTextLogName(name: string): boolean {
  return /\.(txt|log|md)$/i.test(name);
}

/**
 * Picks the splitter from the file name and its first bytes: `.txt`/`.log`/`.md`
 * are one text document; `.ndjson`/`.jsonl` are line-delimited; otherwise `[` starts a streamed array, a first line that
 * is a complete JSON object means NDJSON, and anything else is one document.
 * A file whose first block is not text (findBinary) is one `whole` error.
 */
export async function* splitRecords(name: string, chunks: AsyncIterable<Uint8Array>, options: SplitOptions = {}): AsyncGenerator<RecordEvent> {
  const lower = name.toLowerCase();
  const ndjson = lower.endsWith('.ndjson') || lower.endsWith('.jsonl');
  const text = isTextLogName(name);
  const it = chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let firstByte = -1;
  let headHasNewline = false;
  let headSize = 0;
  // Peek the sniffed block and, to choose a splitter by content, the first
  // non-blank byte and the end of the first line (bounded).
  while (headSize < 1 << 20 && !(headSize >= SNIFF_BYTES && (ndjson || headHasNewline))) {
    const next = await it.next();
    if (next.done) break;
    head.push(next.value.slice()); // replayed after more chunks are read: a copy
    headSize += next.value.length;
    noteBuffered(options, headSize);
    if (firstByte === -1) {
      for (const b of next.value) {
        if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue;
        firstByte = b;
        break;
      }
    }
    if (firstByte !== -1 && next.value.includes(NL)) headHasNewline = true;
  }
  const binary = findBinary(prefix(head, SNIFF_BYTES + 4));
  if (binary) {
    yield { kind: 'error', line: binary.line, message: `is not a text log: ${binary.detail}; the rest of it was not read`, whole: true };
    await it.return?.();
    return;
  }
  const replay: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      yield* head;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
  if (text) {
    yield* wholeDocument(replay, options, true);
  } else if (ndjson) {
    yield* splitLines(replay, options);
  } else if (firstByte === 0x5b) {
    yield* splitJsonArray(replay, options);
  } else if (firstByte === 0x7b && headHasNewline && firstLineIsComplete(head)) {
    yield* splitLines(replay, options);
  } else {
    yield* wholeDocument(replay, options);
  }
}

/** The first `n` bytes of `chunks` (fewer when they hold fewer). */
function prefix(chunks: Uint8Array[], n: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const c of chunks) {
    if (size >= n) break;
    const part = c.subarray(0, n - size);
    parts.push(part);
    size += part.length;
  }
  return concat(parts, size);
}

/** True when the first non-blank line is a balanced `{…}` with content after it (NDJSON). */
function firstLineIsComplete(head: Uint8Array[]): boolean {
  const bytes = concat(
    head,
    head.reduce((n, c) => n + c.length, 0),
  );
  const nl = bytes.indexOf(NL);
  if (nl === -1) return false;
  let depth = 0;
  let started = false;
  const str = new StringState();
  for (let i = 0; i < nl; i++) {
    const c = bytes[i]!;
    if (str.step(c)) continue;
    if (c === 0x7b) {
      depth++;
      started = true;
    } else if (c === 0x7d) depth--;
  }
  return started && depth === 0 && !str.inString;
}
