import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_KERNEL_KEY } from '../lib/trust/known-keys';
import { openFiles } from './helpers';
import { CORPUS_KEY, keysPinned } from './pinned';

const SQLITE = join(process.cwd(), 'lib/testdata/chio/showcase/sqlite');

// The keys of Chio's showcase kernels (lib/testdata/chio/showcase), pinned as their auditor would.
const SHOWCASE_KEYS = [
  '7f0f30e3776a614d6322a533d2729e91f81facf2c5199857eb3986b6b501d07c',
  '1d4200d2a3335e3d2038e878ac9d2061045161fb3a669efd363d1e8b6814fdd4',
  'a126089f90654a78895a830f0002cdba45c8e9aace84a83d878854f6d98a834a',
  'affb8f52094b3929a4620992dd7f374cb8913d2452d040bb7a8afbadaa3d798f',
  'dda7252955d6f7f4c90726c8a8f0e6ef90cea8d4cf7736a4eb52798b005ea46b',
];

test.describe('the showcase kernels pinned', () => {
  test.use({ storageState: keysPinned(SHOWCASE_KEYS) });

  // Journey: an auditor opens Chio's own SQLite stores in the page (sql.js, in a worker); the
  // sidecar store keeps its rows only in its -wal, which is picked with it.
  test('real Chio SQLite stores open and verify in the page', async ({ page }) => {
    await openFiles(
      page,
      ['provider-receipts.sqlite3', 'settlement-sidecar-receipts.sqlite3', 'settlement-sidecar-receipts.sqlite3-wal'].map((f) => join(SQLITE, f)),
    );
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', 'true');
    await expect(page.getByTestId('count-verified')).toHaveText('9');
    await expect(page.getByTestId('count-failed')).toHaveText('0');
  });

  // Bad input: garbage and a truncated file get a message naming the file and line; the valid
  // records around them still load and verify.
  test('garbage and truncated files are named by file and line; everything valid still verifies', async ({ page }, testInfo) => {
    const dir = join(testInfo.outputDir, 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'garbage.ndjson'), 'this is not json\n\u0000\u0001binary\n');
    writeFileSync(join(dir, 'truncated.json'), '[{"id": "a", "timestamp": 1');
    await openFiles(page, [
      join(dir, 'garbage.ndjson'),
      join(dir, 'truncated.json'),
      join(process.cwd(), 'lib/testdata/chio/showcase/derived-from-sqlite/provider-receipts.chio_tool_receipts.ndjson'),
    ]);
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', 'false');
    await expect(page.getByTestId('count-verified')).toHaveText('8');
    const problems = page.getByTestId('problems');
    await expect(problems).toContainText('garbage.ndjson:1');
    await expect(problems).toContainText('garbage.ndjson:2');
    await expect(problems).toContainText('truncated.json:1');
    await page.screenshot({ path: join(testInfo.project.outputDir, 'bad-input.png'), fullPage: true });
  });
});

// Journey: the demo's own SQLite store, picked as a file. Stores keep no inclusion proofs,
// so the receipt page computes one from the checkpoint's batch and checks it against the
// signed root.
test('a receipt of a SQLite store opened in the page gets its Merkle path from the batch', async ({ page }) => {
  test.setTimeout(120_000);
  await openFiles(page, [join(process.cwd(), 'data/demo/receipts.sqlite3')]);
  await expect(page.getByTestId('count-failed')).toHaveText('0');
  await page.getByRole('link', { name: 'Receipts' }).click();
  const row = page.locator('[data-receipt-id]').nth(3);
  const id = (await row.getAttribute('data-receipt-id'))!;
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/receipts/${encodeURIComponent(id)}\\?file=[^&]+&line=\\d+$`));
  await expect(page.getByTestId('merkle-path')).toHaveAttribute('data-matches', 'true', { timeout: 30_000 });
  await expect(page.getByText('this store keeps no inclusion proofs')).toBeVisible();
  await expect(page.getByTestId('receipt-raw')).toContainText(`"id":"${id}"`);
});

// Bad input: a URL that answers 404 is a problem naming it, in a report, not a dead end.
test('an unreachable URL is named in the problems, with its HTTP status', async ({ page, baseURL }) => {
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  const url = `${baseURL}/no-such-log/receipts.ndjson`;
  await page.getByLabel('URL of a package or file').fill(url);
  await page.getByRole('button', { name: 'open URL' }).click();
  await expect(summary).toHaveAttribute('data-source', url);
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  await expect(summary).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('problems')).toContainText(`${url} could not be read (${url}: HTTP 404)`);
});

// Journey: several sources as one log — the server's demo plus a corpus package picked with
// "add to the open log". The page's report agrees with the command line given both.
test('a package added to the open server log is verified with it as one log', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('count-verified')).toHaveText('2769');
  await page.getByTestId('source-add').check();
  const dir = join(process.cwd(), 'lib/testdata/corpus/good');
  const files = readdirSync(dir);
  await page.getByTestId('source-input').setInputFiles(files.map((f) => join(dir, f)));
  await expect(summary).toHaveAttribute('data-source', `this server's receipt store + ${files.length} files`);
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
  const pageReport = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
  const run = spawnSync(
    process.execPath,
    ['bin/receipt-audit.mjs', 'verify', 'data/demo/package', dir, '--trust-key', DEMO_KERNEL_KEY, '--trust-key', CORPUS_KEY, '--json'],
    { maxBuffer: 256 << 20 },
  );
  const cli = JSON.parse(run.stdout.toString()) as Report;
  expect(pageReport.summary).toEqual(cli.summary);
  expect(pageReport.summary.receipts).toBe(2769 + 280);
  expect(pageReport.receipts.map((r) => [r.id, r.verdict])).toEqual(cli.receipts.map((r) => [r.id, r.verdict]));
  await page.screenshot({ path: join(testInfo.project.outputDir, 'two-sources.png'), fullPage: true });
});

interface Report {
  summary: { receipts: number };
  receipts: { id: string; verdict: string }[];
}

// Journey: a package on another server (one that allows CORS), opened by its URL. The log worker
// fetches it under its own policy; the page's policy still names only this origin.
test('a package served by another origin opens by URL and verifies', async ({ page }) => {
  const dir = join(process.cwd(), 'lib/testdata/corpus/good');
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/pkg\//, '');
    if (name.includes('/') || name.includes('..')) return void res.writeHead(404).end();
    try {
      const body = readFileSync(join(dir, name));
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, { 'access-control-allow-origin': '*' }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pkg/`;
    const response = await page.goto('/');
    expect(response!.headers()['content-security-policy']).toContain("connect-src 'self';");
    const summary = page.getByTestId('verify-summary');
    await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
    await page.getByLabel('URL of a package or file').fill(url);
    await page.getByRole('button', { name: 'open URL' }).click();
    await expect(summary).toHaveAttribute('data-source', url);
    await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
    await expect(page.getByTestId('count-verified')).toHaveText('280');
    await expect(page.getByTestId('count-failed')).toHaveText('0');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
