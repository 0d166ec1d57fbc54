// The fleet server the e2e run starts beside the default one (playwright.config.ts): the same
// build with CLICKHOUSE_URL set to the cluster scripts/test.mjs starts and fills with the demo
// fleet (tools/fleet-demo.ts). Its origin differs from the default server's, so the fleet specs
// use full URLs, and keys pinned there are pinned for it alone.

export const FLEET_PORT = Number(process.env.E2E_FLEET_PORT ?? 3101);
export const FLEET = `http://127.0.0.1:${FLEET_PORT}`;

/**
 * Throws unless this run has a fleet server. The fleet specs fail (never skip) without one, so a
 * run that forgot the cluster cannot pass them unseen: `npm test` always starts it.
 */
export function requireFleetServer(): void {
  if (!process.env.FLEET_E2E_URL) {
    // scripts/test.mjs says why it has no cluster to give (e.g. a port was taken).
    const problem = process.env.FLEET_E2E_PROBLEM;
    if (problem)
      throw new Error(
        `No fleet server for these tests: npm test could not start the cluster or ingest the demo fleet (${problem}); see its output above the e2e step.`,
      );
    throw new Error(
      'FLEET_E2E_URL is not set, so no fleet server was started for these tests. Run them through `npm test -- --e2e-only --grep fleet` ' +
        '(it starts a ClickHouse cluster and ingests the demo fleet), or start one yourself: `npm run fleet:up`, then ' +
        '`npm run fleet:demo -- --count 600 --clickhouse <its URL>`, then FLEET_E2E_URL=<its URL> npx playwright test fleet.',
    );
  }
}
