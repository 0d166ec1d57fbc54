import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openFiles, pinKey } from './helpers';

// Journey: an auditor follows how an agent session's requests fanned out. The counts on the
// DAG must be the command line's: the child (and call-chained tool) receipts it verified, per
// session, joined to their sessions through the raw records.
const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';
const DEMO_PACKAGE = join(process.cwd(), 'data/demo/package');
const CORPUS_GOOD = join(process.cwd(), 'lib/testdata/corpus/good');

// Each journey verifies a log in the page and lays out graphs in a worker: allow for a busy machine.
test.describe.configure({ timeout: 120_000 });

type Report = { receipts: { id: string; type: string; verdict: string }[] };

function cliReport(path: string, keys: string[]): Report {
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', path, ...keys.flatMap((k) => ['--trust-key', k]), '--json'], {
    maxBuffer: 256 << 20,
  });
  expect(run.status, run.stderr.toString()).toBeLessThan(2);
  return JSON.parse(run.stdout.toString()) as Report;
}

/** Session of each receipt, read from the package's raw NDJSON (child receipts, and tool receipts' call chains). */
function sessionsOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
  for (const l of lines('child-receipts.ndjson')) {
    const r = (JSON.parse(l) as { receipt: { id: string; session_id: string } }).receipt;
    out.set(r.id, r.session_id);
  }
  for (const l of lines('receipts.ndjson')) {
    const r = (JSON.parse(l) as { receipt: { id: string; metadata?: { governed_transaction?: { call_chain?: { session_id?: string } } } } }).receipt;
    const s = r.metadata?.governed_transaction?.call_chain?.session_id;
    if (s) out.set(r.id, s);
  }
  return out;
}

/** Verified child and tool receipts per session, as the CLI's report has them. */
function perSession(report: Report, sessions: Map<string, string>): Map<string, { child: number; tool: number }> {
  const out = new Map<string, { child: number; tool: number }>();
  for (const r of report.receipts) {
    const s = sessions.get(r.id);
    if (!s || r.verdict !== 'verified') continue;
    const c = out.get(s) ?? { child: 0, tool: 0 };
    if (r.type === 'child') c.child++;
    else c.tool++;
    out.set(s, c);
  }
  return out;
}

async function showSession(page: Page, session: string, expected: { child: number; tool: number }) {
  await page.locator(`[data-testid="dag-session"][data-session="${session}"]`).click();
  await expect(page).toHaveURL(new RegExp(`session=${encodeURIComponent(session)}`));
  const counts = page.getByTestId('dag-counts');
  await expect(counts).toHaveAttribute('data-child', String(expected.child));
  await expect(counts).toHaveAttribute('data-tool', String(expected.tool));
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done', { timeout: 30_000 });
  // Every receipt of the session is drawn (small sessions fit the view).
  await expect(page.locator('[data-testid="dag-node"][data-kind="child"]')).toHaveCount(expected.child);
  await expect(page.locator('[data-testid="dag-node"][data-kind="tool"]')).toHaveCount(expected.tool);
}

test('the demo: each session draws the receipts the CLI verified for it; a node opens its receipt; lineage links to the explorer', async ({
  page,
}, testInfo) => {
  const report = cliReport(DEMO_PACKAGE, [DEMO_KEY]);
  const sessions = sessionsOf(DEMO_PACKAGE);
  const counts = perSession(report, sessions);
  // The demo key is pinned already (playwright.config.ts storageState, e2e/pinned.ts).
  await page.goto('/dag');
  const list = page.getByTestId('dag-sessions');
  await expect(list).toHaveAttribute('data-count', String(counts.size), { timeout: 60_000 });
  await expect(page.getByTestId('verified-note')).toHaveAttribute('data-left', '0');

  // The session with the most tool calls, and two more.
  const ranked = [...counts.entries()].sort((a, b) => b[1].tool - a[1].tool || b[1].child - a[1].child);
  for (const [session, expected] of [ranked[0]!, ranked[1]!, ranked[ranked.length - 1]!]) await showSession(page, session, expected);
  const [busiest, expected] = ranked[0]!;
  await showSession(page, busiest, expected);
  expect(expected.tool).toBeGreaterThan(0);

  // Verdicts and terminal states are on the nodes, in words.
  const tool = page.locator('[data-testid="dag-node"][data-kind="tool"]').first();
  await expect(tool).toHaveAttribute('data-verdict', 'verified');
  await expect(tool).toContainText('✓ verified');
  await expect(tool).toContainText(/allow|deny|cancelled|incomplete|no decision/);
  await page.screenshot({ path: testInfo.outputPath('dag-demo.png'), fullPage: true });

  // Folding the session's root request hides everything below it.
  await page.locator('[data-testid="dag-node"][data-kind="request"]').getByTestId('dag-fold').click();
  await expect(page).toHaveURL(/fold=/);
  await expect(page.getByTestId('dag-counts')).toHaveAttribute('data-visible', '1');
  await expect(page.locator('[data-testid="dag-node"][data-kind="request"]')).toContainText(`${expected.child + expected.tool} hidden`);
  await page.getByTestId('dag-expand-all').click();
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done');
  await expect(page.locator('[data-testid="dag-node"][data-kind="child"]')).toHaveCount(expected.child);

  // The capabilities the session's tool calls used, from the package's lineage, link to the explorer.
  const lineage = page.getByTestId('dag-lineage');
  await expect(page.getByTestId('lineage-canvas')).toHaveAttribute('data-layout', 'done');
  const cap = page.getByTestId('lineage-node').last();
  const capId = (await cap.getAttribute('data-capability-id'))!;
  expect(Number(await lineage.getAttribute('data-lineage-rows'))).toBeGreaterThan(0);
  // The demo signs every capability token: each drawn link is signed and verified, none failed.
  await expect(cap).toHaveAttribute('data-link', 'verified');
  await expect(page.locator('[data-testid="lineage-node"][data-link="failed"]')).toHaveCount(0);
  await cap.click();
  await expect(page).toHaveURL(new RegExp(`/receipts\\?capabilityId=${encodeURIComponent(capId)}$`));
  await page.goBack();

  // Clicking a node opens its receipt page.
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done', { timeout: 30_000 });
  const id = (await tool.getAttribute('data-receipt-id'))!;
  await tool.locator('.dag-verdict').click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(id)}$`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
});

test('the demo: search finds a receipt, focuses its subtree, and the URL keeps it', async ({ page }, testInfo) => {
  const sessions = sessionsOf(DEMO_PACKAGE);
  const [id, session] = [...sessions.entries()].find(([k]) => k.startsWith('child-'))!;
  await page.goto('/dag');
  await page.getByTestId('dag-search').fill(id);
  await page.getByTestId('dag-search').press('Enter');
  await expect(page.getByTestId('dag-hits')).toHaveAttribute('data-total', '1', { timeout: 60_000 });
  await page.getByTestId('dag-hit').click();
  await expect(page).toHaveURL(new RegExp(`session=${encodeURIComponent(session)}.*focus=${encodeURIComponent(id)}`));
  await expect(page.getByTestId('dag-focus')).toBeVisible();
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done', { timeout: 30_000 });
  const focused = page.locator(`[data-testid="dag-node"][data-receipt-id="${id}"]`);
  await expect(focused).toHaveClass(/focus/);
  // A reload keeps what was drawn.
  await page.reload();
  await expect(page.locator(`[data-testid="dag-node"][data-receipt-id="${id}"]`)).toHaveClass(/focus/, { timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath('dag-demo-focus.png'), fullPage: true });
  await page.getByTestId('dag-focus-clear').click();
  await expect(page.getByTestId('dag-focus')).toHaveCount(0);
  // All sessions at once, and the explorer link of a session.
  await page.getByTestId('dag-session-all').click();
  await expect(page).toHaveURL(/all=1/);
  await expect(page.getByTestId('dag-canvas')).toHaveAttribute('data-layout', 'done', { timeout: 60_000 });
  await page.screenshot({ path: testInfo.outputPath('dag-demo-all.png'), fullPage: true });
});

test('corpus/good: the five sessions hold the child receipts the CLI verified; nodes open receipts', async ({ page }, testInfo) => {
  const keys = (JSON.parse(readFileSync(join(CORPUS_GOOD, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
  const report = cliReport(CORPUS_GOOD, keys);
  const counts = perSession(report, sessionsOf(CORPUS_GOOD));
  expect(counts.size).toBe(5);
  for (const key of keys) await pinKey(page, key);
  await openFiles(
    page,
    readdirSync(CORPUS_GOOD).map((f) => join(CORPUS_GOOD, f)),
  );
  // Client-side navigation keeps the picked files' log open.
  await page.getByRole('link', { name: 'DAG' }).click();
  await expect(page.getByTestId('dag-sessions')).toHaveAttribute('data-count', '5', { timeout: 60_000 });
  for (const [session, expected] of counts) await showSession(page, session, expected);
  // corpus/good carries no call chains and an empty lineage file: the page says so.
  await expect(page.getByTestId('dag-lineage-empty')).toContainText('names a capability');
  await page.screenshot({ path: testInfo.outputPath('dag-corpus-good.png'), fullPage: true });
  const node = page.locator('[data-testid="dag-node"][data-kind="child"]').first();
  const id = (await node.getAttribute('data-receipt-id'))!;
  expect(report.receipts.find((r) => r.id === id)?.verdict).toBe('verified');
  await node.locator('.dag-state').click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(id)}$`));
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
});
