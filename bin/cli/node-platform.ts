// The command line's adapter for the source loader (lib/sources/load-sources.ts)
// and the verify pool: paths as LogInputs over the file system (node-source.ts),
// sql.js from its Node module, and worker threads. Small inputs are checked
// inline; from POOL_FROM_BYTES on, by a pool of worker threads, one per core.
import { readdirSync, statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { type FleetPage, splitFleetPage } from '../../lib/sources/fleet-page';
import { type LogInput, RefusedSource, type SourcePlatform } from '../../lib/sources/load-sources';
import { type CheckerFactory, inlineChecker } from '../../lib/verify/record-checker';
import { type WorkerLike, poolChecker } from '../../lib/workers/pool';
import type { VerifyResponse } from '../../lib/workers/protocol';
import { type InputKind, UsageError, nodeDir, nodeFile, readOptional, sniff } from './node-source';

let sql: Promise<SqlJsStatic> | null = null;

export const nodePlatform: SourcePlatform = {
  sqliteLimit: 'cli',
  sqlJs: () => (sql ??= initSqlJs()),
};

/**
 * Inputs from this many bytes on are checked in worker threads. Below it, starting the threads
 * (each loads the verifier's TypeScript) costs more than they save: measured in bin/cli/README.md.
 */
export const POOL_FROM_BYTES = 4 * 2 ** 20;

/**
 * How records are checked: `workers` 0 inline, N by N worker threads; by default inline below
 * POOL_FROM_BYTES of input, else one thread per core. RECEIPT_AUDIT_WORKERS sets it for a run.
 */
export function nodeChecker(inputBytes: number, workers: number | undefined = workersFromEnv()): CheckerFactory {
  const n = workers ?? (inputBytes >= POOL_FROM_BYTES ? Math.max(1, os.availableParallelism()) : 0);
  return n > 0 ? poolChecker(spawnThread, { workers: n }) : inlineChecker();
}

function workersFromEnv(): number | undefined {
  const v = process.env.RECEIPT_AUDIT_WORKERS;
  if (v === undefined || v === '') return undefined;
  if (!/^[0-9]{1,3}$/.test(v)) throw new UsageError(`RECEIPT_AUDIT_WORKERS must be a number of worker threads (0: none), not ${JSON.stringify(v)}`);
  return Number(v);
}

/** A verify worker thread (verify-thread.mjs) as the pool's WorkerLike. */
function spawnThread(): WorkerLike {
  const thread = new Worker(new URL('./verify-thread.mjs', import.meta.url));
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage: (m) => thread.postMessage(m),
    terminate: () => void thread.terminate(),
  };
  thread.on('message', (data: VerifyResponse) => worker.onmessage?.({ data } as MessageEvent<VerifyResponse>));
  thread.on('error', (err) => worker.onerror?.({ message: err.message } as ErrorEvent));
  // The pool ignores this once it terminated its workers itself.
  thread.on('exit', (code) => worker.onerror?.({ message: `it exited (code ${code})` } as ErrorEvent));
  return worker;
}

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
