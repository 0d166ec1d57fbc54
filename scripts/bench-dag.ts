// The receipt DAG's speed, in numbers (asserts nothing):
//   1. the DAG model on a verified log of --count tool receipts (default 100,000): the session
//      index, one session's graph, every session's graph, a search (ms, median of 5);
//   2. ELK's layered layout, as the layout worker runs it (lib/readers/dag-layout.ts, elkjs
//      bundled), of about 1,000 and 5,000 nodes of that log (whole sessions, the page's node sizes);
//   3. with --page: the page in Chromium. A demo store with about 5,000 DAG nodes (--page-count
//      tool receipts, default 26,000) is served (scripts/start.mjs, RECEIPT_DB, on --port), /dag
//      shows all its sessions, and the frame intervals are recorded while panning by mouse drags,
//      as the page opens it (at 80% on the first requests) and zoomed to fit (every node in view).
//
//   npm run bench:dag -- [--count 100000] [--page | --page-only] [--page-count 26000] [--port 3300] [--cache DIR]
//
// Numbers are noisy on a shared machine: the load average is printed with them.
import { chromium } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ELK from 'elkjs/lib/elk.bundled.js';
import { NODE_CEILING, dagGraph } from '../lib/readers/dag';
import { dagSearch } from '../lib/readers/dag-search';
import { dagSessions } from '../lib/readers/dag-sessions';
import { type LayoutRequest, runLayout } from '../lib/readers/dag-layout';
import { verifiedLog } from '../test/support/reader-log';
import { serveApp } from './bench-app';
import { generateDemoStore } from '../tools/demo/generate';
import { CHROMIUM_ARGS } from './chromium-args';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const count = Number(arg('count', '100000').replace(/_/g, ''));
const pageCount = Number(arg('page-count', '26000').replace(/_/g, ''));
const port = Number(arg('port', '3300'));
const cache = path.resolve(arg('cache', mkdtempSync(path.join(os.tmpdir(), 'bench-dag-'))));
const out = (s: string) => process.stdout.write(`${s}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// The page's node sizes (components/readers/dag/dag-nodes.tsx).
const RECEIPT_SIZE = { width: 236, height: 74 };
const REQUEST_SIZE = { width: 168, height: 50 };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function timeIt(f: () => unknown, reps = 5): number {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

async function store(n: number): Promise<{ path: string; key: string }> {
  const dir = path.join(cache, `demo-${n}`);
  mkdirSync(dir, { recursive: true });
  const t = performance.now();
  const r = await generateDemoStore({ count: n, out: dir });
  out(`  generated ${fmt(n)} tool receipts (${fmt(r.counts.childReceipts)} child, ${fmt(r.counts.sessions)} sessions) in ${fmt(performance.now() - t)} ms`);
  return { path: r.storePath, key: r.kernelKeyHex };
}

async function modelAndLayout(): Promise<void> {
  out(`DAG model and layout on ${fmt(count)} tool receipts (load ${load()})`);
  const s = await store(count);
  let t = performance.now();
  const { store: rows } = await verifiedLog([s.path], [s.key]);
  out(`  verified as the CLI does: ${fmt(rows.length)} rows in ${fmt(performance.now() - t)} ms`);
  rows.positions();
  const index = dagSessions(rows);
  const largest = index.sessions.reduce((m, x) => (x.child + x.tool > m.child + m.tool ? x : m));
  out(
    `  dagSessions (every session, counts):   ${timeIt(() => dagSessions(rows)).toFixed(1)} ms  (${fmt(index.sessions.length)} sessions, ${fmt(index.child)} child + ${fmt(index.tool)} tool receipts)`,
  );
  out(`  dagGraph (largest session, ${largest.child + largest.tool} receipts): ${timeIt(() => dagGraph(rows, { session: largest.sessionId })).toFixed(1)} ms`);
  const all = dagGraph(rows, { all: true }, { ceiling: Infinity });
  out(
    `  dagGraph (all sessions, ${fmt(all.visible)} nodes, no ceiling): ${timeIt(() => dagGraph(rows, { all: true }, { ceiling: Infinity }), 3).toFixed(1)} ms`,
  );
  out(`  dagGraph (all sessions, past the ${fmt(NODE_CEILING)} ceiling → too large): ${timeIt(() => dagGraph(rows, { all: true }), 3).toFixed(1)} ms`);
  out(`  dagSearch ("file_read"):               ${timeIt(() => dagSearch(rows, 'file_read')).toFixed(1)} ms`);

  // Whole sessions, in the order the page draws them, up to about n nodes.
  const elk = new ELK();
  const request = (n: number, id: number): LayoutRequest => {
    const sessions = new Set<string>();
    let nodes = 0;
    const per = new Map<string, number>();
    for (const x of all.nodes) per.set(x.session, (per.get(x.session) ?? 0) + 1);
    for (const [session, k] of per) {
      if (nodes >= n) break;
      sessions.add(session);
      nodes += k;
    }
    const chosen = all.nodes.filter((x) => sessions.has(x.session));
    const keys = new Set(chosen.map((x) => x.key));
    return {
      id,
      nodes: chosen.map((x) => ({ id: x.key, ...(x.kind === 'request' ? REQUEST_SIZE : RECEIPT_SIZE) })),
      edges: all.edges.filter((e) => keys.has(e.source) && keys.has(e.target)),
    };
  };
  await runLayout(elk, request(300, 0), () => performance.now()); // JIT warm-up
  for (const n of [1_000, 5_000]) {
    const req = request(n, n);
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      const r = await runLayout(elk, req, () => performance.now());
      if (!r.ok) throw new Error(r.message);
      runs.push(performance.now() - t);
    }
    out(
      `  ELK layered layout, ${fmt(req.nodes.length)} nodes / ${fmt(req.edges.length)} edges: median ${fmt(median(runs))} ms (runs ${runs.map(fmt).join(', ')} ms)`,
    );
  }
  out(`  (load ${load()})`);
}

async function serve(dbPath: string): Promise<() => Promise<void>> {
  const app = await serveApp({ store: dbPath, cacheDir: path.join(cache, 'server-cache'), port });
  return () => app.stop();
}

async function pageFrames(): Promise<void> {
  out(`\nThe page: /dag with every session of ${fmt(pageCount)} tool receipts (load ${load()})`);
  const s = await store(pageCount);
  const stop = await serve(s.path);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    let t = performance.now();
    await page.goto(`http://127.0.0.1:${port}/dag?all=1`);
    const canvas = page.getByTestId('dag-canvas');
    const tooLarge = page.getByTestId('dag-too-large');
    await canvas.or(tooLarge).waitFor({ timeout: 10 * 60_000 });
    if (await tooLarge.count()) {
      out(`  ${await tooLarge.getAttribute('data-visible')} nodes: past the ceiling; use a smaller --page-count`);
      return;
    }
    out(`  verified in the page, model built: ${fmt(performance.now() - t)} ms after navigation`);
    await page.locator('[data-testid="dag-canvas"][data-layout="done"]').waitFor({ timeout: 10 * 60_000 });
    await page.locator('[data-testid="dag-node"]').first().waitFor();
    out(
      `  laid out and drawn: ${fmt(performance.now() - t)} ms after navigation; ${await canvas.getAttribute('data-nodes')} nodes, layout ${await canvas.getAttribute('data-layout-ms')} ms in the worker`,
    );
    const box = (await canvas.locator('.react-flow__pane').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const pan = async (label: string) => {
      // Plain script text: the bundler's helpers do not exist in the page.
      await page.evaluate(`(() => {
        window.__frames = [];
        window.__on = true;
        const tick = (ts) => { window.__frames.push(ts); if (window.__on) requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
      })()`);
      t = performance.now();
      for (let k = 0; k < 4; k++) {
        await page.mouse.move(cx, cy);
        await page.mouse.down();
        for (let i = 1; i <= 30; i++) await page.mouse.move(cx + (k % 2 ? -1 : 1) * i * 10, cy + (k < 2 ? 1 : -1) * i * 5);
        await page.mouse.up();
      }
      const frames = (await page.evaluate(`(() => { window.__on = false; return window.__frames; })()`)) as number[];
      const gaps = frames.slice(1).map((f, i) => f - frames[i]!);
      const dom = await canvas.locator('[data-testid="dag-node"]').count();
      out(
        `  pan (${label}, ${fmt(dom)} nodes in the DOM): ${fmt(gaps.length)} frames in ${fmt(performance.now() - t)} ms; frame interval median ${median(gaps).toFixed(1)} ms, p95 ${[...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.95)]!.toFixed(1)} ms, max ${Math.max(...gaps).toFixed(1)} ms, ${gaps.filter((g) => g > 50).length} over 50 ms`,
      );
    };
    await pan('as the page opens it, on the first requests at 80%');
    // The fit button: every node in view, so every node in the DOM.
    t = performance.now();
    await canvas.locator('.react-flow__controls-fitview').click();
    await page.waitForFunction(
      (min) => document.querySelectorAll('[data-testid="dag-canvas"] [data-testid="dag-node"]').length >= min,
      Number(await canvas.getAttribute('data-nodes')) * 0.9,
      { timeout: 10 * 60_000 },
    );
    out(`  fit button → every node drawn: ${fmt(performance.now() - t)} ms`);
    await pan('zoomed to fit');
  } finally {
    await browser.close();
    await stop();
  }
  out(`  (load ${load()})`);
}

if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(pageCount) || pageCount < 1) {
  throw new Error('usage: npm run bench:dag -- [--count 100000] [--page] [--page-count 26000] [--port 3300] [--cache DIR]');
}
if (!existsSync(cache)) mkdirSync(cache, { recursive: true });
if (!argv.includes('--page-only')) await modelAndLayout();
if (argv.includes('--page') || argv.includes('--page-only')) await pageFrames();
