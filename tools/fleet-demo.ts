// `npm run fleet:demo`: the demo fleet (issue 9): three kernels with three keys, each its own
// deterministic demo log (tools/demo), written as two evidence packages and one SQLite store
// under FLEET_DEMO_DIR (default data/fleet-demo), then ingested into the cluster with
// `receipt-audit ingest` (CLICKHOUSE_URL, or --clickhouse URL; default the URL fleet:up prints).
//
//   node --import tsx tools/fleet-demo.ts [--count N] [--clickhouse URL] [--no-ingest]
//
// Library: `fleetDemo(dir, count)` writes the logs (once; kept when present) and returns their
// paths and keys, for the tests and the benchmark.
// First: store-handle turns on SQLite URI filenames, which must happen before anything loads
// better-sqlite3 (the ingest does), or exporting a demo store warns and opens it plainly.
import '../server/store/store-handle';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ingestMain } from '../bin/cli/ingest';
import { STORE_FILE, cliArg, demoKernelKeyHex, exportDemoPackage, generateDemoStore } from './demo/generate';

export const FLEET_KERNELS = [
  { name: 'kernel-alpha', seed: 'fleet-alpha', as: 'package' },
  { name: 'kernel-beta', seed: 'fleet-beta', as: 'package' },
  { name: 'kernel-gamma', seed: 'fleet-gamma', as: 'store' },
] as const;

export interface FleetDemoKernel {
  name: string;
  kernelKey: string;
  /** What to ingest: the package folder, or the store file. */
  input: string;
  /** The kernel's store (the packages are exported from theirs). */
  store: string;
}

/** Writes the three kernels' logs under `dir` (each once: a log already there is kept). */
export async function fleetDemo(dir: string, count: number): Promise<FleetDemoKernel[]> {
  const out: FleetDemoKernel[] = [];
  for (const k of FLEET_KERNELS) {
    const kdir = path.join(dir, `${k.name}-${count}`);
    const store = path.join(kdir, STORE_FILE);
    const pkg = path.join(kdir, 'package');
    if (!existsSync(store)) await generateDemoStore({ count, seed: k.seed, out: kdir });
    if (k.as === 'package' && !existsSync(path.join(pkg, 'manifest.json'))) await exportDemoPackage(store, pkg);
    out.push({ name: k.name, kernelKey: demoKernelKeyHex(k.seed), input: k.as === 'package' ? pkg : store, store });
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  // cliArg adds the leading `--` itself: with '--count' it looked for `----count`, so --count and
  // --clickhouse were silently ignored (2,000 receipts into the default cluster, whatever was asked).
  const count = Number(cliArg(argv, 'count') ?? 2000);
  if (!Number.isSafeInteger(count) || count < 1) {
    process.stderr.write('fleet:demo: --count must be a positive integer\n');
    return 2;
  }
  const dir = path.resolve(process.env.FLEET_DEMO_DIR ?? path.join('data', 'fleet-demo'));
  const url = cliArg(argv, 'clickhouse') ?? process.env.CLICKHOUSE_URL ?? `http://127.0.0.1:${Number(process.env.FLEET_BASE_PORT ?? 19120) + 1}/`;
  const kernels = await fleetDemo(dir, count);
  for (const k of kernels) process.stdout.write(`${k.name}: kernel ${k.kernelKey}, ${k.input}\n`);
  if (argv.includes('--no-ingest')) return 0;
  process.stdout.write(`\nreceipt-audit ingest ${kernels.map((k) => path.relative(process.cwd(), k.input)).join(' ')} --clickhouse ${url}\n`);
  const code = await ingestMain([...kernels.map((k) => k.input), '--clickhouse', url], process.stdout, process.stderr);
  if (code === 0) {
    process.stdout.write(
      `\nServe the fleet: CLICKHOUSE_URL=${url} npm start\nPin its keys to trust them (Trust page, or --trust-key): ${kernels.map((k) => k.kernelKey).join(' ')}\n`,
    );
  }
  return code;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main(process.argv.slice(2));
