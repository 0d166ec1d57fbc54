// Measures `receipt-audit verify` on an evidence package exported from a demo
// store (scripts/demo): receipts per second and peak memory. Prints numbers;
// asserts nothing.
//
//   npm run bench:cli -- --count 100000 [--runs 3]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportDemoPackage, generateDemoStore } from './demo/generate';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function run(cmd: string, args: string[]): Promise<{ code: number; ms: number; peakRssMb: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let peakKb: number | null = null;
    child.stdout.on('data', (d) => (stdout += d));
    // VmHWM is the process's resident high-water mark (Linux); sample it until exit.
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Number(m[1]);
      } catch {
        /* exited */
      }
    }, 50);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code: code ?? 1, ms: performance.now() - t0, peakRssMb: peakKb === null ? null : Math.round(peakKb / 1024), stdout });
    });
  });
}

const count = Number(arg('count', '100000'));
const runs = Number(arg('runs', '3'));
const dir = path.join(ROOT, 'bench-out', `package-${count}`);
if (!existsSync(path.join(dir, 'manifest.json'))) {
  process.stdout.write(`generating ${count} receipts into ${path.relative(ROOT, dir)} …\n`);
  const store = await generateDemoStore({ count, out: `${dir}-store` });
  await exportDemoPackage(store.storePath, dir);
}
const key = /kernel_key":"([0-9a-f]{64})"/.exec(readFileSync(path.join(dir, 'checkpoints.ndjson'), 'utf8'))?.[1];
if (!key) throw new Error('no checkpoint in the generated package');

const results = [];
let total = count;
for (let i = 0; i < runs; i++) {
  const r = await run(process.execPath, ['bin/receipt-audit.mjs', 'verify', dir, '--trust-key', key, '--json']);
  if (r.code !== 0) throw new Error(`receipt-audit exited ${r.code}:\n${r.stdout.slice(0, 2000)}`);
  const summary = (JSON.parse(r.stdout) as { summary: { receipts: number; verified: number; checkpoints: number } }).summary;
  if (summary.verified !== summary.receipts) throw new Error(`only ${summary.verified} of ${summary.receipts} verified`);
  total = summary.receipts;
  results.push(r);
  process.stdout.write(`run ${i + 1}: ${(r.ms / 1000).toFixed(1)} s, ${Math.round(total / (r.ms / 1000))} receipts/s, peak RSS ${r.peakRssMb ?? '?'} MB\n`);
}
const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
process.stdout.write(
  `receipt-audit verify, ${total} receipts (${count} tool receipts and their child receipts; checkpoints every 100, all proofs), ` +
    `${os.cpus().length} cores, Node ${process.versions.node}: median ${(median / 1000).toFixed(1)} s = ${Math.round(total / (median / 1000))} receipts/s, ` +
    `peak RSS ${Math.max(...results.map((r) => r.peakRssMb ?? 0))} MB\n`,
);
