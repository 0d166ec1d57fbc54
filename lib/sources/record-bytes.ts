// The byte-level pieces of record splitting (./records.ts, contract §2): strict UTF-8 checks and
// decoding, the leading BOM, joining chunks, whether a byte is inside a JSON string, and blank or
// unfinished records. The bytes are attacker-controlled; nothing here throws on them. Pure.
import { concatBytes } from '../bytes/hex';

// One decoder for every record: a TextDecoder is costly to create, and decode() without
// `stream` starts afresh each call (also after a failed one).
const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function hasBom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/**
 * Whether `b` is well-formed UTF-8, exactly as a fatal TextDecoder decides (WHATWG: no overlong
 * forms, no surrogates, nothing past U+10FFFF, no truncated sequence), without making a string.
 */
export function isUtf8(b: Uint8Array): boolean {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + need >= n) return false;
    const first = b[i + 1]!;
    if (first < lo || first > hi) return false;
    for (let k = 2; k <= need; k++) {
      const cont = b[i + k]!;
      if (cont < 0x80 || cont > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}

/** Decodes one record's bytes (a leading BOM already dropped). */
export function decodeRecord(bytes: Uint8Array): string | null {
  try {
    return DECODER.decode(bytes);
  } catch {
    return null;
  }
}

/** The record limit for people: "16 MiB", or bytes when it is not a whole number of MiB. */
export function formatLimit(max: number): string {
  return max % (1 << 20) === 0 ? `${max / (1 << 20)} MiB` : `${max} bytes`;
}

/** The stream without a leading UTF-8 BOM, also when the BOM is split across the first chunks. */
export async function* withoutBom(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  let head: Uint8Array = new Uint8Array(0);
  while (head.length < 3) {
    const next = await it.next();
    if (next.done) break;
    head = concatBytes(head, next.value); // a copy: the chunk may be freed once the next is read
  }
  if (hasBom(head)) head = head.subarray(3);
  if (head.length > 0) yield head;
  for (;;) {
    const next = await it.next();
    if (next.done) return;
    yield next.value;
  }
}

export function concat(parts: Uint8Array[], total: number): Uint8Array {
  return parts.length === 1 && parts[0]!.length === total ? parts[0]! : concatBytes(...parts);
}

/** Whether a byte stream is inside a JSON string (UTF-8 continuation bytes never look like `"` or `\\`). */
export class StringState {
  inString = false;
  private escaped = false;
  /** Feeds one byte; true when it belongs to a string (its quotes included), so it is not structure. */
  step(c: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === 0x5c) this.escaped = true;
      else if (c === 0x22) this.inString = false;
      return true;
    }
    if (c === 0x22) {
      this.inString = true;
      return true;
    }
    return false;
  }
}

export function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

/**
 * True when `bytes` opens a JSON object or array that never closes: the last
 * line of a file cut in the middle of a record. Scalars and garbage are left to
 * the parser's own message.
 */
export function isUnfinished(bytes: Uint8Array): boolean {
  const str = new StringState();
  let depth = 0;
  let opened = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (!opened) {
      if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) continue;
      if (c !== 0x7b && c !== 0x5b) return false;
      opened = true;
    }
    if (str.step(c)) continue;
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return opened && (str.inString || depth > 0);
}
