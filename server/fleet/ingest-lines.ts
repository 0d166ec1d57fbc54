// Server side only (Node): how `receipt-audit ingest` (./ingest.ts) reads a package's files:
// small files as numbered lines, receipts and proofs as chunks of whole lines for the parse
// workers, and the grouping of a chunk's rows by kernel.
import { existsSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { obj } from './records';

/**
 * The non-blank lines of a small file (checkpoints, lineage: a checkpoint per hundred receipts)
 * with their 1-based numbers. Receipts and proofs go through `lineChunks` to the workers instead.
 */
export async function* lines(file: string): AsyncGenerator<[line: string, n: number]> {
  if (!existsSync(file)) return;
  const text = await readFile(file, 'utf8');
  let n = 0;
  for (const raw of text.split('\n')) {
    n++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') yield [line, n];
  }
}

/** The `kernel_key` of a package's first tool receipt: the log of a package without checkpoints. */
export async function firstSigner(file: string): Promise<string | undefined> {
  for await (const [line] of lines(file)) {
    try {
      const receipt = obj(obj(JSON.parse(line))?.receipt);
      return typeof receipt?.kernel_key === 'string' ? receipt.kernel_key : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Lines in a chunk of whole lines (the last may lack its newline at the end of a file). */
export function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

/**
 * `file` as chunks of whole lines (about 4 MiB, more when a line is longer), each in an
 * ArrayBuffer of its own so it can be handed to a parse worker without a copy. Decoding and
 * splitting happen there: on this thread they were a third of an ingest.
 */
export async function* lineChunks(file: string): AsyncGenerator<Uint8Array> {
  if (!existsSync(file)) return;
  const fh = await open(file, 'r');
  try {
    const SIZE = 4 << 20;
    let carry = Buffer.alloc(0);
    for (;;) {
      const buf = Buffer.from(new ArrayBuffer(carry.length + SIZE));
      carry.copy(buf);
      const { bytesRead } = await fh.read(buf, carry.length, SIZE, null);
      const end = carry.length + bytesRead;
      if (bytesRead === 0) {
        if (end > 0) yield buf.subarray(0, end);
        return;
      }
      const nl = buf.lastIndexOf(10, end - 1);
      if (nl < 0) {
        carry = Buffer.from(buf.subarray(0, end));
        continue;
      }
      carry = Buffer.from(buf.subarray(nl + 1, end));
      yield buf.subarray(0, nl + 1);
    }
  } finally {
    await fh.close();
  }
}
