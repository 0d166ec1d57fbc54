// Server side only: one read-only better-sqlite3 handle per Chio receipt store path
// (chio-format.md §10), with its prepared statements. Nothing is ever written to or beside the
// store (verification.md §1: the server serves bytes; issue 20: not even a -shm):
// - A store with no live -wal (a copy, or a kernel that is not running) is opened `immutable=1`.
//   A plain read-only open of a WAL-mode store would create empty -wal and -shm files next to it.
//   That needs SQLite URI filenames, switched on below before better-sqlite3 loads its addon
//   (the addon reads SQLITE_USE_URI once per process).
// - A store with a non-empty -wal and its -shm beside it (a running kernel, or one that stopped
//   without checkpointing) needs SQLite's WAL reader, which reads that -shm; no file is created.
// - A store with a non-empty -wal and no -shm is a copy (a running kernel always has its -shm):
//   SQLite's WAL reader would create the -shm beside it. The store and its -wal are copied into a
//   private snapshot folder and read there (`snapshot`); the copy goes when the handle closes.
//   The same is done when URI filenames are off (something loaded the addon first) and the store
//   is in WAL mode; a warning is then logged once.
// - `query_only` as a second guard. The handle is replaced when the file is (device, inode) and,
//   for immutable and snapshot handles, whenever the file or its -wal changes size or mtime:
//   `signature`.
// Long readers (an export, which gives the event loop away between rows) take a connection of
// their own (`openReader`), so the shared handle's statements are never busy under them.
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, type BigIntStats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Lru } from '../lru';

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
  mode: 'immutable' | 'wal-reader' | 'snapshot' | 'fallback';
  db: Db;
  /** The private copy a snapshot handle reads (removed on close). */
  snapshotDir?: string;
  hasLineage: boolean;
  statements: Lru<string, Statement>;
}

export type StoreProblem = { code: 'store_unavailable' | 'not_a_receipt_store'; detail: string };
export type StoreOpen = ({ ok: true } & { store: StoreHandle }) | ({ ok: false } & StoreProblem);

/** Open handles by file, at most MAX_HANDLES: the least recently used is closed to make room. */
const handles = new Lru<string, StoreHandle>(MAX_HANDLES, closeConnection);

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
  /** The -shm is there (a running kernel's): the WAL reader uses it and creates nothing. */
  shm: boolean;
}

/** The store file and its -wal as they are now, or null when the store is missing. */
function stateOf(file: string): StoreState | null {
  const db = stat(file);
  if (!db?.isFile()) return null;
  const wal = stat(`${file}-wal`);
  const identity = `${db.dev}:${db.ino}`;
  const walPart = wal ? `${wal.size}:${wal.mtimeNs}` : '-';
  return { identity, signature: `${identity}:${db.size}:${db.mtimeNs}|${walPart}`, walLive: (wal?.size ?? 0n) > 0n, shm: existsSync(`${file}-shm`) };
}

/** Whether the file's header says WAL mode (bytes 18 and 19 are 2). */
function isWalMode(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(20);
    return readSync(fd, header, 0, 20, 0) === 20 && header[18] === 2 && header[19] === 2;
  } finally {
    closeSync(fd);
  }
}

/** Copies the store and its -wal into a private folder; SQLite's WAL reader may write its -shm there. */
function snapshotOf(file: string): { dir: string; copy: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'receipt-audit-snapshot-'));
  const copy = path.join(dir, 'store.sqlite3');
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return { dir, copy };
}

function connect(file: string, state: StoreState): { db: Db; mode: StoreHandle['mode']; snapshotDir?: string } {
  const options = { readonly: true, fileMustExist: true };
  if (state.walLive && state.shm) return { db: new Database(file, options), mode: 'wal-reader' };
  const snapshot = (): { db: Db; mode: StoreHandle['mode']; snapshotDir: string } => {
    const { dir, copy } = snapshotOf(file);
    try {
      return { db: new Database(copy, options), mode: 'snapshot', snapshotDir: dir };
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  };
  if (state.walLive) return snapshot();
  try {
    return { db: new Database(`${pathToFileURL(file).href}?mode=ro&immutable=1`, options), mode: 'immutable' };
  } catch {
    // URI filenames are off: the addon was loaded before this module set SQLITE_USE_URI.
    if (!warnedFallback) {
      warnedFallback = true;
      console.warn('receipt-query: SQLite URI filenames are disabled; WAL-mode stores are read from a private copy (immutable=1 is not available)');
    }
    // A rollback-journal store opened read-only creates nothing; a WAL-mode one would create -wal and -shm.
    return isWalMode(file) ? snapshot() : { db: new Database(file, options), mode: 'fallback' };
  }
}

function openHandle(file: string, state: StoreState): StoreOpen {
  const { db, mode, snapshotDir } = connect(file, state);
  const drop = () => {
    db.close();
    if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
  };
  try {
    db.pragma('query_only = ON');
    if (db.pragma('encoding', { simple: true }) !== 'UTF-8') {
      drop();
      return { ok: false, code: 'not_a_receipt_store', detail: 'the store text encoding is not UTF-8' };
    }
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (!tables.has('chio_tool_receipts')) {
      drop();
      return { ok: false, code: 'not_a_receipt_store', detail: 'the store has no chio_tool_receipts table' };
    }
    const { identity, signature } = state;
    return {
      ok: true,
      store: {
        file,
        identity,
        signature,
        mode,
        db,
        hasLineage: tables.has('capability_lineage'),
        statements: new Lru(MAX_STATEMENTS),
        ...(snapshotDir ? { snapshotDir } : {}),
      },
    };
  } catch (e) {
    drop();
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code)) {
      return { ok: false, code: 'not_a_receipt_store', detail: 'the store is not a readable SQLite database' };
    }
    throw e;
  }
}

function closeHandle(handle: StoreHandle): void {
  if (handles.peek(handle.file) === handle) handles.delete(handle.file);
  closeConnection(handle);
}

function closeConnection(handle: StoreHandle): void {
  handle.statements.clear();
  handle.db.close();
  if (handle.snapshotDir) rmSync(handle.snapshotDir, { recursive: true, force: true });
}

/**
 * The open handle for `file` (absolute path). An immutable handle is replaced whenever the file
 * or its -wal changed; a WAL reader sees changes itself and is replaced only if the file is.
 */
export function getStore(file: string): StoreOpen {
  const now = stateOf(file);
  const cached = handles.peek(file);
  if (cached && now && (cached.signature === now.signature || (cached.mode === 'wal-reader' && cached.identity === now.identity))) {
    cached.signature = now.signature;
    handles.get(file); // just used
    return { ok: true, store: cached };
  }
  if (cached) closeHandle(cached);
  if (!now) return { ok: false, code: 'store_unavailable', detail: 'the receipt store does not exist' };
  const opened = openHandle(file, now);
  if (!opened.ok) return opened;
  handles.set(file, opened.store);
  return opened;
}

/** Closes every handle (tests, benchmarks, shutdown). */
export function closeAllStoreHandles(): void {
  for (const handle of handles.values()) closeHandle(handle);
}

/** Whether the store at `handle.file` is no longer what `handle` was opened on (or last saw). */
export function storeChanged(handle: StoreHandle): boolean {
  return stateOf(handle.file)?.signature !== handle.signature;
}

/** The prepared statement `key` of this handle (raw rows, bigint integers), made by `sql()` once. */
export function statement(store: StoreHandle, key: string, sql: () => string): Statement {
  let st = store.statements.get(key);
  if (!st) {
    st = store.db.prepare(sql()).safeIntegers(true).raw(true);
    store.statements.set(key, st);
  }
  return st;
}

/**
 * A connection of the caller's own to the store at `file`, opened as getStore would open it
 * (nothing written beside the store), for a long reader; `close()` when done. `signature` is the
 * store's state when opened: compare it with storeSignature() afterwards, since an immutable or
 * snapshot reader does not see a store that changes under it.
 */
export function openReader(file: string): StoreOpen {
  const now = stateOf(file);
  if (!now) return { ok: false, code: 'store_unavailable', detail: 'the receipt store does not exist' };
  const opened = openHandle(file, now);
  // A WAL reader sees one state of the store for the whole read: a read transaction (its first
  // read fixes the snapshot). Immutable and snapshot readers see one state anyway.
  if (opened.ok && opened.store.mode === 'wal-reader') {
    opened.store.db.exec('BEGIN');
    opened.store.db.prepare('SELECT count(*) FROM sqlite_master').get();
  }
  return opened;
}

/**
 * Whether what a reader from openReader read may not be one state of the store: an immutable or
 * fallback reader takes no locks, so a store that changed while it was read was read torn.
 */
export function readerChanged(handle: StoreHandle): boolean {
  return handle.mode !== 'wal-reader' && handle.mode !== 'snapshot' && stateOf(handle.file)?.signature !== handle.signature;
}

/** Closes a connection from openReader (and removes its snapshot copy). */
export function closeReader(handle: StoreHandle): void {
  closeHandle(handle);
}

/** The store's state now (see StoreHandle.signature), or null when it is gone. */
export function storeSignature(file: string): string | null {
  return stateOf(file)?.signature ?? null;
}

/** The read-only handle of a store we know is there (scripts, tests); throws with the reason otherwise. */
export function openStore(file: string): Database.Database {
  const opened = getStore(file);
  if (!opened.ok) throw new Error(`cannot open ${file}: ${opened.detail}`);
  return opened.store.db;
}
