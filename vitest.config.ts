import { defineConfig } from 'vitest/config';

// Unit, vector and CLI tests. Browser tests live in e2e/ and run under Playwright.
export default defineConfig({
  test: {
    include: ['{lib,bin,server,tools,scripts,test,app,components}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'threads',
    // Both cores: Vitest's default is one worker fewer than the CPUs, which is one on CI's 2-core
    // machine. Many files wait on child processes, servers and disk, so two overlap well.
    maxWorkers: 2,
  },
});
