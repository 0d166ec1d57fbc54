// Server side only: where the demo store lives, and the handle type. Stores are
// opened read-only through store-handle.ts (`getStore`), which never writes
// beside them.
import type Database from 'better-sqlite3';
import path from 'node:path';

export type StoreDb = Database.Database;

/** Where the demo log lives (created by `npm start` when missing). */
export const DEMO_DIR = path.join(process.cwd(), 'data', 'demo');
export const DEMO_STORE = path.join(DEMO_DIR, 'receipts.sqlite3');
