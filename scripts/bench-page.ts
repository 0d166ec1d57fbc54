// Measures the page itself, in Chromium, against the real app serving demo stores: time to the
// first receipt row, receipts verified per second, and the explorer's response to typical filters
// at each size. Prints numbers; asserts nothing.
//
//   npm run bench:page -- [--sizes 100000,1000000] [--cache DIR] [--keep] [--port 3300] [--reps 10]
//                         [--overview-max N] [--timeout-min 60]
//
// For each size: a demo store (tools/demo) is generated, or reused from --cache DIR; the app is
// served on it (scripts/start.mjs with RECEIPT_DB, building first when stale); its evidence
// package is requested once, so the server's one-off export is timed apart from the page; then
// two fresh browser contexts each verify the whole log in the page:
//   `/`         the overview: navigation → summary done, and the summary's receipts and worker ms;
//   `/receipts` the explorer: navigation → first row, → verdicts shown; then, on the verified
//               log, each filter case is applied through the UI (select, click, Enter) and timed
//               in the page from the input event's timestamp to the frame after the table shows
//               the new result (a MutationObserver sees the count, header and rows change, then
//               requestAnimationFrame + setTimeout 0 marks the frame), and to the first frame
//               after the input (what a user sees as the page answering at all).
// Sizes above --overview-max skip the `/` run (the explorer run verifies the same log). Browser
// memory is the sum of PSS over the browser's processes, sampled every second. Numbers are noisy
// on a shared 2-core machine: the load average is printed before and after.
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserPssKb, ensureDemoStore, httpGet as get, serveApp } from './bench-app';
import { CHROMIUM_ARGS } from './chromium-args';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const sizes = arg('sizes', '100000,1000000')
  .split(',')
  .map((s) => Number(s.replace(/_/g, '')));
const port = Number(arg('port', '3300'));
const reps = Number(arg('reps', '10'));
const overviewMax = Number(arg('overview-max', 'Infinity'));
const timeoutMs = Number(arg('timeout-min', '60')) * 60_000;
const cacheArg = argv.includes('--cache') ? path.resolve(arg('cache', '')) : null;
const keep = argv.includes('--keep');
if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1) || !(port > 0) || !(reps > 0)) {
  throw new Error(
    'usage: npm run bench:page -- [--sizes 100000,1000000] [--cache DIR] [--keep] [--port 3300] [--reps 10] [--overview-max N] [--timeout-min 60]',
  );
}
const origin = `http://127.0.0.1:${port}`;
const log = (s: string) => process.stderr.write(`${s}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ---- stores -------------------------------------------------------------------------------

// ---- the app ------------------------------------------------------------------------------

function serve(store: string, cacheDir: string): Promise<{ stop(): Promise<void> }> {
  return serveApp({ store, cacheDir, port, onStartLine: (line) => log(`  ${line}`) });
}

// ---- the browser --------------------------------------------------------------------------

// Runs in the page before its own scripts (a string, so no bundler helper leaks into it). Records
// when the first row and the finished verification appear, long tasks, and for an armed case the
// input event's timestamp, the first frame after it, and when the table's result changes.
const INSTRUMENT = `(() => {
  const b = { firstRow: null, done: null, progress: null, longtasks: [], armed: null };
  window.__bench = b;
  const frame = (cb) => requestAnimationFrame(() => setTimeout(cb, 0));
  const sig = () => {
    const count = document.querySelector('[data-testid=explorer-count]');
    const head = document.querySelector('[data-testid=receipt-table] .thead');
    const ids = Array.from(document.querySelectorAll('[data-receipt-id]')).slice(0, 5).map((e) => e.getAttribute('data-receipt-id'));
    return [count ? count.textContent : '', head ? head.textContent : '', ids.join(',')].join('|');
  };
  b.sig = sig;
  b.arm = (event, key, expectChange) => { b.armed = { event, key, expectChange, from: sig(), input: null, nextPaint: null, dom: null, paint: null, sig: null }; };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longtasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const row = document.querySelector('[data-receipt-id]');
    if (b.firstRow === null && row) b.firstRow = performance.now();
    if (b.done === null) {
      const count = document.querySelector('[data-testid=explorer-count]');
      if (document.querySelector('[data-testid=verify-summary][data-done=true]')) b.done = performance.now();
      else if (row && row.getAttribute('data-verdict') !== 'pending' && count && !count.textContent.includes('still verifying')) b.done = performance.now();
    }
    const p = document.querySelector('[data-testid=verify-progress]');
    if (p) b.progress = p.textContent;
    const a = b.armed;
    if (a && a.input !== null && a.dom === null && a.expectChange) {
      const s = sig();
      if (s !== a.from) { a.dom = performance.now(); a.sig = s; frame(() => { a.paint = performance.now(); }); }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  for (const type of ['click', 'change', 'keydown', 'input']) {
    window.addEventListener(type, (e) => {
      const a = b.armed;
      if (!a || a.input !== null || a.event !== type || (a.key && e.key !== a.key)) return;
      a.input = e.timeStamp;
      frame(() => { a.nextPaint = performance.now(); });
    }, true);
  }
})();`;

interface Armed {
  input: number | null;
  nextPaint: number | null;
  dom: number | null;
  paint: number | null;
  sig: string | null;
}
interface BenchState {
  firstRow: number | null;
  done: number | null;
  progress: string | null;
  longtasks: [number, number][];
}

async function state<T>(page: Page, expr: string): Promise<T> {
  return (await page.evaluate(`JSON.parse(JSON.stringify(${expr}))`)) as T;
}

/** Opens `route` in a fresh context and waits for the whole log to be verified there. */
async function load(browser: Browser, route: string, label: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript({ content: INSTRUMENT });
  // The main thread's busy time (all tasks, not only the long ones) from Chromium's own counters.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  let peakKb = 0;
  const t0 = Date.now();
  let ticks = 0;
  let status = '';
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, browserPssKb());
    if (++ticks % 30 === 0) {
      void page
        .evaluate(
          `(document.querySelector('[data-testid=explorer-count]') || document.querySelector('[data-testid=verify-progress] .muted') || {}).textContent`,
        )
        .then(
          (s) => log(`  ${label} ${secs(Date.now() - t0)}: ${(status = String(s ?? ''))}; browser PSS ${fmt(peakKb / 1024)} MB at most`),
          () => undefined,
        );
    }
  }, 1000);
  try {
    await page.goto(origin + route);
    await page.waitForFunction(() => (window as unknown as { __bench: { done: number | null } }).__bench.done !== null, undefined, {
      timeout: timeoutMs,
      polling: 500,
    });
  } catch (e) {
    await context.close();
    // A crashed tab (out of memory) or the time limit: say how far it got.
    throw new Error(
      `${route} did not finish after ${secs(Date.now() - t0)} (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); last seen: ${status || 'nothing'}; browser PSS peak ${fmt(peakKb / 1024)} MB`,
    );
  } finally {
    clearInterval(sampler);
  }
  peakKb = Math.max(peakKb, browserPssKb());
  const { metrics } = await cdp.send('Performance.getMetrics');
  const busyMs = (metrics.find((x) => x.name === 'TaskDuration')?.value ?? NaN) * 1000;
  const s = await state<BenchState>(
    page,
    '{ firstRow: window.__bench.firstRow, done: window.__bench.done, progress: window.__bench.progress, longtasks: window.__bench.longtasks }',
  );
  const failed = await page.getByText(/^(Cancelled: |Could not verify )/).count();
  if (failed)
    throw new Error(
      `${route}: ${await page
        .getByText(/^(Cancelled: |Could not verify )/)
        .first()
        .innerText()}`,
    );
  const lt = s.longtasks.filter(([start]) => start <= s.done!).map(([, d]) => d);
  return { context, page, s, busyMs, peakMb: peakKb / 1024, longtasks: { n: lt.length, total: lt.reduce((a, b) => a + b, 0), max: Math.max(0, ...lt) } };
}

// ---- explorer cases -----------------------------------------------------------------------

interface Case {
  name: string;
  event: 'change' | 'click' | 'keydown' | 'input';
  key?: string;
  /** False: nothing in the table changes (typing), only the first frame after the input is timed. */
  result: boolean;
  prepare?: (page: Page) => Promise<void>;
  act: (page: Page) => Promise<void>;
}

const CASES: Case[] = [
  {
    name: 'decision = deny (select)',
    event: 'change',
    result: true,
    act: (p) =>
      p
        .getByTestId('explorer-add-filter')
        .selectOption('decision\u0000deny')
        .then(() => undefined),
  },
  {
    name: 'tool = transfer_funds (select)',
    event: 'change',
    result: true,
    act: (p) =>
      p
        .getByTestId('explorer-add-filter')
        .selectOption('toolName\u0000transfer_funds')
        .then(() => undefined),
  },
  {
    name: 'free text "egress" (Enter)',
    event: 'keydown',
    key: 'Enter',
    result: true,
    prepare: (p) => p.getByTestId('explorer-search').fill('egress'),
    act: (p) => p.getByTestId('explorer-search').press('Enter'),
  },
  { name: 'preset Security (click)', event: 'click', result: true, act: (p) => p.getByTestId('preset-security').click() },
  { name: 'sort by time (click header)', event: 'click', result: true, act: (p) => p.getByRole('columnheader', { name: /^time/ }).click() },
  { name: 'sort by cost (click header)', event: 'click', result: true, act: (p) => p.getByRole('columnheader', { name: /^cost/ }).click() },
  {
    name: 'type a letter in search',
    event: 'input',
    result: false,
    prepare: (p) => p.getByTestId('explorer-search').fill(''),
    act: (p) => p.getByTestId('explorer-search').press('e'),
  },
];
const RESET: Case = {
  name: 'back to all rows (nav link)',
  event: 'click',
  result: true,
  act: (p) => p.getByRole('navigation').getByRole('link', { name: 'Receipts', exact: true }).click(),
};

interface Sample {
  result: number | null;
  nextPaint: number;
  rows: string;
  requests: number;
}

async function timed(page: Page, c: Case, requests: { n: number }): Promise<Sample> {
  await c.prepare?.(page);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
  await page.evaluate(`window.__bench.arm(${JSON.stringify(c.event)}, ${JSON.stringify(c.key ?? null)}, ${c.result})`);
  requests.n = 0;
  await c.act(page);
  await page.waitForFunction(
    (result) => {
      const armed = (window as unknown as { __bench: { armed: { nextPaint: number | null; paint: number | null } } }).__bench.armed;
      return armed.nextPaint !== null && (!result || armed.paint !== null);
    },
    Boolean(c.result),
    { timeout: 120_000, polling: 50 },
  );
  const a = await state<Armed>(page, 'window.__bench.armed');
  return { result: c.result ? a.paint! - a.input! : null, nextPaint: a.nextPaint! - a.input!, rows: (a.sig ?? '').split(' of ')[0]!, requests: requests.n };
}

/** Paths the page requested while the cases ran (e.g. the router's RSC fetches, link prefetches). */
const requested = new Map<string, number>();

async function explore(page: Page): Promise<{ name: string; samples: Sample[] }[]> {
  const requests = { n: 0 };
  page.on('request', (r) => {
    requests.n++;
    const u = new URL(r.url());
    const key = `${r.method()} ${u.pathname.replace(/^\/receipts\/[^/]+$/, '/receipts/<id>')}${u.search.includes('_rsc') ? ' (RSC)' : ''}`;
    requested.set(key, (requested.get(key) ?? 0) + 1);
  });
  const base = await page.evaluate('window.__bench.sig()');
  const out = new Map<string, Sample[]>([...CASES, RESET].map((c) => [c.name, []]));
  for (let r = 0; r < reps; r++) {
    for (const c of CASES) {
      out.get(c.name)!.push(await timed(page, c, requests));
      if ((await page.evaluate('window.__bench.sig()')) !== base) out.get(RESET.name)!.push(await timed(page, RESET, requests));
      if ((await page.evaluate('window.__bench.sig()')) !== base) throw new Error(`${c.name}: the nav link did not bring back the unfiltered table`);
    }
  }
  return [...out].map(([name, samples]) => ({ name, samples }));
}

// ---- report -------------------------------------------------------------------------------

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}
const ms = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(0)).padStart(7);
const load1 = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const dir = cacheArg ?? mkdtempSync(path.join(os.tmpdir(), 'receipt-audit-bench-page-'));
mkdirSync(dir, { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
const say = (s: string) => process.stdout.write(`${s}\n`);
const mainThread = (r: Awaited<ReturnType<typeof load>>) =>
  `main thread busy ${secs(r.busyMs)}, ${r.longtasks.n} long tasks, ${fmt(r.longtasks.total)} ms in all, longest ${fmt(r.longtasks.max)} ms; browser PSS peak ${fmt(r.peakMb)} MB`;

/** `/`: time to the summary, and receipts per second from the summary's own count and time. */
async function overview(count: number): Promise<void> {
  const r = await load(browser, '/', `${fmt(count)} /`);
  const summary = await r.page.getByTestId('verify-summary').locator('.banner').innerText();
  await r.context.close();
  const m = /([\d,]+) receipts and ([\d,]+) checkpoints \(([\d,]+) KiB\) in ([\d,]+) ms/.exec(summary);
  if (!m) throw new Error(`unexpected summary: ${summary}`);
  const [receipts, checkpoints, kib, workerMs] = m.slice(1).map((v) => Number(v.replace(/,/g, ''))) as [number, number, number, number];
  // The last progress shown before the summary, in the assembling phase: every record had been read.
  const progress = r.s.progress ?? '';
  const records = Number(/([\d,]+) records read/.exec(progress)?.[1]?.replace(/,/g, '') ?? NaN);
  const pool = /with (\d+) workers?/.exec(progress)?.[1] ?? '?';
  say(
    `/  log                   ${fmt(receipts)} receipts (tool + child), ${fmt(checkpoints)} checkpoints, ${fmt(records)} records in all (with proofs), ${fmt(kib / 1024)} MiB`,
  );
  say(`/  verified              ${secs(r.s.done!)} after navigation; the summary: ${fmt(workerMs)} ms in the page's workers (${pool} verify workers)`);
  say(`/  rate                  ${fmt(receipts / (workerMs / 1000))} receipts/s (${fmt(records / (workerMs / 1000))} records/s)`);
  say(`/  load                  ${mainThread(r)}`);
}

/** `/receipts`: time to the first row and to the verdicts, then the filter cases. */
async function explorer(count: number): Promise<void> {
  const r = await load(browser, '/receipts', `${fmt(count)} /receipts`);
  const rows = String(await r.page.getByTestId('explorer-count').textContent()).split(' of ')[0]!;
  say(`/receipts first row      ${fmt(r.s.firstRow!)} ms after navigation`);
  say(
    `/receipts verified       ${secs(r.s.done!)} after navigation (verdicts shown): ${fmt(Number(rows.replace(/,/g, '')) / (r.s.done! / 1000))} receipts/s, page load included`,
  );
  say(`/receipts load           ${mainThread(r)}`);
  const cases = await explore(r.page);
  await r.context.close();
  say(`explorer at ${rows} rows, ${reps} repetitions: ms from the input event to the frame showing the new result, and to`);
  say(`the first frame after the input; requests the page made meanwhile, on the first repetition / the others at most`);
  say(
    `  ${'case'.padEnd(30)} ${'rows'.padStart(9)} ${'result p50'.padStart(10)} ${'p95'.padStart(7)} ${'frame p50'.padStart(10)} ${'p95'.padStart(7)} requests`,
  );
  for (const { name, samples } of cases) {
    const results = samples.flatMap((s) => (s.result === null ? [] : [s.result]));
    const frames = samples.map((s) => s.nextPaint);
    const reqs = `${samples[0]?.requests ?? 0}/${Math.max(0, ...samples.slice(1).map((s) => s.requests))}`;
    say(
      `  ${name.padEnd(30)} ${(samples[0]?.rows ?? '').padStart(9)} ${ms(pct(results, 50)).padStart(10)} ${ms(pct(results, 95))} ${ms(pct(frames, 50)).padStart(10)} ${ms(pct(frames, 95))} ${reqs.padStart(8)}`,
    );
  }
  say(`  requests during the cases: ${[...requested].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}`);
  requested.clear();
}

const cpu = os.cpus();
say(`Receipt Audit page benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
say(
  `machine: ${cpu.length} CPUs (${cpu[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Chromium ${browser.version()}; node ${process.version}`,
);
say(`load average (1, 5, 15 min) at start: ${load1()} (other work on the machine makes the numbers noisy)`);
try {
  for (const count of sizes) {
    const { store, generatedMs } = await ensureDemoStore(dir, count, log);
    const server = await serve(store, path.join(dir, 'server-cache'));
    try {
      const pkg = await get(`${origin}/v1/evidence/package`);
      if (pkg.status !== 200) throw new Error(`GET /v1/evidence/package: HTTP ${pkg.status}`);
      say(`\n== ${fmt(count)} tool receipts ==`);
      say(`store                    ${store}${generatedMs === null ? ' (reused)' : ` (generated in ${secs(generatedMs)})`}`);
      say(
        `GET /v1/evidence/package ${secs(pkg.ms)} (the server exports the store on its first request, then serves it from ${path.join(dir, 'server-cache')})`,
      );
      for (const [route, run] of [
        ['/', overview],
        ['/receipts', explorer],
      ] as const) {
        if (route === '/' && count > overviewMax) continue;
        try {
          await run(count);
        } catch (e) {
          say(`${route.padEnd(24)} FAILED: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    } finally {
      await server.stop();
    }
  }
  say(`\nload average at the end: ${load1()}`);
} finally {
  await browser.close();
  if (!cacheArg && !keep) rmSync(dir, { recursive: true, force: true });
  else log(`stores kept in ${dir}`);
}
