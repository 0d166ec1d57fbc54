// Issue 20: the whole-store package was built on the request path (one synchronous build held
// every other request until it was done) and its cache grew without bound. Over real HTTP on
// 127.0.0.1: while the first package of a store big enough to take a while is being built, a
// receipt query is answered (ordering asserted, not time); and the cache keeps at most
// MAX_CACHED_PACKAGES packages, least recently used out first, and clears half-written folders
// of processes that are gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LoopbackApi, startApiServer } from '../loopback-api';
import { MAX_CACHED_PACKAGES, prunePackages } from './package-cache';
import { writeSyntheticStore } from '../synthetic-store-file';

let dir: string;
let api: LoopbackApi;
let cache: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-package-cache-'));
  const store = path.join(dir, 'big.sqlite3');
  // Large enough that building its package takes many event-loop slices (each row is parsed).
  writeSyntheticStore(store, 15_000);
  cache = path.join(dir, 'cache');
  api = await startApiServer({ RECEIPT_DB: store, RECEIPT_CACHE_DIR: cache });
}, 60_000);

afterAll(async () => {
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const building = () => existsSync(path.join(cache, 'packages')) && readdirSync(path.join(cache, 'packages')).some((n) => n.includes('.partial-'));

describe('the first package of a store', () => {
  it('is built off the request path: a query sent while it is being built is answered before it', async () => {
    const order: string[] = [];
    const first = fetch(`${api.origin}/v1/evidence/package`).then(async (res) => {
      order.push('package');
      return res;
    });
    // Wait until the server has started writing the package (its half-written folder exists).
    while (!building()) await new Promise((resolve) => setTimeout(resolve, 5));
    const query = await fetch(`${api.origin}/v1/receipts/query?limit=1`);
    order.push('query');
    expect(query.status).toBe(200);
    expect(building()).toBe(true);
    const res = await first;
    expect(res.status).toBe(200);
    expect(order).toEqual(['query', 'package']);
    // A second request for the same package is served from the cache.
    const again = (await (await fetch(`${api.origin}/v1/evidence/package`)).json()) as { files: { path: string }[] };
    expect(again.files.map((f) => f.path)).toContain('receipts.ndjson');
    expect(readdirSync(path.join(cache, 'packages'))).toHaveLength(1);
  }, 60_000);
});

describe('the package cache', () => {
  /** A complete package folder of `bytes` listed bytes, last used `ageS` seconds ago. */
  function fakePackage(root: string, name: string, ageS: number, bytes = 10): string {
    const d = path.join(root, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'receipts.ndjson'), 'x'.repeat(bytes));
    writeFileSync(path.join(d, 'manifest.json'), JSON.stringify({ files: [{ path: 'receipts.ndjson', bytes }] }));
    const t = Date.now() / 1000 - ageS;
    utimesSync(path.join(d, 'manifest.json'), t, t);
    return d;
  }

  it(`keeps at most ${MAX_CACHED_PACKAGES} packages, least recently used out first, never the one just built`, () => {
    const root = path.join(dir, 'prune');
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    names.forEach((n, i) => fakePackage(root, n, 100 * (i + 1)));
    // The one just built is the oldest-used here, and stays.
    const keep = fakePackage(root, 'built', 10_000);
    prunePackages(root, keep);
    expect(readdirSync(root).sort()).toEqual(['a', 'b', 'built', 'c']);
  });

  it('removes half-written folders of processes that are gone, and keeps those of live ones', () => {
    const root = path.join(dir, 'partials');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    mkdirSync(path.join(root, `k1.partial-${gone}-abc123`), { recursive: true });
    mkdirSync(path.join(root, `k2.partial-${process.pid}-def456`), { recursive: true });
    const keep = fakePackage(root, 'built', 0);
    prunePackages(root, keep);
    expect(readdirSync(root).sort()).toEqual(['built', `k2.partial-${process.pid}-def456`]);
  });
});
