// The benchmark's input: a demo store (tools/demo) of `count` tool receipts in checkpointed
// batches of 100 plus an uncheckpointed tail of TAIL more, from `seed`, and its evidence package,
// cached in `<cache>/bench-<count>+<TAIL>-<seedslug>/{store,package}`. The
// marker file is written last, so an interrupted generation is redone from scratch.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type DemoCounts, demoKernelKeyHex, exportDemoPackage, generateDemoStore } from '../../tools/demo/generate';

export interface BenchInput {
  dir: string;
  store: string;
  pkg: string;
  /** The demo kernel key of this seed: pinned as --trust-key and on /trust. */
  kernelKeyHex: string;
  /** null when the cached input was reused. */
  generatedMs: number | null;
  counts: Pick<DemoCounts, 'toolReceipts' | 'childReceipts' | 'checkpoints' | 'uncheckpointedTail'>;
}

const MARKER = 'complete.json';
/** Tool receipts after the last checkpoint (the demo checkpoints every 100; a log being written always has a tail). */
export const TAIL = 50;

// As scripts/start.mjs does for the server: the SQLite addon reads this once, when it loads (at the
// first store written here), and the exporter then opens the store read-only with immutable=1.
process.env.SQLITE_USE_URI ??= '1';

/** A folder-safe form of the seed; a hash is added when characters had to be replaced. */
export function seedSlug(seed: string): string {
  const safe = seed.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40);
  return safe === seed ? safe : `${safe}-${createHash('sha256').update(seed).digest('hex').slice(0, 8)}`;
}

export async function ensureBenchInput(cache: string, count: number, seed: string, log: (s: string) => void): Promise<BenchInput> {
  const dir = path.join(cache, `bench-${count}+${TAIL}-${seedSlug(seed)}`);
  const store = path.join(dir, 'store');
  const pkg = path.join(dir, 'package');
  const marker = path.join(dir, MARKER);
  const kernelKeyHex = demoKernelKeyHex(seed);
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as { seed: string; count: number; counts: BenchInput['counts'] };
    if (m.seed === seed && m.count === count)
      return { dir, store: path.join(store, 'receipts.sqlite3'), pkg, kernelKeyHex, generatedMs: null, counts: m.counts };
  }
  rmSync(dir, { recursive: true, force: true }); // missing, interrupted, or another seed under the same slug
  log(`generating ${count.toLocaleString('en-US')} + ${TAIL} tool receipts (seed ${JSON.stringify(seed)}) in ${dir} …`);
  const t0 = performance.now();
  const r = await generateDemoStore({ count: count + TAIL, seed, out: store, onProgress: (n) => log(`  ${n.toLocaleString('en-US')} tool receipts`) });
  log('  exporting the evidence package …');
  await exportDemoPackage(r.storePath, pkg);
  if (r.kernelKeyHex !== kernelKeyHex) throw new Error(`the store was signed by ${r.kernelKeyHex}, not the seed's demo kernel key ${kernelKeyHex}`);
  const { toolReceipts, childReceipts, checkpoints, uncheckpointedTail } = r.counts;
  const counts = { toolReceipts, childReceipts, checkpoints, uncheckpointedTail };
  writeFileSync(marker, `${JSON.stringify({ seed, count, kernelKeyHex, counts }, null, 2)}\n`);
  return { dir, store: r.storePath, pkg, kernelKeyHex, generatedMs: performance.now() - t0, counts };
}
