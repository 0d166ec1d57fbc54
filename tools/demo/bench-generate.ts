// Benchmarks the demo producer: generates a large store (default 1,000,000 tool receipts) and prints receipts/s and peak RSS.
//
//   node --import tsx tools/demo/bench-generate.ts [--count 1000000] [--seed S] [--out DIR]
//
// Without --out the store goes to a new folder under the OS temp dir. Peak RSS is the kernel's
// high-water mark (VmHWM in /proc/self/status); the resident set is also sampled every 100,000
// receipts, to show that memory stays flat.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliArg, DEMO_SEED_DEFAULT, generateDemoStore } from './generate';

function statusKiB(field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined; // not Linux
  }
}

const mib = (kib: number | undefined) => (kib === undefined ? 'n/a' : `${(kib / 1024).toFixed(0)} MiB`);

const argv = process.argv.slice(2);
const count = Number(cliArg(argv, 'count') ?? 1_000_000);
const seed = cliArg(argv, 'seed') ?? DEMO_SEED_DEFAULT;
const out = cliArg(argv, 'out') ?? mkdtempSync(path.join(tmpdir(), 'receipt-audit-demo-bench-'));

const started = performance.now();
let last = started;
const result = await generateDemoStore({
  count,
  seed,
  out,
  onProgress: (n) => {
    const now = performance.now();
    process.stdout.write(
      `${n.toLocaleString('en-US').padStart(10)} tool receipts  ${Math.round(100_000 / ((now - last) / 1000)).toLocaleString('en-US')}/s  rss ${mib(statusKiB('VmRSS'))}\n`,
    );
    last = now;
  },
});
const seconds = (performance.now() - started) / 1000;
const c = result.counts;
const rows = c.toolReceipts + c.childReceipts;
process.stdout.write(
  [
    `store        ${result.storePath} (${(statSync(result.storePath).size / 2 ** 20).toFixed(0)} MiB)`,
    `tool         ${c.toolReceipts.toLocaleString('en-US')} receipts, ${c.childReceipts.toLocaleString('en-US')} child receipts, ${c.checkpoints.toLocaleString('en-US')} checkpoints`,
    `time         ${seconds.toFixed(1)} s`,
    `throughput   ${Math.round(c.toolReceipts / seconds).toLocaleString('en-US')} tool receipts/s (${Math.round(rows / seconds).toLocaleString('en-US')} signed receipts/s)`,
    `peak RSS     ${mib(statusKiB('VmHWM'))}`,
  ].join('\n') + '\n',
);
