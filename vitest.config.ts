import { defineConfig } from 'vitest/config';

// Unit, vector and CLI tests. Browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'bin/**/*.test.ts', 'scripts/**/*.test.ts', 'app/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'threads',
  },
});
