// Memory and time of the page and the command line on hostile input SHAPES (issue 20, part 5):
// 650,000 checkpoints, 3,000,000 tiny records, proofs with absurd path lengths, records nested
// millions of levels deep (test/support/hostile/generate.ts). Each shape is generated into a folder,
// then verified `--runs` times by `receipt-audit verify` (time, peak RSS of the process and the
// one it re-runs itself as) and by the built page in headless /usr/bin/chromium through its file
// input (time from choosing the files to the summary; peaks of the JS heap summed over the page and
// its workers, and of the PSS summed over Chromium's processes). Prints numbers; asserts nothing,
// except that the CLI and the page agree on how many receipts verified.
//
//   npm run bench:hostile                                   # every shape, 2 runs each
//   npm run bench:hostile -- --shapes checkpoints,tiny --runs 1 --only cli
//   npm run bench:hostile -- --scale 0.01                   # 1/100 of each count (a smoke run)
//
// Options: --shapes LIST (checkpoints, tiny, deep-proofs, deep-nesting), --runs R (2),
// --only cli|page, --port P (3300), --cache DIR (keep the generated files there and reuse them;
// by default they go to a temp folder removed at the end), --scale F (1), --timeout S (1200 per
// page run), --json FILE.
import { chromium } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDemoStore, serveApp } from './bench-app';
import { runMeasured } from './bench/child';
import { loadFilesInPage } from './bench/page-load';
import { CHROMIUM_ARGS } from './chromium-args';
import { type Generated, writeCheckpoints, writeDeepNesting, writeDeepProofs, writeTiny } from '../test/support/hostile/generate';

const SHAPES = ['checkpoints', 'tiny', 'deep-proofs', 'deep-nesting'] as const;
type Shape = (typeof SHAPES)[number];

const argv = process.argv.slice(2);
const opt = {
  shapes: [...SHAPES] as Shape[],
  runs: 2,
  only: null as 'cli' | 'page' | null,
  port: 3300,
  cache: null as string | null,
  scale: 1,
  timeout: 1200,
  json: null as string | null,
};
for (let i = 0; i < argv.length; i += 2) {
  const [name, value] = [argv[i]!, argv[i + 1]];
  if (value === undefined) throw new Error(`bench:hostile: ${name} needs a value`);
  if (name === '--shapes') {
    opt.shapes = value.split(',') as Shape[];
    for (const s of opt.shapes) if (!SHAPES.includes(s)) throw new Error(`bench:hostile: unknown shape ${s} (${SHAPES.join(', ')})`);
  } else if (name === '--runs') opt.runs = Number(value);
  else if (name === '--only') opt.only = value === 'cli' || value === 'page' ? value : null;
  else if (name === '--port') opt.port = Number(value);
  else if (name === '--cache') opt.cache = path.resolve(value);
  else if (name === '--scale') opt.scale = Number(value);
  else if (name === '--timeout') opt.timeout = Number(value);
  else if (name === '--json') opt.json = value;
  else throw new Error(`bench:hostile: unknown option ${name}`);
}

const log = (s: string) => process.stderr.write(`${s}\n`);
const MiB = 2 ** 20;
const n = (x: number) => Math.max(1, Math.round(x * opt.scale));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const dir = opt.cache ?? mkdtempSync(path.join(os.tmpdir(), 'ra-bench-hostile-'));
mkdirSync(dir, { recursive: true });

/** The shape's files, generated unless a complete set is in the folder (a marker written last). */
function shapeFiles(shape: Shape): { files: string[]; gen: Generated } {
  const sub = path.join(dir, `${shape}-x${opt.scale}`);
  const marker = path.join(sub, 'generated.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as { files: string[]; gen: Generated };
  rmSync(sub, { recursive: true, force: true });
  mkdirSync(sub, { recursive: true });
  log(`generating ${shape} in ${sub} …`);
  const t0 = performance.now();
  let files: string[];
  let gen: Generated;
  if (shape === 'checkpoints') {
    files = [path.join(sub, 'checkpoints.ndjson')];
    gen = writeCheckpoints(files[0]!, n(650_000));
  } else if (shape === 'tiny') {
    files = [path.join(sub, 'tiny.ndjson')];
    gen = writeTiny(files[0]!, n(3_000_000));
  } else if (shape === 'deep-proofs') {
    files = [path.join(sub, 'deep-proofs.ndjson')];
    gen = writeDeepProofs(files[0]!, { inclusion: n(20), consistency: n(4), levels: 200_000 });
  } else {
    files = [path.join(sub, 'deep-nesting.ndjson'), path.join(sub, 'deep-nesting.json')];
    gen = writeDeepNesting(files[0]!, files[1]!, { lines: n(12), depth: 5_000_000 });
  }
  log(`  ${(gen.bytes / MiB).toFixed(0)} MiB, ${gen.records.toLocaleString('en-US')} records in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const out = { files, gen: { bytes: gen.bytes, records: gen.records, note: gen.note } };
  writeFileSync(marker, JSON.stringify(out));
  return out;
}

interface CliRun {
  seconds: number;
  peakRssMiB: number | null;
  code: number;
  receipts: string;
  checkpoints: string;
  problems: string;
  outputMiB: number;
}

/** `receipt-audit verify <files>` (text output, read and counted, not kept). */
async function runCli(files: string[]): Promise<CliRun> {
  const r = await runMeasured(process.execPath, ['bin/receipt-audit.mjs', 'verify', ...files], { keepStdout: 1 << 20, pollMs: 100 });
  const line = (re: RegExp) => re.exec(r.stdout)?.[0] ?? '?';
  return {
    seconds: r.ms / 1000,
    peakRssMiB: r.peakRssMb,
    code: r.code,
    receipts: line(/^Receipts: .*$/m),
    checkpoints: line(/^Checkpoints: .*$/m),
    problems: line(/^Problems: .*$/m),
    outputMiB: r.stdoutBytes / MiB,
  };
}

interface PageRun {
  seconds: number | null;
  peakHeapMiB: number;
  peakPssMiB: number;
  outcome: string;
  verified: number | null;
}

/** One load of `files` through the page's file input, in a browser of its own. */
async function runPage(origin: string, files: string[]): Promise<PageRun> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await (await browser.newContext({ baseURL: origin })).newPage();
    const load = await loadFilesInPage(page, files, { pollMs: 500, printEveryS: 15, timeoutS: opt.timeout, log });
    const base = { seconds: load.seconds, peakHeapMiB: load.peakHeapBytes / MiB, peakPssMiB: load.peakPssMiB };
    if (load.failure !== null) return { ...base, outcome: load.failure, verified: null };
    const v = page.getByTestId('count-verified');
    const verified = (await v.count()) > 0 ? Number((await v.innerText()).replace(/[^\d]/g, '')) : null;
    return { ...base, outcome: load.summary.slice(0, 160), verified };
  } finally {
    await browser.close();
  }
}

log(`bench:hostile: shapes ${opt.shapes.join(', ')}; ${opt.runs} run(s) each; files in ${dir}; load average ${load()}`);
const results: Record<string, { gen: Generated; cli: CliRun[]; page: PageRun[] }> = {};
const prepared = opt.shapes.map((s) => [s, shapeFiles(s)] as const);
let server: { origin: string; stop(): Promise<void> } | null = null;
try {
  if (opt.only !== 'cli') {
    const store = await ensureDemoStore(path.join(dir, 'server-store'), 200, log);
    server = await serveApp({ store: store.store, cacheDir: path.join(dir, 'server-store', 'server-cache'), port: opt.port });
  }
  for (const [shape, { files, gen }] of prepared) {
    const r = (results[shape] = { gen, cli: [] as CliRun[], page: [] as PageRun[] });
    log(`${shape}: ${gen.note}; ${(files.reduce((a, f) => a + statSync(f).size, 0) / MiB).toFixed(0)} MiB`);
    for (let run = 1; run <= opt.runs; run++) {
      if (opt.only !== 'page') {
        log(`  cli run ${run} (load ${load()}) …`);
        const c = await runCli(files);
        r.cli.push(c);
        log(
          `    ${c.seconds.toFixed(1)} s, peak RSS ${c.peakRssMiB?.toFixed(0)} MiB, exit ${c.code}; ${c.receipts}; ${c.checkpoints}; ${c.problems}; ${c.outputMiB.toFixed(1)} MiB of output`,
        );
      }
      if (server) {
        log(`  page run ${run} (load ${load()}) …`);
        const p = await runPage(server.origin, files);
        r.page.push(p);
        log(`    ${p.seconds?.toFixed(1) ?? '—'} s, JS heap peak ${p.peakHeapMiB.toFixed(0)} MiB, PSS peak ${p.peakPssMiB.toFixed(0)} MiB; ${p.outcome}`);
      }
    }
  }
} finally {
  await server?.stop();
  if (!opt.cache) rmSync(dir, { recursive: true, force: true });
}

// The report: one line per shape and runner, each run's numbers side by side.
const out: string[] = [`bench:hostile (${new Date().toISOString()}, load average after ${load()}, scale ${opt.scale})`, ''];
out.push('| shape | input | runner | time (s) | peak memory (MiB) | JS heap peak (MiB) | outcome |', '|---|---|---|---|---|---|---|');
const each = <T>(xs: T[], f: (x: T) => string) => xs.map(f).join(', ');
let disagree = false;
for (const [shape, r] of Object.entries(results)) {
  const input = `${(r.gen.bytes / MiB).toFixed(0)} MiB, ${r.gen.records.toLocaleString('en-US')} records`;
  if (r.cli.length) {
    out.push(
      `| ${shape} | ${input} | CLI | ${each(r.cli, (c) => c.seconds.toFixed(1))} | ${each(r.cli, (c) => c.peakRssMiB?.toFixed(0) ?? '?')} (RSS) | — | exit ${r.cli[0]!.code}; ${r.cli[0]!.receipts}; ${r.cli[0]!.problems} |`,
    );
  }
  if (r.page.length) {
    out.push(
      `| ${shape} | ${input} | page | ${each(r.page, (p) => p.seconds?.toFixed(1) ?? '—')} | ${each(r.page, (p) => p.peakPssMiB.toFixed(0))} (PSS) | ${each(r.page, (p) => p.peakHeapMiB.toFixed(0))} | ${r.page[0]!.outcome.slice(0, 100)} |`,
    );
  }
  const cliVerified = Number(/verified (\d+)/.exec(r.cli[0]?.receipts ?? '')?.[1] ?? NaN);
  for (const p of r.page) if (r.cli.length && p.verified !== null && p.verified !== cliVerified) disagree = true;
}
process.stdout.write(out.join('\n') + '\n');
if (opt.json) writeFileSync(opt.json, JSON.stringify(results, null, 2));
if (disagree) {
  process.stderr.write('bench:hostile: the page and the CLI verified different numbers of receipts\n');
  process.exitCode = 1;
}
