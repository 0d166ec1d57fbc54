import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openFiles, pinKey } from './helpers';

// Journey: a compliance reader learns which policy was in force when, what the checkpoints
// cover, how receipts were produced and who signed them, narrows to a policy and a time range,
// follows a number to the explorer, and prints the report. Every number is checked against the
// command line's report and the log's own records.
const CORPUS = join(process.cwd(), 'lib/testdata/corpus');
const DEMO_STORE = join(process.cwd(), 'data/demo/receipts.sqlite3');
const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';

interface CliReport {
  summary: { receipts: number; verified: number; failed: number; unverified: number; checkpoints: number };
  receipts: { id: string; verdict: string; checks: Record<string, string>; details?: Record<string, string> }[];
  keys: { key: string; receipts: number; checkpoints: number }[];
}
interface Raw {
  policy: string;
  type: string;
  time: number;
  id: string;
}

function cli(path: string, keys: string[]): CliReport {
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', path, ...keys.flatMap((k) => ['--trust-key', k]), '--json'], {
    maxBuffer: 64 << 20,
  });
  expect(run.status, run.stderr.toString()).toBeLessThan(2);
  return JSON.parse(run.stdout.toString()) as CliReport;
}

/** The demo store's receipts, read straight from its tables (read-only). */
function demoRaw(): Raw[] {
  const db = new Database(DEMO_STORE, { readonly: true, fileMustExist: true });
  try {
    const q = (table: string, type: string) =>
      (db.prepare(`SELECT policy_hash AS policy, timestamp AS time, receipt_id AS id FROM ${table}`).all() as Omit<Raw, 'type'>[]).map((r) => ({ ...r, type }));
    return [...q('chio_tool_receipts', 'tool'), ...q('chio_child_receipts', 'child')];
  } finally {
    db.close();
  }
}

function corpusRaw(name: string): Raw[] {
  const read = (file: string, type: string) =>
    readFileSync(join(CORPUS, name, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const r = (JSON.parse(l) as { receipt: { id: string; timestamp: number; policy_hash: string } }).receipt;
        return { policy: r.policy_hash, type, time: r.timestamp, id: r.id };
      });
  return [...read('receipts.ndjson', 'tool'), ...read('child-receipts.ndjson', 'child')];
}

/** Policies by first appearance, with counts and first/last times, from raw receipts. */
function policiesOf(raw: Raw[]): { policy: string; receipts: number; first: number; last: number }[] {
  const m = new Map<string, { policy: string; receipts: number; first: number; last: number }>();
  for (const r of raw) {
    const p = m.get(r.policy) ?? { policy: r.policy, receipts: 0, first: Infinity, last: -Infinity };
    p.receipts++;
    p.first = Math.min(p.first, r.time);
    p.last = Math.max(p.last, r.time);
    m.set(r.policy, p);
  }
  return [...m.values()].sort((a, b) => a.first - b.first);
}

/** Per-check pass/fail counts of the CLI report, counted here (not with the app's code). */
function checkCounts(report: CliReport, keep: (id: string) => boolean = () => true): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const r of report.receipts) {
    if (!keep(r.id)) continue;
    for (const [name, status] of Object.entries(r.checks)) {
      const c = (out[name] ??= [0, 0]);
      if (status === 'pass') c[0]++;
      if (status === 'fail') c[1]++;
    }
  }
  return out;
}

async function expectPolicies(page: Page, want: ReturnType<typeof policiesOf>): Promise<void> {
  const rows = page.getByTestId('policy-table').locator('tbody tr');
  await expect(rows).toHaveCount(want.length);
  for (const [i, p] of want.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute('data-policy', p.policy);
    await expect(row).toHaveAttribute('data-receipts', String(p.receipts));
    await expect(row).toHaveAttribute('data-first', String(p.first));
    await expect(row).toHaveAttribute('data-last', String(p.last));
  }
}

async function expectChecks(page: Page, want: Record<string, [number, number]>): Promise<void> {
  const rows = page.getByTestId('check-totals').locator('tbody tr');
  await expect(rows).toHaveCount(Object.keys(want).length);
  for (const [name, [pass, fail]] of Object.entries(want)) {
    const row = page.locator(`[data-testid="check-totals"] tr[data-check="${name}"]`);
    await expect(row).toHaveAttribute('data-pass', String(pass));
    await expect(row).toHaveAttribute('data-fail', String(fail));
  }
}

/** Clicks the chart where lane `lane` is drawn at time `t` (the axis spans data-min..data-max exactly). */
async function clickChart(wrap: Locator, lane: number, t: number): Promise<void> {
  const [min, max, lanes] = await Promise.all(['data-min', 'data-max', 'data-lanes'].map(async (a) => Number(await wrap.getAttribute(a))));
  const [left, right, top, bottom] = (await wrap.getAttribute('data-grid'))!.split(' ').map(Number);
  const canvas = wrap.locator('[role="img"]');
  const box = (await canvas.boundingBox())!;
  const x = left! + ((t - min!) / (max! - min!)) * (box.width - left! - right!);
  const y = top! + ((lane + 0.5) / lanes!) * (box.height - top! - bottom!);
  await canvas.click({ position: { x, y } });
}

test('the demo: policies, coverage, kinds and signers match the CLI and the store; a policy narrows the page and the explorer', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const report = cli(DEMO_STORE, [DEMO_KEY]);
  const raw = demoRaw();
  // The demo key is pinned already (playwright.config.ts storageState, e2e/pinned.ts).
  await page.goto('/compliance');
  const view = page.getByTestId('compliance');
  await expect(view).toHaveAttribute('data-counted', String(report.summary.verified), { timeout: 60_000 });
  expect(report.summary.verified).toBe(raw.length);
  const scope = page.getByTestId('report-scope');
  await expect(scope).toHaveAttribute('data-in-selection', String(report.summary.receipts));
  await expect(scope).toHaveAttribute('data-not-verified', '0');
  await expect(page.getByTestId('scope-all-verified')).toBeVisible();

  // Four policies (1.0.0 → 2.0.0), as the store's rows carry them.
  const policies = policiesOf(raw);
  expect(policies.length).toBe(4);
  await expectPolicies(page, policies);

  // Coverage: the CLI's inclusion outcomes.
  const included = report.receipts.filter((r) => r.checks.inclusion === 'pass').length;
  const tail = report.receipts.filter((r) => r.checks.inclusion === 'skipped' && r.details?.inclusion === 'uncheckpointed').length;
  await expect(page.getByTestId('coverage-checkpointed')).toHaveText(included.toLocaleString('en-US'));
  await expect(page.getByTestId('coverage-tail')).toHaveText(tail.toLocaleString('en-US'));
  await expect(page.getByTestId('coverage-gaps')).toHaveText('0');
  await expectChecks(page, checkCounts(report));

  // One signer, pinned, as the CLI's keys say.
  const signer = page.getByTestId('signers').locator('tbody tr');
  await expect(signer).toHaveCount(report.keys.length);
  await expect(signer.first()).toHaveAttribute('data-key', report.keys[0]!.key);
  await expect(signer.first()).toHaveAttribute('data-pinned', 'true');
  await expect(signer.first()).toHaveAttribute('data-receipts', String(report.keys[0]!.receipts));
  await page.screenshot({ path: testInfo.outputPath('compliance-demo.png'), fullPage: true });

  // Choosing policy 3 (1.2.0, before the Gen B upgrade) narrows the page and the URL.
  const third = policies[2]!;
  await page.getByTestId('policy-table').locator('tbody tr').nth(2).getByTestId('policy-choose').click();
  await expect(page).toHaveURL(new RegExp(`/compliance\\?policy=${third.policy}$`));
  await expect(view).toHaveAttribute('data-counted', String(third.receipts));
  await expect(page.getByTestId('kinds-none')).toBeVisible();
  await expect(page.getByTestId('scope-policy')).toContainText(third.policy);
  await page.reload();
  await expect(view).toHaveAttribute('data-counted', String(third.receipts), { timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath('compliance-demo-policy.png'), fullPage: true });

  // Its count opens the explorer on exactly those receipts.
  await page.getByTestId('policy-table').locator(`tr[data-policy="${third.policy}"]`).getByTestId('policy-explorer').click();
  await expect(page).toHaveURL(new RegExp(`/receipts\\?verdict=verified&policyHash=${third.policy}$`));
  await expect(page.getByTestId('explorer-count')).toHaveText(`${third.receipts.toLocaleString('en-US')} of ${raw.length.toLocaleString('en-US')} receipts`);

  // Clicking policy 1's span on the chart opens the explorer on that span.
  await page.goto('/compliance');
  await expect(view).toHaveAttribute('data-counted', String(report.summary.verified), { timeout: 60_000 });
  const first = policies[0]!;
  await clickChart(page.locator('.policy-chart'), 0, (first.first + first.last) / 2);
  await expect(page).toHaveURL(new RegExp(`/receipts\\?verdict=verified&policyHash=${first.policy}&since=${first.first}&until=${first.last}$`));
  await expect(page.getByTestId('explorer-count')).toHaveText(`${first.receipts.toLocaleString('en-US')} of ${raw.length.toLocaleString('en-US')} receipts`);
});

test('corpus/good: the numbers match the CLI and the NDJSON; a time range narrows them, and the report prints', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const dir = join(CORPUS, 'good');
  const keys = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
  const report = cli(dir, keys);
  const raw = corpusRaw('good');
  for (const key of keys) await pinKey(page, key);
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  await page.getByRole('link', { name: 'Compliance' }).click();
  const view = page.getByTestId('compliance');
  await expect(view).toHaveAttribute('data-counted', String(report.summary.verified), { timeout: 60_000 });
  expect(report.summary.verified).toBe(280);
  await expectPolicies(page, policiesOf(raw));
  await expect(page.getByTestId('coverage-checkpointed')).toHaveText(String(report.receipts.filter((r) => r.checks.inclusion === 'pass').length));
  await expect(page.getByTestId('coverage-tail')).toHaveText('80');
  await expectChecks(page, checkCounts(report));
  const genB = page.getByTestId('gen-b-kinds').locator('tbody tr');
  await expect(genB).toHaveCount(1);
  await expect(genB).toHaveAttribute('data-kind', 'mediated_decision');
  await expect(genB).toHaveAttribute('data-boundary', 'prevent');
  await expect(genB).toHaveAttribute('data-count', '10');
  await page.screenshot({ path: testInfo.outputPath('compliance-good.png'), fullPage: true });

  // A range, typed into the date inputs (UTC): exactly the raw receipts timed inside it count.
  await page.getByTestId('range-since').fill('2026-01-01T00:30:00');
  await page.getByTestId('range-since').blur();
  await page.getByTestId('range-until').fill('2026-01-01T01:30:00');
  await page.getByTestId('range-until').blur();
  const since = Date.UTC(2026, 0, 1, 0, 30) / 1000;
  const until = Date.UTC(2026, 0, 1, 1, 30) / 1000;
  await expect(page).toHaveURL(new RegExp(`/compliance\\?since=${since}&until=${until}$`));
  const inRange = raw.filter((r) => r.time >= since && r.time <= until);
  await expect(page.getByTestId('report-scope')).toHaveAttribute('data-in-selection', String(inRange.length));
  await expect(view).toHaveAttribute('data-counted', String(inRange.length));
  await expectPolicies(page, policiesOf(inRange));
  const ids = new Set(inRange.map((r) => r.id));
  await expectChecks(
    page,
    checkCounts(report, (id) => ids.has(id)),
  );
  await expect(page.getByTestId('scope-range')).toContainText('2026-01-01 00:30:00 UTC to 2026-01-01 01:30:00 UTC, inclusive');

  // The print view: no controls or navigation, the scope stated first.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('print-report')).toBeHidden();
  await expect(page.locator('nav')).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('compliance-good-print.png'), fullPage: true });
  // Saved as PDF: the scope first, then the five sections one after another, not a page each
  // (e2e/print.spec.ts checks the printed layout).
  const pdf = await page.pdf({ format: 'A4', printBackground: false });
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
  expect(pages).toBeGreaterThanOrEqual(2);
  expect(pages).toBeLessThanOrEqual(4);
  await page.setViewportSize({ width: 794, height: 1123 });
  await page.screenshot({ path: testInfo.outputPath('compliance-good-print-a4-width.png'), fullPage: true });
});

test('corpus/tampered-signature: a range holding the failed receipt says so at the top, with its problem', async ({ page }, testInfo) => {
  const dir = join(CORPUS, 'tampered-signature');
  const keys = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
  const report = cli(dir, keys);
  const raw = corpusRaw('tampered-signature');
  const bad = report.receipts.find((r) => r.verdict === 'failed')!;
  const t = raw.find((r) => r.id === bad.id)!.time;
  for (const key of keys) await pinKey(page, key);
  await openFiles(
    page,
    readdirSync(dir).map((f) => join(dir, f)),
  );
  await page.getByRole('link', { name: 'Compliance' }).click();
  await expect(page.getByTestId('compliance')).toHaveAttribute('data-counted', String(report.summary.verified), { timeout: 60_000 });
  await page.getByTestId('range-until').fill(new Date(t * 1000).toISOString().slice(0, 19));
  await page.getByTestId('range-until').blur();
  await expect(page).toHaveURL(new RegExp(`/compliance\\?until=${t}$`));
  const inRange = raw.filter((r) => r.time <= t);
  await expect(page.getByTestId('scope-unverified')).toContainText(`1 of the ${inRange.length} receipts in this selection was not verified`);
  await expect(page.getByTestId('scope-count-failed')).toHaveText('1');
  await expect(page.locator('[data-testid="selection-problems"] tr[data-code="signature_invalid"]')).toHaveAttribute('data-receipts', '1');
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: testInfo.outputPath('compliance-tampered-print.png'), fullPage: true });
});
