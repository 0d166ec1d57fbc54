// `npm start`'s demo step: creates the demo store (data/demo/receipts.sqlite3)
// and its evidence package (data/demo/package/) when they are missing, so a
// newcomer sees a real, verifying log. Idempotent; does nothing when both exist.
//
//   node --import tsx tools/demo/ensure-demo.ts [--count N] [--force]
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_DIR } from '../../server/store/db';
import { DEMO_SEED_DEFAULT, cliArg, exportDemoPackage, generateDemoStore } from './generate';

/** Not a multiple of 100, so the demo has an uncheckpointed tail. */
export const DEMO_COUNT_DEFAULT = 2437;

/**
 * What the demo producer writes, as a number: a demo written by an older producer (before v2
 * checkpoints, signed lineage tokens and the Claude Code session) is written again.
 */
export const DEMO_FORMAT = '2';
const FORMAT_FILE = 'demo-format.txt';

export async function ensureDemo(dir: string, count = DEMO_COUNT_DEFAULT, force = false): Promise<{ created: boolean; store: string; pkg: string }> {
  const store = path.join(dir, 'receipts.sqlite3');
  const pkg = path.join(dir, 'package');
  const current = existsSync(path.join(dir, FORMAT_FILE)) && readFileSync(path.join(dir, FORMAT_FILE), 'utf8').trim() === DEMO_FORMAT;
  if (!force && current && existsSync(store) && existsSync(path.join(pkg, 'manifest.json'))) return { created: false, store, pkg };
  const t0 = Date.now();
  // Build beside the target and rename, so a stopped start never leaves half a demo.
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const result = await generateDemoStore({ count, seed: DEMO_SEED_DEFAULT, out: tmp });
  await exportDemoPackage(result.storePath, path.join(tmp, 'package'));
  writeFileSync(path.join(tmp, FORMAT_FILE), `${DEMO_FORMAT}\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  renameSync(tmp, dir);
  const c = result.counts;
  console.log(
    `demo: created ${path.relative(process.cwd(), dir)} in ${((Date.now() - t0) / 1000).toFixed(1)} s: ` +
      `${c.toolReceipts} tool receipts, ${c.childReceipts} child receipts, ${c.checkpoints} checkpoints; ` +
      `demo kernel key ${result.kernelKeyHex}`,
  );
  return { created: true, store, pkg };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const count = Number(cliArg(process.argv, 'count') ?? DEMO_COUNT_DEFAULT);
  await ensureDemo(DEMO_DIR, count, process.argv.includes('--force'));
}
