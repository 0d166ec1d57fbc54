// Server side only: opens a Chio SQLite receipt store (chio-format.md §10) with
// better-sqlite3, read-only. The server never writes the store; it serves
// bytes, and the page verifies them.
import Database from 'better-sqlite3';
import path from 'node:path';

export type StoreDb = Database.Database;

/** Where the demo log lives (created by `npm start` when missing). */
export const DEMO_DIR = path.join(process.cwd(), 'data', 'demo');
export const DEMO_STORE = path.join(DEMO_DIR, 'receipts.sqlite3');

/** The store the API serves: `RECEIPT_DB`, or the demo store. */
export function storePath(): string {
  return process.env.RECEIPT_DB ? path.resolve(process.env.RECEIPT_DB) : DEMO_STORE;
}

/**
 * Opens `file` read-only (`query_only` as a second guard). A store in WAL mode
 * needs its -shm beside it, as a running Chio kernel leaves it; to read a copy
 * without writing anything next to it, open a copy in a scratch folder.
 */
export function openStoreReadOnly(file: string): StoreDb {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  return db;
}
