// Issue 20: serving a copy of a store must not write beside it. A copy of a running kernel's
// WAL-mode store (its -wal copied too, never checkpointed) made SQLite's WAL reader create a
// -shm next to the copy. Each store here is served over real HTTP on 127.0.0.1 (query, export,
// package); afterwards its folder holds exactly the files it held, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CHIO_STORE_SCHEMA_SQL } from '../lib/sources/chio-store-schema';
import { INSERT_TOOL } from '../lib/sources/sqlite-store-writer';
import { generateDemoStore } from '../tools/demo/generate';
import { startApiServer } from './loopback-api';
import { syntheticReceipt } from './synthetic-store';

let dir: string;
let writer: Database.Database | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-store-files-'));
});
afterAll(() => {
  writer?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A WAL-mode store with `count` receipts all still in its -wal (a kernel running, never checkpointed); the connection stays open. */
function liveStore(folder: string, count: number): Database.Database {
  mkdirSync(folder, { recursive: true });
  const db = new Database(path.join(folder, 'receipts.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec(CHIO_STORE_SCHEMA_SQL);
  const insert = db.prepare(INSERT_TOOL);
  for (let seq = 1; seq <= count; seq++) {
    const r = syntheticReceipt(seq);
    insert.run(
      r.receiptId,
      r.timestamp,
      r.capabilityId,
      r.subjectKey ?? null,
      r.issuerKey ?? null,
      r.grantIndex ?? null,
      r.toolServer,
      r.toolName,
      r.decisionKind,
      r.policyHash,
      r.contentHash,
      r.rawJson,
      r.tenantId ?? null,
    );
  }
  return db;
}

/** Every file of `folder`: name → SHA-256 and mtime. */
function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((n) => [
        n,
        `${createHash('sha256')
          .update(readFileSync(path.join(folder, n)))
          .digest('hex')} ${statSync(path.join(folder, n)).mtimeMs}`,
      ]),
  );
}

/** Serves the store in `folder` and asks for a page, an export and the package; returns the receipts the page counted. */
async function serve(folder: string): Promise<number> {
  const api = await startApiServer({ RECEIPT_DB: path.join(folder, 'receipts.sqlite3'), RECEIPT_CACHE_DIR: path.join(dir, `cache-${path.basename(folder)}`) });
  try {
    const page = await fetch(`${api.origin}/v1/receipts/query?limit=5`);
    expect(page.status).toBe(200);
    const { totalCount } = (await page.json()) as { totalCount: number };
    expect((await fetch(`${api.origin}/v1/evidence/export`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect((await fetch(`${api.origin}/v1/evidence/package/receipts.ndjson`)).status).toBe(200);
    return totalCount;
  } finally {
    await api.stop();
  }
}

describe('a served store has nothing written beside it', () => {
  it('a copy of a running kernel store, its -wal copied too and no -shm: read whole, no file added', async () => {
    const live = path.join(dir, 'live');
    const db = liveStore(live, 30);
    const copy = path.join(dir, 'copy');
    mkdirSync(copy);
    for (const suffix of ['', '-wal']) copyFileSync(path.join(live, `receipts.sqlite3${suffix}`), path.join(copy, `receipts.sqlite3${suffix}`));
    db.close();
    const before = snapshot(copy);
    expect(Object.keys(before)).toEqual(['receipts.sqlite3', 'receipts.sqlite3-wal']);
    // The receipts are in the -wal only: counting them proves it was read, not ignored.
    expect(await serve(copy)).toBe(30);
    expect(snapshot(copy)).toEqual(before);
  }, 60_000);

  it('a WAL-mode store whose kernel stopped (no -wal), and the demo store (rollback journal): no file added or changed', async () => {
    const stopped = path.join(dir, 'stopped');
    liveStore(stopped, 12).close(); // closing checkpoints and removes the -wal and -shm
    const demo = path.join(dir, 'demo');
    await generateDemoStore({ count: 30, checkpointEvery: 10, out: demo });
    rmSync(path.join(demo, 'claude-code-session.jsonl'), { force: true });
    const before = [snapshot(stopped), snapshot(demo)];
    for (const files of before) expect(Object.keys(files)).toEqual(['receipts.sqlite3']);
    expect(await Promise.all([serve(stopped), serve(demo)])).toEqual([12, 30]);
    expect([snapshot(stopped), snapshot(demo)]).toEqual(before);
  }, 60_000);

  it('a running kernel store (its -wal and -shm there): served live, no file added', async () => {
    const folder = path.join(dir, 'running');
    writer = liveStore(folder, 8);
    const names = readdirSync(folder).sort();
    expect(names).toEqual(['receipts.sqlite3', 'receipts.sqlite3-shm', 'receipts.sqlite3-wal']);
    expect(await serve(folder)).toBe(8);
    expect(readdirSync(folder).sort()).toEqual(names);
  }, 60_000);
});
