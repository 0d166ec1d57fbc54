#!/usr/bin/env node
// `npm start`: build the app when the build is missing or stale, then serve it with `next start`.
// HOST and PORT override the defaults (127.0.0.1:3000); we never listen on all interfaces unless
// asked to. Also used by Playwright's webServer (PORT=3100) and, for `needsBuild`/`runBuild`, by
// scripts/test.mjs.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = join(ROOT, 'node_modules', '.bin', 'next');
const BUILD_ID = join(ROOT, '.next', 'BUILD_ID');

// What the build is made of. A change to any of these (other than a unit test) makes it stale.
const SOURCE_DIRS = ['app', 'components', 'lib'];
const SOURCE_FILES = ['next.config.mjs', 'package.json', 'tsconfig.json', 'proxy.ts'];
const IGNORED_FILE = /\.test\.tsx?$/;

/** Environment for every Next.js child: never send telemetry. */
export function nextEnv(extra = {}) {
  // SQLITE_USE_URI lets the server open WAL-mode stores immutable=1 (nothing written beside them).
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', SQLITE_USE_URI: '1', ...extra };
}

function newestMtimeMs(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0; // a folder that does not exist yet (e.g. components/) changes nothing
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtimeMs(path));
    else if (!IGNORED_FILE.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why a build is needed, or null when .next/BUILD_ID is newer than every source. */
// Files the page loads at run time from public/vendor (copied from node_modules, not committed):
// the SQLite engine the browser opens stores with.
const VENDOR = [['sql.js/dist/sql-wasm-browser.wasm', 'sql-wasm-browser.wasm']];

function copyVendor() {
  const dir = join(ROOT, 'public', 'vendor');
  mkdirSync(dir, { recursive: true });
  for (const [from, to] of VENDOR) copyFileSync(join(ROOT, 'node_modules', from), join(dir, to));
}

export function needsBuild() {
  if (!existsSync(BUILD_ID)) return 'no build yet';
  for (const [, to] of VENDOR) if (!existsSync(join(ROOT, 'public', 'vendor', to))) return `public/vendor/${to} is missing`;
  const builtAt = statSync(BUILD_ID).mtimeMs;
  for (const file of SOURCE_FILES) {
    const path = join(ROOT, file);
    if (existsSync(path) && statSync(path).mtimeMs > builtAt) return `${file} changed`;
  }
  for (const dir of SOURCE_DIRS) {
    if (newestMtimeMs(join(ROOT, dir)) > builtAt) return `${dir}/ changed`;
  }
  return null;
}

/**
 * Runs a command with inherited output; resolves to its exit code. Signals reach the child.
 * With `timeoutMs`, a child still running then is stopped (SIGTERM, SIGKILL 10 s later) and the
 * result is 124, as with timeout(1): a test stuck in a synchronous loop ignores its own timeout.
 */
export function run(command, args, { timeoutMs, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    const forward = (signal) => child.kill(signal);
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, forward);
    let timedOut = false;
    let killTimer;
    const deadline = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          console.error(`\n${command}: still running after ${Math.round(timeoutMs / 1000)} s; stopping it.`);
          child.kill('SIGTERM');
          killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        }, timeoutMs)
      : undefined;
    const done = (code) => {
      for (const signal of signals) process.off(signal, forward);
      clearTimeout(deadline);
      clearTimeout(killTimer);
      resolve(timedOut ? 124 : code);
    };
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1;
}

/**
 * `next build` into .next; resolves to its exit code. Next prints little while it compiles (about
 * a minute on a 2-core machine), so a line every 15 s says it is still at work and for how long.
 */
export async function runBuild() {
  copyVendor();
  const started = Date.now();
  const beat = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    console.log(`start: still building, ${s} s so far (a first build takes about a minute on 2 cores; later starts reuse it)`);
  }, 15_000);
  try {
    return await run(NEXT_BIN, ['build'], { env: nextEnv() });
  } finally {
    clearInterval(beat);
  }
}

/** Why `host`:`port` cannot be listened on (one line for people), or null when it can. */
export function portProblem(host, port) {
  const n = Number(port);
  if (!/^\d+$/.test(String(port)) || n < 1 || n > 65535) return Promise.resolve(`PORT=${port} is not a port number (1 to 65535)`);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => {
      if (error.code === 'EADDRINUSE')
        resolve(`port ${n} on ${host} is already in use (another \`npm start\`?); stop it, or choose another port: PORT=${n + 1} npm start`);
      else if (error.code === 'EACCES') resolve(`no permission to listen on port ${n} on ${host}; choose a port above 1023: PORT=3000 npm start`);
      else if (error.code === 'EADDRNOTAVAIL') resolve(`HOST=${host} is not an address of this machine; leave HOST unset for 127.0.0.1`);
      else resolve(`cannot listen on ${host}:${n}: ${error.message}`);
    });
    probe.once('listening', () => probe.close(() => resolve(null)));
    probe.listen(n, host);
  });
}

async function main() {
  if (!existsSync(NEXT_BIN)) {
    console.error('start: node_modules is missing; run `npm install` first.');
    process.exit(1);
  }
  const host = process.env.HOST || '127.0.0.1';
  const port = process.env.PORT || '3000';
  // A busy port is one clear line, before minutes of building, and never Next's stack trace.
  const busy = await portProblem(host, port);
  if (busy) {
    console.error(`start: ${busy}`);
    process.exit(1);
  }

  const reason = needsBuild();
  if (reason) {
    console.log(`start: building (${reason}) ...`);
    const code = await runBuild();
    if (code !== 0) {
      console.error(`start: next build failed (exit ${code}); not starting.`);
      process.exit(code);
    }
  }

  // The demo log: created when missing (and when no other store is served), so the first page
  // a newcomer opens shows a real log verifying.
  if (!process.env.RECEIPT_DB) {
    const demo = await run(process.execPath, ['--import', 'tsx', 'tools/demo/ensure-demo.ts'], { env: nextEnv({}) });
    if (demo !== 0) {
      console.error('start: could not create the demo log (see above)');
      process.exit(demo);
    }
  }

  // Checked again: something may have taken the port while we built.
  const taken = await portProblem(host, port);
  if (taken) {
    console.error(`start: ${taken}`);
    process.exit(1);
  }
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  console.log(`start: Receipt Audit on http://${shownHost}:${port}/ (Ctrl-C to stop)`);
  const code = await run(NEXT_BIN, ['start', '-H', host, '-p', port], { env: nextEnv({ PORT: port }) });
  process.exit(code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
