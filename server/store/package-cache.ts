// Server side only: the whole-store evidence package of the served store (GET
// /v1/evidence/package), built once per store state into
// `RECEIPT_CACHE_DIR` (default data/cache)/packages/<key>/ and served from there.
//
// Policies (issue 20):
// - Off the request path: the build is a background task, a slice at a time (export.ts Yielder)
//   on a connection of its own, so the requests that arrive meanwhile are answered; requests for
//   the same package share one build and wait for it.
// - A build whose store changed under it (an immutable reader takes no locks) is thrown away and
//   made again once.
// - Bounded: after each build, complete packages beyond MAX_CACHED_PACKAGES or MAX_CACHE_BYTES
//   are removed, least recently served first (a package's manifest.json mtime is its last use),
//   never the one just built; and half-written folders of processes that are gone.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import type { ReceiptApiEnv } from '../backend';
import { writeEvidencePackage } from './export';
import { closeReader, openReader, readerChanged, storeSignature } from './store-handle';

/**
 * Complete packages kept: 4. One store has one current package; a few more let a store that
 * changed (or a second store) keep its last package without a rebuild when it is asked for again.
 */
export const MAX_CACHED_PACKAGES = 4;
/** Bytes kept, over all packages: 4 GiB, about two packages of a 1,000,000-receipt store (~1.9 GB each). */
export const MAX_CACHE_BYTES = 4 * 1024 ** 3;

/**
 * Bumped whenever the exported package's content changes for the same store: a newer exporter
 * (3: every checkpoint, proofs only for batches whose root recomputes, export-problems.ndjson)
 * must not serve a package an older one cached.
 */
const EXPORT_FORMAT = 3;

export type PackageResult = { ok: true; dir: string } | { ok: false; detail: string };

const builds = new Map<string, Promise<PackageResult | 'changed'>>();

function cacheRoot(env: ReceiptApiEnv): string {
  return path.join(env.RECEIPT_CACHE_DIR ? path.resolve(env.RECEIPT_CACHE_DIR) : path.join(process.cwd(), 'data', 'cache'), 'packages');
}

/** The folder of the package of `file` as it is now, built first when there is none. */
export async function packageFor(file: string, env: ReceiptApiEnv): Promise<PackageResult> {
  const root = cacheRoot(env);
  for (let attempt = 0; attempt < 2; attempt++) {
    const signature = storeSignature(file);
    if (signature === null) return { ok: false, detail: 'the receipt store does not exist' };
    const key = createHash('sha256').update(`${file}\n${signature}\nexport-format ${EXPORT_FORMAT}`).digest('hex').slice(0, 32);
    const dir = path.join(root, key);
    if (existsSync(path.join(dir, 'manifest.json'))) {
      markUsed(dir);
      return { ok: true, dir };
    }
    let build = builds.get(key);
    if (!build) {
      build = buildPackage(file, dir, root).finally(() => builds.delete(key));
      builds.set(key, build);
    }
    const result = await build;
    if (result !== 'changed') return result;
  }
  return { ok: false, detail: 'the store kept changing while its evidence package was built; try again' };
}

/** How many package builds are running in this process (tests and benchmarks read it). */
export function packageBuildsRunning(): number {
  return builds.size;
}

async function buildPackage(file: string, dir: string, root: string): Promise<PackageResult | 'changed'> {
  const opened = openReader(file);
  if (!opened.ok) return { ok: false, detail: opened.detail };
  try {
    await writeEvidencePackage(opened.store.db, file, dir, {}, Math.floor(statSync(file).mtimeMs / 1000));
    if (readerChanged(opened.store)) {
      rmSync(dir, { recursive: true, force: true });
      return 'changed';
    }
  } finally {
    closeReader(opened.store);
  }
  prunePackages(root, dir);
  return { ok: true, dir };
}

/** Marks a package as just used (its manifest's mtime), at most once a minute. */
function markUsed(dir: string): void {
  const manifest = path.join(dir, 'manifest.json');
  try {
    const now = Date.now();
    if (now - statSync(manifest).mtimeMs > 60_000) utimesSync(manifest, now / 1000, now / 1000);
  } catch {
    // pruned meanwhile by another process: the next request builds it again
  }
}

const PARTIAL = /\.partial-(\d+)-[a-z0-9]+$/;

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes packages beyond the bounds (least recently used first, never `keep`) and partial folders of dead processes. */
export function prunePackages(root: string, keep: string): void {
  const complete: { dir: string; used: number; bytes: number }[] = [];
  for (const name of existsSync(root) ? readdirSync(root) : []) {
    const dir = path.join(root, name);
    const partial = PARTIAL.exec(name);
    if (partial) {
      if (!processAlive(Number(partial[1]))) rmSync(dir, { recursive: true, force: true });
      continue;
    }
    try {
      const manifest = path.join(dir, 'manifest.json');
      const listed = (JSON.parse(readFileSync(manifest, 'utf8')) as { files?: { bytes?: unknown }[] }).files ?? [];
      const bytes = listed.reduce((sum, f) => sum + (typeof f.bytes === 'number' ? f.bytes : 0), statSync(manifest).size);
      complete.push({ dir, used: statSync(manifest).mtimeMs, bytes });
    } catch {
      // not a package folder (or removed meanwhile): not ours to judge
    }
  }
  complete.sort((a, b) => (a.dir === keep ? -1 : b.dir === keep ? 1 : b.used - a.used));
  let count = 0;
  let bytes = 0;
  for (const p of complete) {
    if (p.dir !== keep && (count + 1 > MAX_CACHED_PACKAGES || bytes + p.bytes > MAX_CACHE_BYTES)) {
      rmSync(p.dir, { recursive: true, force: true });
      continue;
    }
    count++;
    bytes += p.bytes;
  }
}
