// Measures the first whole-store export of a large store (GET /v1/evidence/package, issue 20)
// and what it costs the requests that arrive meanwhile. Prints numbers; asserts nothing.
//
//   node --import tsx scripts/bench-export.ts [--db PATH] [--generate 1000000] [--demo] [--every 100]
//
// The server runs as a child process (server/serve-receipt-api.ts, the same handlers as the
// Next routes) with an empty package cache. While it builds the package, this process asks for a
// page of 50 receipts every `--every` ms and times each answer. Printed: the build's wall time,
// the query latencies during the build (p50/p95/p99/max) and how many were answered, the
// server's peak RSS, and the package's size.
// Without --db, a store of --generate N receipts (default 1,000,000) is written to a temporary
// folder first: synthetic receipts (server/synthetic-store.ts, no checkpoints: the cost is
// reading, checking and writing rows), or with --demo the signed demo store with a checkpoint
// every 100 receipts (tools/demo, slow to generate: the cost then includes every batch's leaves
// and proofs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { writeSyntheticStore } from '../server/synthetic-store-file';
import { generateDemoStore } from '../tools/demo/generate';
import { percentile } from './bench/pages';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
const count = Number(arg('generate') ?? '1000000');
const every = Number(arg('every') ?? '100');
let db = arg('db');
if (!db) {
  const t0 = performance.now();
  if (process.argv.includes('--demo')) db = (await generateDemoStore({ count, out: path.join(work, 'demo') })).storePath;
  else writeSyntheticStore((db = path.join(work, 'store.sqlite3')), count);
  process.stdout.write(
    `generated ${count} ${process.argv.includes('--demo') ? 'demo' : 'synthetic'} receipts in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
}

const entry = fileURLToPath(new URL('../server/serve-receipt-api.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', entry, '--exit-with-stdin'], {
  cwd: path.dirname(path.dirname(path.dirname(entry))),
  env: { ...process.env, RECEIPT_DB: db, RECEIPT_API_TOKEN: '', RECEIPT_CACHE_DIR: path.join(work, 'cache') },
  stdio: ['pipe', 'pipe', 'inherit'],
});
const origin = (
  await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  })
).replace(/^listening /, '');

/** The child's peak resident set (VmHWM), in MB. */
const peakRssMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

// Warm the store handle (and the query's count) before the export starts.
await (await fetch(`${origin}/v1/receipts/query?limit=50`)).text();
const rssBefore = peakRssMb();

let done = false;
const t0 = performance.now();
const build = fetch(`${origin}/v1/evidence/package`).then(async (res) => {
  const index = (await res.json()) as { files: { path: string; bytes: number }[] };
  done = true;
  return { status: res.status, ms: performance.now() - t0, bytes: index.files.reduce((s, f) => s + f.bytes, 0), files: index.files };
});
const latencies: number[] = [];
while (!done) {
  const q0 = performance.now();
  const res = await fetch(`${origin}/v1/receipts/query?limit=50&cursor=${Math.floor(Math.random() * count)}`);
  await res.arrayBuffer();
  if (!done) latencies.push(performance.now() - q0);
  await new Promise((resolve) => setTimeout(resolve, every));
}
const result = await build;
const sorted = latencies.sort((a, b) => a - b);
const f = (n: number) => n.toFixed(1);
process.stdout.write(
  `\nstore: ${count} tool receipts; node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg()[0]!.toFixed(1)}\n` +
    `first package build (GET /v1/evidence/package): HTTP ${result.status}, ${f(result.ms / 1000)} s, ${(result.bytes / 1e6).toFixed(0)} MB in ${result.files.length} files\n` +
    `queries answered during the build: ${sorted.length} (one every ${every} ms); latency ms p50 ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, p99 ${f(percentile(sorted, 99))}, max ${f(sorted.at(-1) ?? NaN)}\n` +
    `server peak RSS: ${f(rssBefore)} MB before the build, ${f(peakRssMb())} MB after\n`,
);
await new Promise<void>((resolve) => {
  child.once('exit', () => resolve());
  child.stdin!.end();
});
rmSync(work, { recursive: true, force: true });
