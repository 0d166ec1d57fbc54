import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/chromium-args';
import { demoKeysPinned } from './e2e/pinned';

// Browser tests run in Debian's Chromium (/usr/bin/chromium): Playwright's own browser download
// is not reachable here, so never run `npx playwright install`. The app is served on :3100 so it
// never collides with a developer's `npm start` on :3000 (E2E_PORT moves it, e.g. for a second
// checkout testing at the same time).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// The fleet server (e2e/fleet.spec.ts): the same build served a second time, with CLICKHOUSE_URL
// set to a cluster that scripts/test.mjs starts and fills with the demo fleet. Only started when
// FLEET_E2E_URL names that cluster; without it the fleet specs fail saying so (e2e/fleet-server.ts).
const FLEET_URL = process.env.FLEET_E2E_URL;
const FLEET_PORT = Number(process.env.E2E_FLEET_PORT ?? 3101);

// The server's CSP violation log and request log (server/csp-report.ts, request-log.ts),
// read by the tests (e2e/server-logs.ts). This file is loaded by the runner and again by each
// worker; the runner picks the paths, and the workers inherit them through the environment.
if (!process.env.RECEIPT_AUDIT_CSP_LOG || !process.env.RECEIPT_AUDIT_REQUEST_LOG) {
  const dir = join(tmpdir(), `receipt-audit-e2e-${PORT}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.env.RECEIPT_AUDIT_CSP_LOG = join(dir, 'csp-violations.ndjson');
  process.env.RECEIPT_AUDIT_REQUEST_LOG = join(dir, 'requests.ndjson');
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 30_000,
  // The whole browser suite takes about 17 minutes on CI's 2 cores (issue 21 added axe on every page,
  // the phone, print and leaked-code walks); a hang still ends well inside CI's limit.
  globalTimeout: 28 * 60_000,
  expect: { timeout: 5_000 },
  workers: 2,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: 'list',
  use: {
    baseURL: BASE_URL,
    headless: true,
    screenshot: 'only-on-failure',
    // The demo kernel's key pinned, as a user does first (e2e/pinned.ts); tests of the unpinned state clear it.
    storageState: demoKeysPinned(BASE_URL, `http://127.0.0.1:${FLEET_PORT}`),
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: [
    {
      command: 'node scripts/start.mjs',
      url: BASE_URL,
      env: {
        HOST: '127.0.0.1',
        PORT: String(PORT),
        NEXT_TELEMETRY_DISABLED: '1',
        RECEIPT_AUDIT_CSP_LOG: process.env.RECEIPT_AUDIT_CSP_LOG,
        RECEIPT_AUDIT_REQUEST_LOG: process.env.RECEIPT_AUDIT_REQUEST_LOG,
      },
      reuseExistingServer: false,
      // start.mjs builds first when the build is stale (about 10 s here; allow for a slow machine).
      timeout: 180_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    // Both servers start from the same .next: start.mjs rebuilds only when stale, and Playwright
    // starts web servers one after the other, so the second finds the first's build fresh.
    ...(FLEET_URL
      ? [
          {
            command: 'node scripts/start.mjs',
            url: `http://127.0.0.1:${FLEET_PORT}`,
            env: {
              HOST: '127.0.0.1',
              PORT: String(FLEET_PORT),
              CLICKHOUSE_URL: FLEET_URL,
              NEXT_TELEMETRY_DISABLED: '1',
              RECEIPT_AUDIT_CSP_LOG: process.env.RECEIPT_AUDIT_CSP_LOG,
              RECEIPT_AUDIT_REQUEST_LOG: process.env.RECEIPT_AUDIT_REQUEST_LOG,
            },
            reuseExistingServer: false,
            timeout: 180_000,
            stdout: 'pipe' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
  ],
});
