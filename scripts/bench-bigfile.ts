// Browser memory while the page verifies one large log through its file input (issue 7: a 2 GB
// log must stay under 2.5 GB). Prints, every 10 s, the summed PSS of Chromium's processes and
// the JS heap of the page and its workers; then the peaks, the time, the verdict counts, and the
// PSS once the browser has been idle for 30 s. Prints numbers; asserts nothing.
//
//   npm run bench:bigfile -- --file PATH [--file PATH …] [--port 3460] [--cache bench-out]
//
// A 2.0 GB NDJSON of 1.4 million valid tool receipts: `npm run bench -- --count 1400000 --runs 1`
// leaves its package under bench-out/; its receipts.ndjson is that file. The server the page
// comes from serves a small demo store of its own (as `npm run bench` does).
import { chromium } from '@playwright/test';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserPssKb, ensureDemoStore, serveApp } from './bench-app';
import { loadFilesInPage } from './bench/page-load';
import { CHROMIUM_ARGS } from './chromium-args';

const argv = process.argv.slice(2);
const files: string[] = [];
let port = 3460;
let cache = 'bench-out';
for (let i = 0; i < argv.length; i += 2) {
  const [name, value] = [argv[i], argv[i + 1]];
  if (value === undefined) throw new Error(`bench:bigfile: ${name} needs a value`);
  if (name === '--file') files.push(path.resolve(value));
  else if (name === '--port') port = Number(value);
  else if (name === '--cache') cache = value;
  else throw new Error(`bench:bigfile: unknown option ${name}`);
}
if (files.length === 0) {
  process.stderr.write('usage: npm run bench:bigfile -- --file PATH [--file PATH …] [--port 3460] [--cache bench-out]\n');
  process.exit(2);
}

const log = (s: string) => process.stderr.write(`${s}\n`);
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
/** PSS of every Chromium process under this one, in MiB. */
const pssMiB = () => Math.round(browserPssKb() / 1024);

const bytes = files.reduce((a, f) => a + statSync(f).size, 0);
log(
  `bench:bigfile: ${files.length} file(s), ${(bytes / 1e9).toFixed(2)} GB; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const serverStore = await ensureDemoStore(path.join(cache, 'bench-server-store'), 200, log);
const server = await serveApp({ store: serverStore.store, cacheDir: path.join(cache, 'bench-server-store', 'server-cache'), port });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const page = await (await browser.newContext({ baseURL: server.origin })).newPage();
  const load = await loadFilesInPage(page, files, { pollMs: 1000, printEveryS: 10, log });
  if (load.failure !== null) throw new Error(`bench:bigfile: ${load.failure}`);
  const seconds = load.seconds!;
  const text = load.summary.slice(0, 300);
  const peakPss = Math.round(load.peakPssMiB);
  const peakHeap = load.peakHeapBytes;
  await new Promise((r) => setTimeout(r, 30_000));
  const idle = pssMiB();
  process.stdout.write(
    [
      `files: ${files.join(', ')} (${(bytes / 1e9).toFixed(2)} GB)`,
      `verified in ${seconds.toFixed(0)} s: ${text}`,
      `peak PSS of all Chromium processes: ${peakPss} MiB (sampled every second)`,
      `peak JS heap, page and workers summed: ${mb(peakHeap)} MiB`,
      `PSS after 30 s idle: ${idle} MiB`,
      `load average after: ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    ].join('\n') + '\n',
  );
} finally {
  await browser.close();
  await server.stop();
}
