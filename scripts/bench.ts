// Throughput of verification (issue 6): the same evidence package, from the demo producer, checked
// by three runners in --runs rounds of A, B, C (medians, their spread, and each round's ratios):
//   A  native baseline: scripts/bench/native-baseline.ts (node:crypto + canonicalize, one thread),
//      a child process; its own time inside the script, its own maxRSS;
//   B  CLI: receipt-audit verify <pkg> --trust-key <demo kernel key> --json, a child process;
//      spawn → exit, peak VmHWM;
//   C  browser: the dashboard in headless Chromium (scripts/bench/browser.ts); the input's change
//      event → the log verified, first row, the JS heap of the page and its workers and the browser's PSS.
// Then the cost per receipt at each size of --scale. Prints numbers; asserts nothing about speed,
// but fails when the runners disagree on what they verified.
//
//   npm run bench -- [--count 100000] [--runs 3] [--seed S] [--scale 10000,100000,1000000]
//                    [--json FILE] [--cache bench-out] [--port 3400]
//
// Progress goes to stderr, the report to stdout.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDemoStore, serveApp } from './bench-app';
import { launchBrowser, packageFiles, runBrowser } from './bench/browser';
import { type NativeRun, runCli, runNative } from './bench/child-runners';
import { type BenchInput, ensureBenchInput } from './bench/input';
import { DEMO_SEED_DEFAULT } from '../tools/demo/generate';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USAGE = 'usage: npm run bench -- [--count N] [--runs R] [--seed S] [--scale N,N,…] [--json FILE] [--cache DIR] [--port P]';
const SERVER_STORE_COUNT = 200;

// ---- options ------------------------------------------------------------------------------

const argv = process.argv.slice(2);
const KNOWN = ['count', 'json', 'seed', 'runs', 'scale', 'cache', 'port'];
for (let i = 0; i < argv.length; i += 2) {
  const name = argv[i]!.replace(/^--/, '');
  if (argv[i] === '--help' || argv[i] === '-h') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!argv[i]!.startsWith('--') || !KNOWN.includes(name) || argv[i + 1] === undefined) {
    process.stderr.write(`bench: unknown or incomplete option ${argv[i]}\n${USAGE}\n`);
    process.exit(2);
  }
}
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const positiveInt = (name: string, v: string): number => {
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1) {
    process.stderr.write(`bench: --${name} needs a positive integer, got ${v}\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
};
const countGiven = arg('count') !== undefined;
const count = positiveInt('count', arg('count') ?? '100000');
const runs = positiveInt('runs', arg('runs') ?? '3');
const port = positiveInt('port', arg('port') ?? '3400');
const seed = arg('seed') ?? DEMO_SEED_DEFAULT;
const cache = path.resolve(arg('cache') ?? path.join(ROOT, 'bench-out'));
const jsonFile = arg('json');
const scaleArg = arg('scale');
const scale = [
  ...new Set((scaleArg ? scaleArg.split(',') : countGiven ? [String(count)] : ['10000', '100000', '1000000']).map((s) => positiveInt('scale', s.trim()))),
].sort((a, b) => a - b);

const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const say = (s = '') => process.stdout.write(`${s}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (n: number) => `${fmt(n)} MB`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

// ---- the machine --------------------------------------------------------------------------

function machine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    ram_gb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    chromium: '',
    load_before: os.loadavg().map((l) => Math.round(l * 100) / 100),
    load_after: [] as number[],
  };
}

// ---- the runners --------------------------------------------------------------------------

interface CliRun {
  ms: number;
  receipts_per_s: number;
  peak_memory_mb: number;
}
interface PageRun {
  ms: number;
  receipts_per_s: number;
  peak_memory_mb: number;
  js_heap_peak_mb: number;
  first_row_ms: number;
  worker_ms: number;
}
interface SizeResult {
  count: number;
  receipts: number;
  input: BenchInput;
  native: NativeRun[];
  cli: CliRun[];
  browser: PageRun[];
  errors: string[];
}

/** One runner at one size: what it runs, and its runs so far (a failure stops it at this size and is kept, not thrown). */
interface Runner<T> {
  what: string;
  run: () => Promise<T>;
  done: T[];
  failed: boolean;
}

const runner = <T>(what: string, run: () => Promise<T>): Runner<T> => ({ what, run, done: [], failed: false });

/**
 * Rounds of A, B, C, A, B, C, …: a change of load on the machine then falls on every runner alike,
 * and the ratios of one round (B/A, C/A) compare runs made minutes apart at most.
 */
async function interleave(n: number, runners: Runner<unknown>[], errors: string[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    for (const r of runners) {
      if (r.failed) continue;
      log(`${r.what}, run ${i + 1} of ${n}`);
      try {
        r.done.push(await r.run());
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        log(`${r.what} FAILED: ${msg}`);
        errors.push(`${r.what}: ${msg}`);
        r.failed = true;
      }
    }
  }
}

async function measure(size: number, n: number, origin: string, browser: Awaited<ReturnType<typeof launchBrowser>>): Promise<SizeResult> {
  const input = await ensureBenchInput(cache, size, seed, log);
  const label = `${fmt(size)} tool receipts`;
  const errors: string[] = [];
  // The receipts of every runner's throughput: tool + child receipts in the package (the CLI's
  // summary.receipts must say the same).
  const receipts = input.counts.toolReceipts + input.counts.childReceipts;
  const a = runner(`${label}: A native baseline`, async () => {
    const r = await runNative(input.pkg);
    // It may find signatures invalid (it is naive), but it must have read every receipt.
    if (r.receipts !== receipts) throw new Error(`the native baseline read ${r.receipts} receipts, the package holds ${receipts}`);
    return r;
  });
  const b = runner(`${label}: B CLI`, async () => {
    const r = await runCli(input.pkg, input.kernelKeyHex);
    if (r.receipts !== receipts) throw new Error(`the CLI counted ${r.receipts} receipts, the package holds ${receipts}`);
    return r;
  });
  const c = runner(`${label}: C browser`, async () => {
    const r = await runBrowser(browser, { origin, pkg: input.pkg, key: input.kernelKeyHex, timeoutMs: 120_000 + size * 2 });
    if (r.page.receipts !== receipts || r.page.verified !== receipts) {
      throw new Error(
        `the page verified ${r.page.verified} of ${r.page.receipts} receipts (failed ${r.page.failed}, unverified ${r.page.unverified}); the package holds ${receipts}`,
      );
    }
    return r;
  });
  await interleave(n, [a, b, c] as Runner<unknown>[], errors);
  const nativeRaw = a.done;
  const cliRaw = b.done;
  const pageRaw = c.done;
  const rate = (ms: number) => receipts / (ms / 1000);
  return {
    count: size,
    receipts,
    input,
    native: nativeRaw.map((r) => ({ ...r, receipts_per_s: rate(r.ms) })),
    cli: cliRaw.map((r) => ({ ms: r.ms, receipts_per_s: rate(r.ms), peak_memory_mb: r.peak_memory_mb })),
    browser: pageRaw.map((r) => ({
      ms: r.ms,
      receipts_per_s: rate(r.ms),
      peak_memory_mb: r.peakMemoryMb,
      js_heap_peak_mb: r.jsHeapPeakMb,
      first_row_ms: r.firstRowMs,
      worker_ms: r.page.workerMs,
    })),
    errors,
  };
}

// ---- the run ------------------------------------------------------------------------------

mkdirSync(cache, { recursive: true });
const m = machine();
// Every input first, so the measurements that follow are not interleaved with generation.
for (const size of [count, ...scale])
  await ensureBenchInput(cache, size, seed, log).then((i) => i.generatedMs !== null && log(`  generated in ${(i.generatedMs / 1000).toFixed(1)} s`));
// The page opens the server's own log first: a small store keeps that out of the way.
const serverStore = await ensureDemoStore(path.join(cache, 'bench-server-store'), SERVER_STORE_COUNT, log);
log(`serving the app on 127.0.0.1:${port} (${SERVER_STORE_COUNT} receipts in its own store; start.mjs builds first when the build is stale)`);
const server = await serveApp({
  store: serverStore.store,
  cacheDir: path.join(cache, 'bench-server-store', 'server-cache'),
  port,
  onStartLine: (l) => log(`  ${l}`),
});
// Stopped from outside (Ctrl-C, test.mjs's deadline): the server must not be left listening.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void server.stop().finally(() => process.exit(130)));
let browser: Awaited<ReturnType<typeof launchBrowser>> | null = null;
const results = new Map<number, SizeResult>();
try {
  browser = await launchBrowser();
  m.chromium = browser.version();
  results.set(count, await measure(count, runs, server.origin, browser));
  for (const size of scale) if (!results.has(size)) results.set(size, await measure(size, 1, server.origin, browser));
} finally {
  await browser?.close();
  await server.stop();
}
m.load_after = os.loadavg().map((l) => Math.round(l * 100) / 100);

// ---- the report ---------------------------------------------------------------------------

const r = results.get(count)!;
// A runner that failed has no runs: its numbers are NaN here, null in the JSON, "failed" in print.
const maxOf = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);
const minOf = (xs: number[]) => (xs.length ? Math.min(...xs) : NaN);
const summarize = <T extends { receipts_per_s: number; peak_memory_mb: number }>(rs: T[]) => ({
  receipts_per_s: rs.length ? median(rs.map((x) => x.receipts_per_s)) : NaN,
  // The spread of the runs: a median far from either end says the machine was not quiet.
  receipts_per_s_min: minOf(rs.map((x) => x.receipts_per_s)),
  receipts_per_s_max: maxOf(rs.map((x) => x.receipts_per_s)),
  peak_memory_mb: maxOf(rs.map((x) => x.peak_memory_mb)),
});
const native = { ...summarize(r.native), runs: r.native };
const cli = { ...summarize(r.cli), runs: r.cli };
const page = {
  ...summarize(r.browser),
  js_heap_peak_mb: maxOf(r.browser.map((x) => x.js_heap_peak_mb)),
  first_row_ms: r.browser.length ? median(r.browser.map((x) => x.first_row_ms)) : NaN,
  runs: r.browser,
};
// Each round's own ratios (its B and C over its A, run back to back), then their median and range.
const rounds = r.native.flatMap((a, i) => {
  const b = r.cli[i];
  const c = r.browser[i];
  return b && c ? [{ cli_over_native: b.receipts_per_s / a.receipts_per_s, browser_over_native: c.receipts_per_s / a.receipts_per_s }] : [];
});
const ratios = {
  cli_over_native: cli.receipts_per_s / native.receipts_per_s,
  browser_over_native: page.receipts_per_s / native.receipts_per_s,
  rounds,
  cli_over_native_min: minOf(rounds.map((x) => x.cli_over_native)),
  cli_over_native_max: maxOf(rounds.map((x) => x.cli_over_native)),
  browser_over_native_min: minOf(rounds.map((x) => x.browser_over_native)),
  browser_over_native_max: maxOf(rounds.map((x) => x.browser_over_native)),
};
const us = (rs: { receipts_per_s: number }[]) => (rs.length ? 1e6 / median(rs.map((x) => x.receipts_per_s)) : NaN);
const scaling = scale.map((size) => {
  const s = results.get(size)!;
  return {
    count: size,
    receipts: s.receipts,
    runs: size === count ? runs : 1,
    native_us_per_receipt: us(s.native),
    cli_us_per_receipt: us(s.cli),
    browser_us_per_receipt: us(s.browser),
    native_peak_memory_mb: maxOf(s.native.map((x) => x.peak_memory_mb)),
    cli_peak_memory_mb: maxOf(s.cli.map((x) => x.peak_memory_mb)),
    browser_s: s.browser.length ? median(s.browser.map((x) => x.ms)) / 1000 : NaN,
    browser_first_row_ms: s.browser.length ? median(s.browser.map((x) => x.first_row_ms)) : NaN,
    browser_js_heap_peak_mb: maxOf(s.browser.map((x) => x.js_heap_peak_mb)),
    browser_peak_memory_mb: maxOf(s.browser.map((x) => x.peak_memory_mb)),
    errors: s.errors,
  };
});

const pkgBytes = packageFiles(r.input.pkg).reduce((sum, f) => sum + statSync(f).size, 0);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(9);
const rps = (n: number) => `${fmt(n)} receipts/s`.padStart(19);
say(`Receipt Audit throughput benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
say(`machine   ${m.cpu}, ${m.cores} cores, ${m.ram_gb} GiB RAM; Node ${m.node}; Chromium ${m.chromium}`);
say(`load      ${m.load_before.join(' ')} before, ${m.load_after.join(' ')} after (1, 5, 15 min; other work on the machine makes the numbers noisy)`);
say(
  `input     ${fmt(r.input.counts.toolReceipts)} tool receipts, seed ${JSON.stringify(seed)}: ${fmt(r.receipts)} receipts (tool + child, the CLI's summary.receipts), ` +
    `${fmt(r.input.counts.checkpoints)} checkpoints, ${fmt(r.input.counts.uncheckpointedTail)} receipts after the last; package ${fmt(pkgBytes / 2 ** 20)} MB, ` +
    `${packageFiles(r.input.pkg).length} files`,
);
say(`          ${r.input.pkg}`);
say();
say(`A native baseline (node:crypto + canonicalize, one thread; the script's own time, start-up excluded; peak = its maxRSS)`);
r.native.forEach((x, i) =>
  say(
    `  run ${i + 1}  ${secs(x.ms)} ${rps(x.receipts_per_s)}   peak ${mb(x.peak_memory_mb)}   (${fmt(x.signatures_valid)} of ${fmt(x.receipts)} signatures valid, ${fmt(x.roots_matching)} of ${fmt(x.checkpoints)} roots)`,
  ),
);
const failedLine = (prefix: string) => r.errors.filter((e) => e.includes(prefix)).forEach((e) => say(`  FAILED    ${e}`));
failedLine('A native');
const spread = (x: { receipts_per_s_min: number; receipts_per_s_max: number }) => `(runs ${fmt(x.receipts_per_s_min)}–${fmt(x.receipts_per_s_max)})`;
say(`  median          ${rps(native.receipts_per_s)}   peak ${mb(native.peak_memory_mb)}   ${spread(native)}`);
say(`B CLI (receipt-audit verify --trust-key … --json; spawn → exit; peak = VmHWM)`);
r.cli.forEach((x, i) => say(`  run ${i + 1}  ${secs(x.ms)} ${rps(x.receipts_per_s)}   peak ${mb(x.peak_memory_mb)}`));
failedLine('B CLI');
say(`  median          ${rps(cli.receipts_per_s)}   peak ${mb(cli.peak_memory_mb)}   ${spread(cli)}`);
say(`C browser (/usr/bin/chromium headless; change event → log verified; peak = PSS of all Chromium processes)`);
r.browser.forEach((x, i) =>
  say(
    `  run ${i + 1}  ${secs(x.ms)} ${rps(x.receipts_per_s)}   peak ${mb(x.peak_memory_mb)}   first row ${fmt(x.first_row_ms)} ms   JS heap ${mb(x.js_heap_peak_mb)}   (workers ${fmt(x.worker_ms)} ms)`,
  ),
);
failedLine('C browser');
say(
  `  median          ${rps(page.receipts_per_s)}   peak ${mb(page.peak_memory_mb)}   first row ${fmt(page.first_row_ms)} ms   JS heap ${mb(page.js_heap_peak_mb)}   ${spread(page)}`,
);
say();
say(
  `ratios    B/A ${ratios.cli_over_native.toFixed(2)}   C/A ${ratios.browser_over_native.toFixed(2)}   (receipts/s over receipts/s; > 1 = faster than the native baseline)`,
);
if (rounds.length > 1) {
  const range = (lo: number, hi: number) => `${lo.toFixed(2)}–${hi.toFixed(2)}`;
  say(
    `          per round (A, B, C back to back): B/A ${range(ratios.cli_over_native_min, ratios.cli_over_native_max)}   C/A ${range(ratios.browser_over_native_min, ratios.browser_over_native_max)}`,
  );
}
say();
const others = scale.filter((s) => s !== count);
say(`scaling   µs per receipt (1e6 / receipts/s)${others.length ? `; ${others.map(fmt).join(', ')} ran once each` : ''}`);
say(`  ${'tool receipts'.padStart(13)} ${'receipts'.padStart(10)} ${'A native'.padStart(9)} ${'B CLI'.padStart(9)} ${'C browser'.padStart(9)}`);
const cell = (n: number) => (Number.isNaN(n) ? 'failed' : n.toFixed(1)).padStart(9);
for (const s of scaling)
  say(
    `  ${fmt(s.count).padStart(13)} ${fmt(s.receipts).padStart(10)} ${cell(s.native_us_per_receipt)} ${cell(s.cli_us_per_receipt)} ${cell(s.browser_us_per_receipt)}`,
  );
say(`  ${'tool receipts'.padStart(13)}   peak MB: A, B, C (PSS)   C: seconds, first row, JS heap`);
const num = (n: number, d = 0) => (Number.isNaN(n) ? 'failed' : n.toLocaleString('en-US', { maximumFractionDigits: d }));
for (const s of scaling) {
  say(
    `  ${fmt(s.count).padStart(13)}   ${[s.native_peak_memory_mb, s.cli_peak_memory_mb, s.browser_peak_memory_mb]
      .map((x) => num(x))
      .join(', ')
      .padEnd(22)}   ${num(s.browser_s, 1)} s, ${num(s.browser_first_row_ms)} ms, ${num(s.browser_js_heap_peak_mb)} MB`,
  );
}
for (const s of scaling) if (s.count !== count) for (const e of s.errors) say(`  FAILED    ${e}`);
say();
say('notes');
say(`  - Medians of ${runs} run${runs === 1 ? '' : 's'}, in rounds of A, B, C; peak memory and JS heap are the largest of the runs; MB = 2^20 bytes.`);
say(`  - A is timed inside the script, so Node and tsx start-up (and its exit) are left out while B's spawn → exit includes them: this favours A.`);
say(`  - C: the file input is on /, the rows on /receipts; the page goes there by its nav link in the task of the change event. First row =`);
say(`    the first [data-receipt-id] row (shown once its record's own checks are done); JS heap = the page's and all its workers' (CDP`);
say(`    Runtime.getHeapUsage usedSize, summed, every 200 ms); typed arrays' buffers live outside the heap and show in PSS.`);
const oddNative = r.native.find((x) => x.receipts !== r.receipts || x.signatures_valid !== x.receipts);
if (oddNative)
  say(
    `  - A read ${fmt(oddNative.receipts)} receipts and found ${fmt(oddNative.signatures_valid)} signatures valid; the CLI and the page verified ${fmt(r.receipts)}.`,
  );

if (jsonFile) {
  const errors = [...results.values()].flatMap((x) => x.errors);
  const out = { count, seed, runs, receipts: r.receipts, machine: m, native, cli, browser: page, ratios, scaling, errors };
  // Three decimals are plenty for numbers this noisy; a failed runner's numbers are null.
  const round = (_: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null) : v);
  writeFileSync(jsonFile, `${JSON.stringify(out, round, 2)}\n`);
  log(`wrote ${jsonFile}`);
}

// Every number above was printed; a runner that failed anywhere still fails the benchmark.
const failures = [...results.values()].flatMap((x) => x.errors);
if (failures.length) {
  log(`${failures.length} runner(s) failed; see FAILED above`);
  process.exitCode = 1;
}
