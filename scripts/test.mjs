#!/usr/bin/env node
// `npm test`: every test, in order — ensure Chromium, type check, lint (Biome), Vitest (unit + CLI), `next build`
// when stale, Playwright (browser), the benchmark smoke (`npm run bench` at 2,000 receipts). Child
// output streams live; each runner also writes a JSON report, which we count. The last line is
// exactly `N passed, N failed`, counting individual tests (the type check, the lint and the
// benchmark smoke are one test each; a step that dies without a JSON report is one failure), because CI reads
// only that line. Exit status is non-zero when anything failed.
//
//   npm test                                everything
//   npm test -- --unit-only [vitest args]   Vitest only, e.g. `--unit-only lib/merkle`
//   npm test -- --e2e-only [playwright args] build if stale + Playwright, e.g. `--e2e-only --grep home`
//   npm test -- --bench-only                build if stale + the benchmark smoke
//
// The e2e step also needs a fleet (e2e/fleet.spec.ts): a two-shard ClickHouse cluster in the work
// folder on ports 19421… (tools/fleet.mjs), filled with the demo fleet (tools/fleet-demo.ts),
// served by Playwright's second web server. The cluster is stopped at the end whatever happened,
// Ctrl-C included, as is one the unit tests started in FLEET_TEST_DIR: servers left running would
// hold their ports and write into a folder that is deleted.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, needsBuild, run, runBuild } from './start.mjs';

const CHROMIUM = '/usr/bin/chromium';
// Vitest cannot interrupt a test stuck in a synchronous loop, so the step has its own deadline,
// keeping a CI run well under 30 minutes. Playwright has globalTimeout in its config instead.
const UNIT_DEADLINE_MIN = Number(process.env.UNIT_DEADLINE_MIN) || 15;
// The benchmark smoke (2,000 receipts, one run of each runner) takes under a minute; a hang must not eat CI's time.
const BENCH_DEADLINE_MIN = 10;
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
// The e2e fleet's ports: base + 1, 2 (HTTP), + 11, 12 (native), + 21, 22 (interserver). Away from
// fleet:up's default (19120), so a developer's own cluster keeps running beside a test run.
const FLEET_BASE_PORT = 19420;
// Tool receipts per demo kernel: three pages of 200 between them at least, and a multiple of the
// demo's checkpoint batch (100), so every receipt is covered (e2e/fleet.spec.ts counts on both).
const FLEET_DEMO_COUNT = 600;

process.env.NEXT_TELEMETRY_DISABLED = '1'; // inherited by every child

function parseArgs(argv) {
  const unitOnly = argv.includes('--unit-only');
  const e2eOnly = argv.includes('--e2e-only');
  const benchOnly = argv.includes('--bench-only');
  const rest = argv.filter((a) => a !== '--unit-only' && a !== '--e2e-only' && a !== '--bench-only');
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: npm test [-- --unit-only [vitest args…] | --e2e-only [playwright args…] | --bench-only]');
    process.exit(0);
  }
  if ([unitOnly, e2eOnly, benchOnly].filter(Boolean).length > 1) fail('test: --unit-only, --e2e-only and --bench-only exclude each other.');
  if (rest.length > 0 && !unitOnly && !e2eOnly) {
    fail(`test: extra arguments (${rest.join(' ')}) need --unit-only or --e2e-only in front of them.`);
  }
  const all = !unitOnly && !e2eOnly && !benchOnly;
  return {
    typecheck: all,
    lint: all,
    unit: all || unitOnly,
    e2e: all || e2eOnly,
    bench: all || benchOnly,
    unitArgs: unitOnly ? rest : [],
    e2eArgs: e2eOnly ? rest : [],
  };
}

function fail(line) {
  console.error(line);
  process.exit(2);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function banner(text) {
  console.log(`\n==> ${text}`);
}

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/** Installs Debian's chromium when missing (as root). Returns null when ready, else a reason. */
async function ensureChromium() {
  if (existsSync(CHROMIUM)) return null;
  if (process.getuid?.() !== 0) {
    console.error(`test: ${CHROMIUM} is missing; install Debian's chromium first: sudo apt-get update && sudo apt-get install -y chromium`);
    process.exit(1);
  }
  banner(`chromium: ${CHROMIUM} missing; apt-get install -y chromium`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await run('apt-get', ['update'], { env });
  if (update !== 0) return `apt-get update failed (exit ${update})`;
  const install = await run('apt-get', ['install', '-y', 'chromium'], { env });
  if (install !== 0) return `apt-get install chromium failed (exit ${install})`;
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} still missing after install`;
}

/**
 * Runs a command like `run`, but captures its stdout (echoed as it comes) and resolves to
 * { code, stdout }. Signals reach the child, as with `run`.
 */
function runCapture(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], ...options });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    const forward = (signal) => child.kill(signal);
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, forward);
    const done = (code) => {
      for (const signal of signals) process.off(signal, forward);
      resolve({ code, stdout });
    };
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      done(127);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

const fleetScript = (command, dir) =>
  run(process.execPath, ['--import', 'tsx', 'tools/fleet.mjs', command], { env: { ...process.env, FLEET_DIR: dir, FLEET_BASE_PORT: String(FLEET_BASE_PORT) } });

/**
 * Starts the e2e fleet's cluster in `dir` and ingests the demo fleet (written under `demoDir`).
 * Resolves to { url } (shard 1's, as fleet:up prints it last) or { note } saying what failed.
 */
async function startFleet(dir, demoDir) {
  banner(`fleet: fleet.mjs up (FLEET_DIR=${dir}, FLEET_BASE_PORT=${FLEET_BASE_PORT})`);
  const env = { ...process.env, FLEET_DIR: dir, FLEET_BASE_PORT: String(FLEET_BASE_PORT) };
  const up = await runCapture(process.execPath, ['--import', 'tsx', 'tools/fleet.mjs', 'up'], { env });
  const url = up.stdout.trim().split('\n').pop()?.trim() ?? '';
  if (up.code !== 0) return { note: `fleet.mjs up exited ${up.code}` };
  if (!/^http:\/\/127\.0\.0\.1:\d+\/$/.test(url)) return { note: `fleet.mjs up did not end with a URL (last line: ${JSON.stringify(url.slice(0, 80))})` };
  banner(`fleet: fleet-demo.ts --count ${FLEET_DEMO_COUNT} --clickhouse ${url}`);
  // CLICKHOUSE_URL as well as --clickhouse: should the flag ever be misread again, the demo still
  // goes to this cluster, never to the default one (a developer's, on 19121).
  const demoEnv = { ...process.env, FLEET_DEMO_DIR: demoDir, CLICKHOUSE_URL: url, FLEET_BASE_PORT: String(FLEET_BASE_PORT) };
  const ingest = await run(process.execPath, ['--import', 'tsx', 'tools/fleet-demo.ts', '--count', String(FLEET_DEMO_COUNT), '--clickhouse', url], {
    env: demoEnv,
  });
  if (ingest !== 0) return { note: `fleet-demo.ts exited ${ingest}` };
  return { url };
}

/** Stops the cluster recorded in `dir` (fleet.mjs down), when one was started there. */
async function stopFleet(dir) {
  if (!existsSync(join(dir, 'pids.json'))) return;
  banner(`fleet: fleet.mjs down (FLEET_DIR=${dir})`);
  const code = await fleetScript('down', dir);
  if (code !== 0) console.error(`test: could not stop the cluster in ${dir} (exit ${code}); see ps aux | grep clickhouse-server`);
}

/** Vitest's JSON report → counts. A file that failed to load or run counts as one failure. */
function countVitest(report, exitCode) {
  if (!report) return { passed: 0, failed: 1, note: `no JSON report (exit ${exitCode})` };
  let failed = report.numFailedTests ?? 0;
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
  );
  failed += brokenFiles.length;
  let note = brokenFiles.length ? `${brokenFiles.length} file(s) failed outside a test` : '';
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    note = `vitest exited ${exitCode} with no failing test (unhandled error?)`;
  }
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  return { passed: report.numPassedTests ?? 0, failed, skipped, note };
}

// The benchmark smoke: every number the JSON report must carry, each positive and finite. No timing is judged.
const BENCH_FIELDS = [
  'count',
  'runs',
  'receipts',
  'native.receipts_per_s',
  'native.peak_memory_mb',
  'cli.receipts_per_s',
  'cli.peak_memory_mb',
  'browser.receipts_per_s',
  'browser.peak_memory_mb',
  'browser.js_heap_peak_mb',
  'browser.first_row_ms',
  'native.receipts_per_s_min',
  'cli.receipts_per_s_max',
  'ratios.cli_over_native',
  'ratios.browser_over_native',
  'ratios.rounds.0.cli_over_native',
  'ratios.rounds.0.browser_over_native',
  'scaling.0.count',
  'scaling.0.native_us_per_receipt',
  'scaling.0.cli_us_per_receipt',
  'scaling.0.browser_us_per_receipt',
];

/** The bench run's exit code and JSON report → counts (one test). */
function countBench(report, exitCode) {
  if (exitCode !== 0) return { passed: 0, failed: 1, note: `npm run bench exited ${exitCode}` };
  if (!report) return { passed: 0, failed: 1, note: 'no JSON report' };
  const bad = BENCH_FIELDS.filter((f) => {
    const v = f.split('.').reduce((o, k) => (o == null ? undefined : o[k]), report);
    return !(typeof v === 'number' && Number.isFinite(v) && v > 0);
  });
  if (bad.length) return { passed: 0, failed: 1, note: `not a positive number in the JSON: ${bad.join(', ')}` };
  return { passed: 1, failed: 0, note: '' };
}

/** Playwright's JSON report → counts. Flaky (passed on retry) counts as passed. */
function countPlaywright(report, exitCode) {
  if (!report?.stats) return { passed: 0, failed: 1, note: `no JSON report (exit ${exitCode})` };
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
  const errors = report.errors?.length ?? 0; // e.g. web server did not start, a spec did not compile
  let failed = unexpected + errors;
  let note = errors ? `${errors} error(s) outside a test` : '';
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    note = `playwright exited ${exitCode} with no failing test`;
  }
  return { passed: expected + flaky, failed, skipped, note };
}

class Interrupted extends Error {
  constructor(signal) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
  }
}

async function main() {
  const selected = parseArgs(process.argv.slice(2));
  if (!existsSync(bin('vitest')) || !existsSync(bin('playwright'))) {
    fail('test: node_modules is missing or incomplete; run `npm install` first.');
  }
  const work = mkdtempSync(join(tmpdir(), 'receipt-audit-test-'));
  const results = []; // { step, passed, failed, skipped, note, ms }
  const began = performance.now();
  // The clusters this run may start: the e2e fleet's, and the unit tests' (they are told where).
  const fleetDir = join(work, 'fleet-e2e');
  const unitFleetDir = join(work, 'fleet-unit');

  // Ctrl-C (or a SIGTERM from CI) must not kill this process before `finally` stops the clusters,
  // which run detached and would outlive it. The running child still gets the signal (`run`
  // forwards it) and ends its step; no further step starts.
  let interrupted = null;
  const onSignal = (signal) => {
    if (!interrupted) console.error(`\ntest: ${signal}: finishing this step, then stopping the clusters; no further step runs.`);
    interrupted ??= signal;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
  const stopIfInterrupted = () => {
    if (interrupted) throw new Interrupted(interrupted);
  };

  try {
    let chromiumProblem = null;
    if (selected.e2e || selected.bench) {
      const { value, ms } = await timed(ensureChromium);
      chromiumProblem = value;
      if (ms > 50 || value) {
        results.push({ step: 'chromium', passed: 0, failed: value ? 1 : 0, note: value ?? 'installed', ms });
      }
    }

    stopIfInterrupted();
    if (selected.typecheck) {
      banner('typecheck: tsc --noEmit -p tsconfig.json');
      const { value: code, ms } = await timed(() => run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']));
      results.push({ step: 'typecheck', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, ms });
    }
    stopIfInterrupted();
    if (selected.lint) {
      banner('lint: biome check . (npm run lint)');
      const { value: code, ms } = await timed(() => run(bin('biome'), ['check', '.']));
      results.push({ step: 'lint', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, ms });
    }

    stopIfInterrupted();
    if (selected.unit) {
      const out = join(work, 'vitest.json');
      const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, '--passWithNoTests'];
      args.push(...selected.unitArgs);
      banner(`unit: vitest ${args.join(' ')}`);
      const timeoutMs = UNIT_DEADLINE_MIN * 60_000;
      // A unit test that needs a cluster starts it in FLEET_TEST_DIR; `finally` stops it.
      const env = { ...process.env, FLEET_TEST_DIR: unitFleetDir };
      const { value: code, ms } = await timed(() => run(bin('vitest'), args, { timeoutMs, env }));
      const counts = countVitest(readJson(out), code);
      if (code === 124) counts.note = `stopped after ${UNIT_DEADLINE_MIN} min (UNIT_DEADLINE_MIN)`;
      results.push({ step: 'unit', ...counts, ms });
    }

    stopIfInterrupted();
    let buildOk = false;
    if ((selected.e2e || selected.bench) && !chromiumProblem) {
      const reason = needsBuild();
      buildOk = true;
      if (reason) {
        banner(`build: next build (${reason})`);
        const { value: code, ms } = await timed(runBuild);
        buildOk = code === 0;
        results.push({ step: 'build', passed: 0, failed: buildOk ? 0 : 1, note: buildOk ? 'built' : `exit ${code}`, ms });
      } else {
        results.push({ step: 'build', passed: 0, failed: 0, note: 'up to date', ms: 0 });
      }
    }

    stopIfInterrupted();
    if (selected.e2e && !chromiumProblem) {
      if (buildOk) {
        // Without the fleet Playwright still runs: the fleet specs then fail, saying why.
        const { value: fleet, ms: fleetMs } = await timed(() => startFleet(fleetDir, join(work, 'fleet-demo')));
        if (fleet.url) results.push({ step: 'fleet', passed: 0, failed: 0, note: `demo fleet at ${fleet.url}`, ms: fleetMs });
        else results.push({ step: 'fleet', passed: 0, failed: 1, note: fleet.note, ms: fleetMs });
        stopIfInterrupted();
        const out = join(work, 'playwright.json');
        const args = ['test', '--reporter=list,json', ...selected.e2eArgs];
        banner(`e2e: playwright ${args.join(' ')}`);
        // FLEET_E2E_PROBLEM: what went wrong, for the fleet specs' failure message (e2e/fleet-server.ts).
        const fleetEnv = fleet.url ? { FLEET_E2E_URL: fleet.url } : { FLEET_E2E_PROBLEM: fleet.note };
        const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out, ...fleetEnv };
        const { value: code, ms } = await timed(() => run(bin('playwright'), args, { env }));
        results.push({ step: 'e2e', ...countPlaywright(readJson(out), code), ms });
      } else {
        results.push({ step: 'e2e', passed: 0, failed: 0, note: 'not run: build failed', ms: 0 });
      }
    }

    stopIfInterrupted();
    // After e2e: it serves the build on its own port (3400), which must be free.
    if (selected.bench && !chromiumProblem) {
      if (buildOk) {
        const out = join(work, 'bench.json');
        const args = ['run', 'bench', '--', '--count', '2000', '--runs', '1', '--json', out];
        banner(`bench: npm ${args.join(' ')}`);
        const { value: code, ms } = await timed(() => run('npm', args, { timeoutMs: BENCH_DEADLINE_MIN * 60_000 }));
        const counts = countBench(readJson(out), code);
        if (code === 124) counts.note = `stopped after ${BENCH_DEADLINE_MIN} min`;
        results.push({ step: 'bench', ...counts, ms });
      } else {
        results.push({ step: 'bench', passed: 0, failed: 0, note: 'not run: build failed', ms: 0 });
      }
    }
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
    results.push({ step: 'interrupt', passed: 0, failed: 1, note: `${e.signal}: the remaining steps did not run`, ms: 0 });
  } finally {
    // Before the work folder goes: the clusters keep their data in it.
    await stopFleet(fleetDir);
    await stopFleet(unitFleetDir);
    rmSync(work, { recursive: true, force: true });
  }

  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  console.log('\n==> summary');
  for (const r of results) {
    const counts = `passed ${r.passed}  failed ${r.failed}${r.skipped ? `  skipped ${r.skipped}` : ''}`;
    const note = r.note ? `  (${r.note})` : '';
    console.log(`[${r.step}]`.padEnd(12) + counts.padEnd(34) + `${(r.ms / 1000).toFixed(1).padStart(6)} s${note}`);
  }
  console.log(`[total]`.padEnd(46) + `${((performance.now() - began) / 1000).toFixed(1).padStart(6)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

await main();
