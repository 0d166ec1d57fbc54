import { join } from 'node:path';
import { expect, test } from '@playwright/test';

// Journey: a newcomer runs `npm install && npm start` and opens the home page: the demo
// receipt log arrives from the server as bytes and verifies in their browser.
test('the home page verifies the demo log in the browser', async ({ page }, testInfo) => {
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'true');
  // 2,437 tool receipts + 332 child receipts, every one verified here.
  await expect(page.getByTestId('count-verified')).toHaveText('2769');
  await expect(page.getByTestId('count-failed')).toHaveText('0');
  await expect(page.getByTestId('count-checkpoints-verified')).toHaveText('24 of 24');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'home-demo.png'), fullPage: true });
});

// The same Next server answers Chio's trust-control API.
test('the API serves the demo store through Next', async ({ request }) => {
  const page = await request.get('/v1/receipts/query?limit=5&outcome=deny');
  expect(page.status()).toBe(200);
  const body = await page.json();
  expect(body.receipts).toHaveLength(5);
  expect(body.receipts.every((r: { decision?: { verdict: string } }) => r.decision?.verdict === 'deny')).toBe(true);
  expect(typeof body.nextCursor).toBe('number');
  const bad = await request.get('/v1/receipts/query?limit=500');
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.param).toBe('limit');
  const index = await request.get('/v1/evidence/package');
  expect(index.status()).toBe(200);
  expect((await index.json()).files.map((f: { path: string }) => f.path)).toContain('receipts.ndjson');
});

// What the API serves verifies with the command line: a query page, saved as a file.
test('a page of /v1/receipts/query verifies with receipt-audit', async ({ request }, testInfo) => {
  const { execFileSync } = await import('node:child_process');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const res = await request.get('/v1/receipts/query?limit=200&toolServer=srv-payments');
  mkdirSync(testInfo.outputDir, { recursive: true });
  const file = join(testInfo.outputDir, 'query-page.json');
  writeFileSync(file, await res.body());
  const out = execFileSync(process.execPath, [
    'bin/receipt-audit.mjs',
    'verify',
    file,
    '--trust-key',
    '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17',
    '--json',
  ]);
  const report = JSON.parse(out.toString());
  expect(report.ok).toBe(true);
  expect(report.summary.receipts).toBe(200);
  expect(report.summary.verified).toBe(200);
});
