#!/usr/bin/env node
// receipt-audit: the command line over the same verification core (lib/) the
// browser runs. TypeScript is loaded through tsx, so it works right after
// `npm install` with no build step.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { register } from 'tsx/esm/api';

// A large log (a million receipts is about 2 GB of package) needs more heap than Node's default
// (about 4 GB here): the command runs itself again with up to 3/4 of the machine's memory,
// unless a heap size was given (NODE_OPTIONS or node flags). Small inputs start at once.
// (RECEIPT_AUDIT_LARGE_INPUT_MB moves the threshold; the tests use 0.)
const LARGE_INPUT_BYTES = Number(process.env.RECEIPT_AUDIT_LARGE_INPUT_MB ?? 256) * 2 ** 20;

function inputBytes(args) {
  let total = 0;
  for (const a of args) {
    try {
      const s = statSync(a);
      if (s.isFile()) total += s.size;
      else if (s.isDirectory()) for (const f of readdirSync(a, { withFileTypes: true })) if (f.isFile()) total += statSync(path.join(a, f.name)).size;
    } catch {
      /* not a path: an option or its value */
    }
  }
  return total;
}

const args = process.argv.slice(2);
const heapGiven = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('--max-old-space-size'));
const wantMb = Math.floor((os.totalmem() / 2 ** 20) * 0.75);
const haveMb = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
if (!heapGiven && !process.env.RECEIPT_AUDIT_REEXEC && wantMb > haveMb * 1.25 && inputBytes(args) > LARGE_INPUT_BYTES) {
  const r = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${wantMb}`, fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
    env: { ...process.env, RECEIPT_AUDIT_REEXEC: '1' },
  });
  process.exit(r.status ?? (r.signal ? 128 + (os.constants.signals[r.signal] ?? 0) : 1));
}

// For the tests: says which heap the command ended up with.
if (process.env.RECEIPT_AUDIT_SHOW_HEAP) process.stderr.write(`heap limit ${Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20)} MB\n`);
// A reader that stops early (`| head`) is not an error of ours: stop quietly, as Unix tools do.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
register();
const { main } = await import('./cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
