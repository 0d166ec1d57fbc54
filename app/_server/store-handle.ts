// Server side only: one read-only better-sqlite3 handle per Chio receipt store path
// (chio-format.md §10), with its prepared statements. Nothing is ever written to or beside the
// store (verification.md §1: the server serves bytes):
// - A WAL-mode store with no live -wal (a copy, or a kernel that is not running) is opened
//   `immutable=1`. A plain read-only open would create empty -wal and -shm files next to it.
//   That needs SQLite URI filenames, switched on below before better-sqlite3 loads its addon
//   (the addon reads SQLITE_USE_URI once per process). If something loaded the addon first, the
//   store is opened plainly and a warning is logged once.
// - A store with a non-empty -wal (a running kernel) needs SQLite's WAL reader, which reads
//   the -shm (and creates it if missing, as any reader would).
// - `query_only` as a second guard. The handle is replaced when the file is (device, inode) and,
//   for immutable handles, whenever the file or its -wal changes size or mtime: `signature`.
import Database from 'better-sqlite3';
import { statSync, type BigIntStats } from 'node:fs';
import { pathToFileURL } from 'node:url';

process.env.SQLITE_USE_URI ??= '1';

type Db = Database.Database;
export type Statement = Database.Statement;

const MAX_HANDLES = 8;
const MAX_STATEMENTS = 256;

export interface StoreHandle {
  file: string;
  identity: string;
  /** Changes whenever the store's bytes may have changed; part of every cache key. */
  signature: string;
  mode: 'immutable' | 'wal-reader' | 'fallback';
  db: Db;
  hasLineage: boolean;
  statements: Map<string, Statement>;
}

export type StoreProblem = { code: 'store_unavailable' | 'not_a_receipt_store'; detail: string };
export type StoreOpen = ({ ok: true } & { store: StoreHandle }) | ({ ok: false } & StoreProblem);

const handles = new Map<string, StoreHandle>();
let warnedFallback = false;

function stat(file: string): BigIntStats | undefined {
  return statSync(file, { bigint: true, throwIfNoEntry: false });
}

interface StoreState {
  /** Device and inode: which file this is. */
  identity: string;
  /** Identity plus size and mtime of the file and of its -wal. */
  signature: string;
  /** A non-empty -wal: a kernel is (or was) writing, and SQLite's WAL reader is needed. */
  walLive: boolean;
}

/** The store file and its -wal as they are now, or null when the store is missing. */
function stateOf(file: string): StoreState | null {
  const db = stat(file);
  if (!db?.isFile()) return null;
  const wal = stat(`${file}-wal`);
  const identity = `${db.dev}:${db.ino}`;
  const walPart = wal ? `${wal.size}:${wal.mtimeNs}` : '-';
  return { identity, signature: `${identity}:${db.size}:${db.mtimeNs}|${walPart}`, walLive: (wal?.size ?? 0n) > 0n };
}

function connect(file: string, walLive: boolean): { db: Db; mode: StoreHandle['mode'] } {
  const options = { readonly: true, fileMustExist: true };
  if (walLive) return { db: new Database(file, options), mode: 'wal-reader' };
  try {
    return { db: new Database(`${pathToFileURL(file).href}?mode=ro&immutable=1`, options), mode: 'immutable' };
  } catch {
    // URI filenames are off: the addon was loaded before this module set SQLITE_USE_URI.
    if (!warnedFallback) {
      warnedFallback = true;
      console.warn('receipt-query: SQLite URI filenames are disabled; reading stores without immutable=1 (SQLite may create -wal/-shm files beside a WAL-mode store)');
    }
    return { db: new Database(file, options), mode: 'fallback' };
  }
}

function openHandle(file: string, state: StoreState): StoreOpen {
  const { db, mode } = connect(file, state.walLive);
  try {
    db.pragma('query_only = ON');
    if (db.pragma('encoding', { simple: true }) !== 'UTF-8') {
      db.close();
      return { ok: false, code: 'not_a_receipt_store', detail: 'the store text encoding is not UTF-8' };
    }
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (!tables.has('chio_tool_receipts')) {
      db.close();
      return { ok: false, code: 'not_a_receipt_store', detail: 'the store has no chio_tool_receipts table' };
    }
    const { identity, signature } = state;
    return { ok: true, store: { file, identity, signature, mode, db, hasLineage: tables.has('capability_lineage'), statements: new Map() } };
  } catch (e) {
    db.close();
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code)) {
      return { ok: false, code: 'not_a_receipt_store', detail: 'the store is not a readable SQLite database' };
    }
    throw e;
  }
}

function closeHandle(handle: StoreHandle): void {
  handles.delete(handle.file);
  handle.statements.clear();
  handle.db.close();
}

/**
 * The open handle for `file` (absolute path). An immutable handle is replaced whenever the file
 * or its -wal changed; a WAL reader sees changes itself and is replaced only if the file is.
 */
export function getStore(file: string): StoreOpen {
  const now = stateOf(file);
  const cached = handles.get(file);
  if (cached && now && (cached.signature === now.signature || (cached.mode !== 'immutable' && cached.identity === now.identity))) {
    cached.signature = now.signature;
    handles.delete(file);
    handles.set(file, cached);
    return { ok: true, store: cached };
  }
  if (cached) closeHandle(cached);
  if (!now) return { ok: false, code: 'store_unavailable', detail: 'the receipt store does not exist' };
  const opened = openHandle(file, now);
  if (!opened.ok) return opened;
  handles.set(file, opened.store);
  if (handles.size > MAX_HANDLES) closeHandle(handles.values().next().value!);
  return opened;
}

/** Closes every handle (tests, benchmarks, shutdown). */
export function closeAllStoreHandles(): void {
  for (const handle of [...handles.values()]) closeHandle(handle);
}

/** Whether the store at `handle.file` is no longer what `handle` was opened on (or last saw). */
export function storeChanged(handle: StoreHandle): boolean {
  return stateOf(handle.file)?.signature !== handle.signature;
}

/** The prepared statement `key` of this handle (raw rows, bigint integers), made by `sql()` once. */
export function statement(store: StoreHandle, key: string, sql: () => string): Statement {
  let st = store.statements.get(key);
  if (st) {
    store.statements.delete(key);
  } else {
    st = store.db.prepare(sql()).safeIntegers(true).raw(true);
    if (store.statements.size >= MAX_STATEMENTS) store.statements.delete(store.statements.keys().next().value!);
  }
  store.statements.set(key, st);
  return st;
}


/** The read-only handle of a store we know is there (scripts, tests); throws with the reason otherwise. */
export function openStore(file: string): Database.Database {
  const opened = getStore(file);
  if (!opened.ok) throw new Error(`cannot open ${file}: ${opened.detail}`);
  return opened.store.db;
}
