// Test-only generators of big and broken input (issue 7 §4), written straight to
// disk in pieces so the generator itself stays small in memory:
// - bigNdjson: a ~2 GiB NDJSON log of a few hundred signed receipts (forge.ts)
//   interleaved with receipts whose parameters hold a 20 MiB string and one
//   300 MiB line, all over the 16 MiB record limit;
// - garbage: seeded random bytes (AES-256-CTR keyed by the seed's SHA-256 over
//   zeros: reproducible and fast).
// Callers put the files under os.tmpdir() and remove them; never commit them.
import { createCipheriv, createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { genAReceipt, keyFromSeed } from '../forge';

const MiB = 1 << 20;

export interface BigNdjson {
  bytes: number;
  /** Ids of the signed receipts, which must all verify. */
  receiptIds: string[];
  /** 1-based lines of the records over the limit, and their lengths (without the newline). */
  oversized: { line: number; bytes: number }[];
  kernelKeyHex: string;
}

export interface BigNdjsonOptions {
  receipts?: number;
  /** Records of `oversizedMiB` each, besides the huge one. */
  oversizedRecords?: number;
  oversizedMiB?: number;
  /** The one huge line. */
  hugeMiB?: number;
}

/** Writes `{…"parameters":{"blob":"aaaa…"}…}` of about `mib` MiB (never built as one string). */
function writeHugeReceipt(fd: number, seq: number, mib: number, fill: Buffer): number {
  const head = Buffer.from(`{"id":"rcpt-huge-${seq}","timestamp":${1767225600 + seq},"action":{"parameters":{"blob":"`);
  const tail = Buffer.from('"}},"signature":"00"}');
  let written = writeSync(fd, head);
  let left = mib * MiB;
  while (left > 0) {
    const n = Math.min(left, fill.length);
    written += writeSync(fd, fill, 0, n);
    left -= n;
  }
  written += writeSync(fd, tail);
  return written;
}

/**
 * A ~2 GiB log by default: 300 receipts, 86 records of 20 MiB and one of 300 MiB, spread evenly
 * (87 over the limit: each is its own problem, under the report's 100-per-file cap).
 */
export function writeBigNdjson(file: string, o: BigNdjsonOptions = {}): BigNdjson {
  const receipts = o.receipts ?? 300;
  const oversizedRecords = o.oversizedRecords ?? 86;
  const oversizedMiB = o.oversizedMiB ?? 20;
  const hugeMiB = o.hugeMiB ?? 300;
  const key = keyFromSeed(41);
  const fill = Buffer.alloc(16 * MiB, 0x61);
  const fd = openSync(file, 'w');
  const out: BigNdjson = { bytes: 0, receiptIds: [], oversized: [], kernelKeyHex: key.publicHex };
  let line = 0;
  const hugeAt = Math.floor(oversizedRecords / 2);
  try {
    let big = 0;
    for (let i = 1; i <= receipts; i++) {
      const r = genAReceipt({ seq: i, key });
      out.bytes += writeSync(fd, JSON.stringify(r) + '\n');
      out.receiptIds.push(r.id as string);
      line++;
      // The big records between the receipts, evenly.
      while (big < oversizedRecords + 1 && (big * receipts) / (oversizedRecords + 1) < i) {
        const mib = big === hugeAt ? hugeMiB : oversizedMiB;
        const n = writeHugeReceipt(fd, 100_000 + big, mib, fill);
        out.bytes += n + writeSync(fd, '\n');
        out.oversized.push({ line: ++line, bytes: n });
        big++;
      }
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** `bytes` seeded random bytes; returns their SHA-256 hex (for a manifest). */
export function writeGarbage(file: string, bytes: number, seed = 'garbage'): string {
  const key = createHash('sha256').update(seed).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(8 * MiB);
  const sha = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    for (let left = bytes; left > 0; ) {
      const n = Math.min(left, zeros.length);
      const chunk = cipher.update(zeros.subarray(0, n));
      sha.update(chunk);
      writeSync(fd, chunk);
      left -= n;
    }
  } finally {
    closeSync(fd);
  }
  return sha.digest('hex');
}
