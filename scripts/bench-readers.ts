// Measures the reader views at scale: builds a demo store of N tool receipts (tools/demo),
// verifies it the way the command line does and fills the page's RowStore from its views
// (test/support/reader-log.ts), then times each reader aggregation; and, unless --no-page, the
// real page in Chromium: the app is served on that store, the log verified in the page, and each
// reader route opened from the explorer by its nav link (the log already verified, as a reader
// moves between views), timed from the click to the frame after the view is drawn (its charts'
// canvases included). Prints numbers; asserts nothing.
//
//   npm run bench:readers -- [--count 100000] [--reps 15] [--cache DIR] [--port 3310] [--no-page]
//
// Another view's aggregations join by adding entries to READERS; its route to ROUTES.
import { chromium, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RowStore } from '../lib/query/row-store';
import { guardMatrix } from '../lib/readers/guard-matrix';
import { type VerifiedScope, verifiedScope } from '../lib/readers/scope';
import { denialTotals, denialsOverTime, flaggedReceipts, verificationFailures } from '../lib/readers/security';
import { healthSummary } from '../lib/readers/security-health';
import { budgetDenials, budgetRows, currencyTotals, holderTotals, settlementLists } from '../lib/readers/finance';
import { oracleConversions } from '../lib/readers/finance-oracle';
import { spendOverTime } from '../lib/readers/finance-spend';
import { policyTimeline, trustAndKinds } from '../lib/readers/compliance';
import { coverageOverTime, rangeReport, reportColumns } from '../lib/readers/compliance-report';
import { verifiedLog } from '../test/support/reader-log';
import type { VerificationReport } from '../lib/verdict/report';
import { ensureDemoStore, serveApp } from './bench-app';
import { CHROMIUM_ARGS } from './chromium-args';

interface Log {
  store: RowStore;
  report: VerificationReport;
  scope: VerifiedScope;
}

/** Every reader aggregation, by name: what each view computes when it renders. */
const READERS: { name: string; run: (l: Log) => unknown }[] = [
  { name: 'scope: verifiedScope', run: (l) => verifiedScope(l.store) },
  { name: 'security: denialTotals', run: (l) => denialTotals(l.store, l.scope) },
  { name: 'security: denialsOverTime by guard', run: (l) => denialsOverTime(l.store, l.scope, 'guard') },
  { name: 'security: denialsOverTime by tool', run: (l) => denialsOverTime(l.store, l.scope, 'tool') },
  { name: 'security: guardMatrix', run: (l) => guardMatrix(l.store, l.scope) },
  { name: 'security: verificationFailures', run: (l) => verificationFailures(l.store, l.report) },
  {
    name: 'security: flaggedReceipts ×2',
    run: (l) => [flaggedReceipts(l.store, l.report, 'unsigned_field'), flaggedReceipts(l.store, l.report, 'algorithm_mismatch')],
  },
  {
    name: 'security: healthSummary',
    run: (l) =>
      healthSummary({
        report: l.report,
        scope: l.scope,
        failures: verificationFailures(l.store, l.report),
        denials: denialTotals(l.store, l.scope),
        unsigned: 0,
        algorithm: 0,
        pinned: new Set(),
      }),
  },
  { name: 'finance: currencyTotals', run: (l) => currencyTotals(l.store, l.scope) },
  { name: 'finance: holderTotals', run: (l) => holderTotals(l.store, l.scope) },
  { name: 'finance: budgetRows', run: (l) => budgetRows(l.store, l.scope, l.report) },
  { name: 'finance: settlementLists', run: (l) => settlementLists(l.store, l.scope) },
  { name: 'finance: budgetDenials', run: (l) => budgetDenials(l.store, l.scope) },
  { name: 'finance: oracleConversions', run: (l) => oracleConversions(l.store, l.scope) },
  { name: 'finance: spendOverTime', run: (l) => spendOverTime(l.store, l.scope) },
  { name: 'compliance: policyTimeline', run: (l) => policyTimeline(l.store, l.scope.rows) },
  { name: 'compliance: trustAndKinds', run: (l) => trustAndKinds(l.store, l.scope.rows) },
  { name: 'compliance: reportColumns (once per report)', run: (l) => reportColumns(l.store, l.report) },
  {
    name: 'compliance: rangeReport + coverageOverTime',
    run: (l) => {
      const columns = reportColumns(l.store, l.report);
      return [rangeReport(l.store, l.report, {}, columns), columns && coverageOverTime(l.store, l.scope.rows, columns.inclusion)];
    },
  },
];

/** Reader routes: the page is drawn when `ready` is in the DOM. */
const ROUTES: { link: string; path: string; ready: string }[] = [
  { link: 'Security', path: '/security', ready: '[data-testid=security-view]' },
  { link: 'Finance', path: '/finance', ready: '[data-testid=finance-view]' },
  { link: 'Compliance', path: '/compliance', ready: '[data-testid=compliance]' },
];

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const count = Number(arg('count', '100000').replace(/_/g, ''));
const reps = Number(arg('reps', '15'));
const port = Number(arg('port', '3310'));
const cacheArg = argv.includes('--cache') ? path.resolve(arg('cache', '')) : null;
const say = (s: string) => process.stdout.write(`${s}\n`);
const log = (s: string) => process.stderr.write(`${s}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function aggregations(storePath: string): Promise<void> {
  let t0 = performance.now();
  // The demo key is pinned, as an auditor of the demo would (signer_trusted then runs too).
  const { store, report } = await verifiedLog([storePath], [await demoKey()]);
  say(
    `verified (as the CLI does) in ${((performance.now() - t0) / 1000) | 0} s: ${fmt(report.summary.receipts)} receipts, ${fmt(report.summary.verified)} verified, ${fmt(store.length)} rows`,
  );
  t0 = performance.now();
  const scope = verifiedScope(store);
  say(`first verifiedScope (includes the one-off log-order index): ${ms(performance.now() - t0)}`);
  const l: Log = { store, report, scope };
  say(`\naggregation over ${fmt(store.length)} rows (${fmt(scope.rows.length)} verified)   first run   median of ${reps}   min`);
  let total = 0;
  for (const r of READERS) {
    const times: number[] = [];
    for (let i = 0; i <= reps; i++) {
      const t = performance.now();
      r.run(l);
      times.push(performance.now() - t);
    }
    const [first, ...rest] = times;
    total += median(rest);
    say(`  ${r.name.padEnd(52)} ${ms(first!).padStart(10)} ${ms(median(rest)).padStart(14)} ${ms(Math.min(...rest)).padStart(9)}`);
  }
  say(`  ${'sum of medians'.padEnd(52)} ${''.padStart(10)} ${ms(total).padStart(14)}`);
}

async function demoKey(): Promise<string> {
  const { demoKernelKeyHex, DEMO_SEED_DEFAULT } = await import('../tools/demo/generate');
  return demoKernelKeyHex(DEMO_SEED_DEFAULT);
}

async function serve(store: string, cacheDir: string): Promise<() => Promise<void>> {
  const app = await serveApp({ store, cacheDir, port });
  return () => app.stop();
}

/** Resolves in the page at the frame after `selector` appears (and its charts' canvases, if any, are drawn). */
const DRAWN = (selector: string) => `new Promise((resolve) => {
  const t0 = performance.now();
  const check = () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (el && [...el.querySelectorAll('figure.chart [role=img]')].every((c) => c.querySelector('canvas'))) {
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
    } else requestAnimationFrame(check);
  };
  check();
})`;

async function page(storePath: string, dir: string): Promise<void> {
  const stop = await serve(storePath, path.join(dir, 'server-cache'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const p: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const origin = `http://127.0.0.1:${port}`;
    say(`\npage (Chromium ${browser.version()}), ${fmt(count)} tool receipts served from ${storePath}`);
    for (const route of ROUTES) {
      // Cold: the route opened directly, so it verifies the whole log first.
      const t0 = Date.now();
      await p.goto(origin + route.path);
      await p.waitForSelector(route.ready, { timeout: 30 * 60_000 });
      say(`  ${route.path} opened directly: view drawn ${((Date.now() - t0) / 1000).toFixed(1)} s after navigation (the page verifies the whole log first)`);
      const times: number[] = [];
      for (let i = 0; i < Math.max(3, Math.min(reps, 7)); i++) {
        await p.getByRole('navigation').getByRole('link', { name: 'Receipts', exact: true }).click();
        await p.waitForSelector('[data-testid=explorer-count]');
        await p.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
        const start = (await p.evaluate('performance.now()')) as number;
        const drawn = p.evaluate(DRAWN(route.ready)) as Promise<number>;
        await p.getByRole('navigation').getByRole('link', { name: route.link, exact: true }).click();
        times.push((await drawn) - start);
      }
      say(
        `  ${route.path} from the explorer (log verified): click → view drawn, median ${ms(median(times))}, all: ${times.map((t) => t.toFixed(0)).join(', ')} ms`,
      );
    }
  } finally {
    await browser.close();
    await stop();
  }
}

if (!Number.isSafeInteger(count) || count < 1 || !(reps > 0))
  throw new Error('usage: npm run bench:readers -- [--count 100000] [--reps 15] [--cache DIR] [--port 3310] [--no-page]');
const dir = cacheArg ?? mkdtempSync(path.join(os.tmpdir(), 'receipt-audit-bench-readers-'));
mkdirSync(dir, { recursive: true });
const cpu = os.cpus();
say(`Receipt Audit reader views benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
say(
  `machine: ${cpu.length} CPUs (${cpu[0]?.model ?? '?'}), node ${process.version}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (other work makes the numbers noisy)`,
);
try {
  const storePath = (await ensureDemoStore(dir, count, log)).store;
  await aggregations(storePath);
  if (!argv.includes('--no-page')) await page(storePath, dir);
} finally {
  if (!cacheArg) rmSync(dir, { recursive: true, force: true });
}
