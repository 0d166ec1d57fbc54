// The command line's adapter for the source loader (lib/sources/load-sources.ts):
// paths as LogInputs over the file system (node-source.ts), and sql.js from its
// Node module. How their records are checked is node-checker.ts's choice.
import { readdirSync, statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { type FleetPage, splitFleetPage } from '../../lib/sources/fleet-page';
import { type LogInput, RefusedSource, type SourcePlatform } from '../../lib/sources/load-sources';
import { type InputKind, UsageError, nodeDir, nodeFile, readOptional, sniff } from './node-source';

let sql: Promise<SqlJsStatic> | null = null;

export const nodePlatform: SourcePlatform = {
  sqliteLimit: 'cli',
  sqlJs: () => (sql ??= initSqlJs()),
};

/** Every path as a LogInput, and their bytes; refuses unreadable or unrecognized input before anything is verified. */
export async function nodeInputs(paths: readonly string[]): Promise<{ inputs: LogInput[]; bytes: number }> {
  const sniffed: { p: string; kind: InputKind }[] = [];
  for (const p of paths) {
    const s = await sniff(p);
    if (s.kind === 'missing') throw new UsageError(`cannot read ${p}: ${s.reason}`);
    if (s.kind === 'unknown') throw new UsageError(`unknown format: ${p}: ${s.reason}`);
    sniffed.push({ p, kind: s.kind });
  }
  const inputs: LogInput[] = [];
  for (const [i, { p, kind }] of sniffed.entries()) inputs.push(await inputOf(p, kind, i));
  return { inputs, bytes: paths.reduce((n, p) => n + bytesOf(path.resolve(p)), 0) };
}

async function inputOf(p: string, kind: InputKind, i: number): Promise<LogInput> {
  const abs = path.resolve(p);
  if (kind === 'package') return { kind: 'package', name: p, space: `package:${i}`, dir: () => nodeDir(abs, p) };
  if (kind === 'folder') {
    // Not a package: its JSON/NDJSON files (in name order) are one log, as if given together.
    const names = (await readdir(abs)).filter((n) => /\.(ndjson|jsonl|json)$/i.test(n) && statSync(path.join(abs, n)).isFile()).sort();
    const files = names.map((n) => ({ display: path.join(p, n), open: () => nodeFile(path.join(abs, n), n) }));
    return { kind: 'files', name: p, space: `folder:${i}`, files };
  }
  if (kind === 'sqlite') {
    const db = async () => {
      const bytes = await readOptional(abs);
      if (!bytes) throw new RefusedSource('unreadable', `cannot read ${p}`);
      return bytes;
    };
    // An empty -wal is the normal state after a checkpoint: the loader applies nothing.
    const read = async () => ({ size: statSync(abs).size, db, wal: () => readOptional(`${abs}-wal`) });
    return { kind: 'store', name: p, space: `store:${i}`, file: path.basename(p), label: p, refuse: 'throw', read };
  }
  // A saved page of a fleet server (/v1/receipts/query with CLICKHOUSE_URL) is read as the
  // browser reads it: each kernel's receipts, proofs and checkpoints as a log of its own.
  const page = await fleetPageAt(abs);
  if (page) return { kind: 'fleet', name: p, space: `page:${i}`, page: async () => page };
  return { kind: 'files', name: p, space: 'files', files: [{ display: p, open: () => nodeFile(abs, path.basename(p)) }] };
}

/** The fleet page in a `.json` file (at most 64 MiB; a page holds at most 200 receipts), or null. */
async function fleetPageAt(file: string): Promise<FleetPage | null> {
  if (!file.endsWith('.json') || statSync(file).size > 64 * 2 ** 20) return null;
  const text = await readFile(file, 'utf8');
  if (!text.includes('"fleet"')) return null;
  const split = splitFleetPage(text);
  return split.ok ? split.page : null;
}

/** A file's size, or a folder's files' (as deep as nodeDir lists them). */
function bytesOf(abs: string, depth = 0): number {
  try {
    const st = statSync(abs);
    if (!st.isDirectory()) return st.size;
    if (depth > 8) return 0;
    return readdirSync(abs).reduce((n, name) => n + bytesOf(path.join(abs, name), depth + 1), 0);
  } catch {
    return 0;
  }
}
