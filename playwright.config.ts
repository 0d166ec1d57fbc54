import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/chromium-args';

// Browser tests run in Debian's Chromium (/usr/bin/chromium): Playwright's own browser download
// is not reachable here, so never run `npx playwright install`. The app is served on :3100 so it
// never collides with a developer's `npm start` on :3000 (E2E_PORT moves it, e.g. for a second
// checkout testing at the same time).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 30_000,
  globalTimeout: 10 * 60_000,
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
  webServer: {
    command: 'node scripts/start.mjs',
    url: BASE_URL,
    env: { HOST: '127.0.0.1', PORT: String(PORT), NEXT_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    // start.mjs builds first when the build is stale (about 10 s here; allow for a slow machine).
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
