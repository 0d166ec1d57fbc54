import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { demoKeyPinnedAt } from './pinned';

// Journey: an auditor is sent a link to a server whose /v1 API needs a bearer token
// (RECEIPT_API_TOKEN). The shared webServer runs without one, so this spec starts a second real
// server (scripts/start.mjs, the build the webServer already made) on E2E_PORT + 10.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 10;
const ORIGIN = `http://127.0.0.1:${PORT}`;
// This server's origin is not the config's: the demo key is pinned here too (e2e/pinned.ts).
test.use({ storageState: demoKeyPinnedAt(ORIGIN) });
const TOKEN = 'e2e-Token.with+plus/and~tilde-7f3a9c';

let server: ChildProcess | null = null;
let serverLog = '';
// This server's own request log, when the build writes one (RECEIPT_AUDIT_REQUEST_LOG, set by
// playwright.config.ts once the request-log change is merged): not the shared server's file.
const REQUEST_LOG = process.env.RECEIPT_AUDIT_REQUEST_LOG ? join(mkdtempSync(join(tmpdir(), 'receipt-audit-token-')), 'requests.ndjson') : undefined;
const loggedUrls = () => (REQUEST_LOG && existsSync(REQUEST_LOG) ? readFileSync(REQUEST_LOG, 'utf8').split('\n').filter(Boolean) : []);

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(PORT),
      RECEIPT_API_TOKEN: TOKEN,
      NEXT_TELEMETRY_DISABLED: '1',
      ...(REQUEST_LOG ? { RECEIPT_AUDIT_REQUEST_LOG: REQUEST_LOG } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (serverLog += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (serverLog += d.toString()));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the token server exited (${server.exitCode}):\n${serverLog}`);
    try {
      if ((await fetch(`${ORIGIN}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the token server did not start:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // The API really is closed without the token (so the tests below can fail).
  expect((await fetch(`${ORIGIN}/v1/evidence/package/manifest.json`)).status).toBe(401);
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server!.once('exit', r));
  server.kill('SIGTERM');
  await exited;
});

/** Every place that outlives the tab (localStorage, IndexedDB, cookies, Cache Storage), as text. */
async function persistentStorage(page: Page, context: BrowserContext): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const out: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i)!;
      out.push(`localStorage ${k}=${localStorage.getItem(k)}`);
    }
    for (const db of await indexedDB.databases()) out.push(`indexedDB ${db.name}`);
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) out.push(`cache ${name} ${req.url} ${await (await cache.match(req))!.text()}`);
    }
    out.push(`document.cookie ${document.cookie}`);
    return out;
  });
  const cookies = (await context.cookies()).map((c) => `cookie ${c.name}=${c.value}`);
  return [...inPage, ...cookies].join('\n');
}

async function expectServerLogVerified(page: Page) {
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-source', "this server's receipt store");
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('count-verified')).not.toHaveText('0');
  await expect(page.getByTestId('api-token-form')).toHaveCount(0);
}

test('a token in the link fragment leaves the address bar at once, opens the log, and is kept only in the tab', async ({ page, context }) => {
  const requests: { url: string; auth: string | undefined; referer: string | undefined }[] = [];
  page.on('request', (r) => requests.push({ url: r.url(), auth: r.headers().authorization, referer: r.headers().referer }));
  // Worker requests are not page requests in every Playwright version: read them at the context.
  context.on('request', (r) => {
    if (!requests.some((q) => q.url === r.url() && q.auth === r.headers().authorization)) {
      requests.push({ url: r.url(), auth: r.headers().authorization, referer: r.headers().referer });
    }
  });
  await page.goto(`${ORIGIN}/#token=${encodeURIComponent(TOKEN)}`);
  await expectServerLogVerified(page);
  expect(page.url()).toBe(`${ORIGIN}/`);
  expect(await page.evaluate(() => window.location.href)).not.toContain('token');

  // Sent as a header to this server's API, and nowhere else.
  const api = requests.filter((r) => r.url.startsWith(`${ORIGIN}/v1/`));
  expect(api.length).toBeGreaterThan(0);
  for (const r of api) expect(r.auth, r.url).toBe(`Bearer ${TOKEN}`);
  for (const r of requests.filter((q) => !q.url.startsWith(`${ORIGIN}/v1/`))) expect(r.auth, r.url).toBeUndefined();
  for (const r of requests) {
    expect(r.url).not.toContain(encodeURIComponent(TOKEN));
    expect(r.referer ?? '', r.url).not.toContain('token');
  }

  // A fragment never reaches the server: its request log, when it keeps one, never holds the token.
  if (REQUEST_LOG) {
    expect(loggedUrls().length).toBeGreaterThan(0);
    expect(loggedUrls().filter((line) => line.includes('e2e-Token'))).toEqual([]);
  }

  // In this tab's sessionStorage only.
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => sessionStorage.getItem(k)!.includes('e2e-Token')))).toEqual([
    'receipt-audit.api-token.v1',
  ]);
  const stored = await persistentStorage(page, context);
  expect(stored).not.toContain('e2e-Token');
  expect(stored).toContain('localStorage receipt-audit.checkpoints.v1'); // the scan does read storage

  // Moving around the app does not bring it back; a reload in the tab opens the log again.
  await page.getByRole('link', { name: 'Receipts' }).click();
  await expect(page).toHaveURL(`${ORIGIN}/receipts`);
  await page.goBack();
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await page.reload();
  await expectServerLogVerified(page);
  expect(page.url()).not.toContain('token');

  // Another tab of the same browser does not have it: it asks.
  const other = await context.newPage();
  await other.goto(`${ORIGIN}/`);
  await expect(other.getByTestId('api-token-form')).toBeVisible({ timeout: 60_000 });
  await other.close();
});

test('a token in the query is taken out too, and the router does not put it back', async ({ page, context }) => {
  await page.goto(`${ORIGIN}/receipts?decision=deny&token=${encodeURIComponent(TOKEN)}`);
  await expect(page.locator('[data-receipt-id]').first()).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
  await expect(page).toHaveURL(`${ORIGIN}/receipts?decision=deny`);
  expect(await persistentStorage(page, context)).not.toContain('e2e-Token');
});

test('without a token the page asks for one; a wrong token is refused with a clear message', async ({ page, context }) => {
  await page.goto(`${ORIGIN}/`);
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'false');
  await expect(summary).toContainText("this server's log needs an API token (HTTP 401)");
  const input = page.getByTestId('api-token-input');
  await expect(input).toHaveAttribute('type', 'password');

  await input.fill('not-the-token');
  await page.getByRole('button', { name: "open this server's log with it" }).click();
  await expect(summary).toContainText('this server refused the API token (HTTP 401)');
  await expect(page.getByText('Another API token')).toBeVisible();
  // A refused token is not kept for the next reload.
  expect(await page.evaluate(() => sessionStorage.getItem('receipt-audit.api-token.v1'))).toBeNull();

  await input.fill(TOKEN);
  await page.getByRole('button', { name: "open this server's log with it" }).click();
  await expectServerLogVerified(page);
  expect(await persistentStorage(page, context)).not.toContain('e2e-Token');
});
