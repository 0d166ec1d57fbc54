// Is this file a text log at all? (contract §2, issue 7 "big and broken input".)
// A log is UTF-8 JSON text: it never holds C0 control bytes other than tab, LF
// and CR, and every byte is part of a valid UTF-8 sequence. A file whose first
// block is dense with anything else (random bytes, an image, a SQLite file
// given as NDJSON, UTF-16) is not a log with some bad lines but not a log: it
// becomes one problem, and the rest of it is not read, instead of millions of
// per-line problems. Density, not a single byte, decides: one binary line
// among text lines stays that line's own problem (nothing is lost).
// Attacker-controlled input: bounded work (one block), never throws.

/** Bytes inspected at the start of a file. */
export const SNIFF_BYTES = 64 * 1024;

/** A block with at least this share of non-text bytes is binary. Text JSON has none; random bytes have about half. */
const BINARY_SHARE = 0.1;

const SQLITE_MAGIC = [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00];

export interface BinaryFinding {
  /** 0-based offset of the first byte that cannot be in a text log. */
  byte: number;
  /** 1-based line of that byte. */
  line: number;
  /** A short reason for people ("binary data at byte 0 (a SQLite database)"). */
  detail: string;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there does not start one (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF). */
function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (j: number, lo = 0x80, hi = 0xbf) => j < b.length && b[j]! >= lo && b[j]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * Scans the first SNIFF_BYTES of `head` (the start of a file); returns where
 * binary data begins when the block is not text, else null. A UTF-8 sequence
 * cut by the block's end is not counted against it.
 */
export function findBinary(head: Uint8Array): BinaryFinding | null {
  const block = head.subarray(0, SNIFF_BYTES);
  if (block.length >= SQLITE_MAGIC.length && SQLITE_MAGIC.every((v, i) => block[i] === v)) {
    return { byte: 0, line: 1, detail: 'binary data at byte 0 (a SQLite database: open it as a store, not as NDJSON)' };
  }
  let bad = 0;
  let first = -1;
  let firstLine = 1;
  let line = 1;
  for (let i = 0; i < block.length; ) {
    const c = block[i]!;
    if (c === 0x0a) line++;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
      bad++;
    } else {
      const n = utf8Length(block, i);
      if (n > 0) {
        i += n;
        continue;
      }
      if (block.length - i < 4 && head.length > block.length) break; // a sequence cut by the block's end
      bad++;
    }
    if (first === -1) {
      first = i;
      firstLine = line;
    }
    i++;
  }
  if (first === -1 || bad < block.length * BINARY_SHARE) return null;
  return { byte: first, line: firstLine, detail: `binary data at byte ${first}` };
}
