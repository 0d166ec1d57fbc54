// The CLI's thin adapter from the file system to lib/sources: folders, files
// and SQLite stores as the streams and bytes the pure core reads.
import { type Stats, createReadStream } from 'node:fs';
import { open, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SourceDir, SourceFile } from '../../lib/sources/package';
import { SNIFF_BYTES, findBinary } from '../../lib/sources/text-sniff';
import { isTextLogName } from '../../lib/sources/records';

const CHUNK = 1 << 20;

/** Usage errors and unreadable or unrecognized input: one line on stderr, exit 2. */
export class UsageError extends Error {}

export function nodeFile(absPath: string, name: string): SourceFile {
  return {
    name,
    async *stream() {
      for await (const chunk of createReadStream(absPath, { highWaterMark: CHUNK })) {
        const b = chunk as Buffer;
        yield new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      }
    },
  };
}

export function nodeDir(absPath: string, displayPath: string): SourceDir {
  return {
    path: displayPath,
    async list() {
      const out: string[] = [];
      const walk = async (rel: string, depth: number): Promise<void> => {
        if (depth > 8) return;
        for (const entry of await readdir(path.join(absPath, rel), { withFileTypes: true })) {
          const child = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory()) await walk(child, depth + 1);
          else if (entry.isFile()) out.push(child);
        }
      };
      await walk('', 0);
      return out.sort();
    },
    open(relativePath) {
      return nodeFile(path.join(absPath, ...relativePath.split('/')), relativePath);
    },
  };
}

export type InputKind = 'package' | 'folder' | 'sqlite' | 'json' | 'unknown' | 'missing';

const SQLITE_MAGIC = 'SQLite format 3\0';

/** What a path holds, from its type and first bytes. */
export async function sniff(p: string): Promise<{ kind: InputKind; reason?: string }> {
  let st: Stats;
  try {
    st = await stat(p);
  } catch (e) {
    return { kind: 'missing', reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : String((e as Error).message) };
  }
  if (st.isDirectory()) {
    const names = await readdir(p);
    if (names.includes('manifest.json') || names.includes('receipts.ndjson')) return { kind: 'package' };
    // Loose records kept together (a receipt, its checkpoint and its proof): one log of files.
    if (names.some((n) => /\.(ndjson|jsonl|json)$/i.test(n))) return { kind: 'folder' };
    return { kind: 'unknown', reason: 'folder has no manifest.json, receipts.ndjson or JSON/NDJSON files' };
  }
  if (!st.isFile()) return { kind: 'unknown', reason: 'not a regular file' };
  const fh = await open(p, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES + 4);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const block = head.subarray(0, bytesRead);
    if (block.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) return { kind: 'sqlite' };
    const binary = findBinary(new Uint8Array(block.buffer, block.byteOffset, block.byteLength));
    if (binary) return { kind: 'unknown', reason: `not a text log: ${binary.detail} (line ${binary.line})` };
    const bytes = block.subarray(0, 64);
    let i = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    while (i < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[i]!)) i++;
    if (i < bytes.length && (bytes[i] === 0x7b || bytes[i] === 0x5b)) return { kind: 'json' };
    // A reply, transcript or terminal log as text: read for ZeroClaw receipts.
    if (isTextLogName(p) && bytesRead > 0) return { kind: 'json' };
    if (bytesRead === 0 || i === bytes.length) {
      if (/\.(ndjson|jsonl|json)$/i.test(p)) return { kind: 'json' };
      return { kind: 'unknown', reason: 'the file is empty' };
    }
    return { kind: 'unknown', reason: 'neither NDJSON/JSON (which starts with { or [), a text log (.txt, .log, .md) nor a SQLite receipt store' };
  } finally {
    await fh.close();
  }
}

export async function readOptional(p: string): Promise<Uint8Array | undefined> {
  try {
    const b = await readFile(p);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch {
    return undefined;
  }
}
