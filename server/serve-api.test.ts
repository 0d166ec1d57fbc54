// The bearer token is checked once per request, in one place (serve-api.ts). Over real HTTP on
// 127.0.0.1, servers whose environment counts every read of RECEIPT_API_TOKEN answer every /v1
// endpoint and method, with the right token, a wrong one and none, in store mode, in fleet mode
// (a cluster that is not up) and on a store that makes a route throw: each request reads the
// token exactly once (it was read twice through api-router.ts, three times for a fleet page), and
// the CSP report never.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from './api-router';
import type { ReceiptApiEnv } from './backend';
import { type LoopbackServer, serveOnLoopback } from './serve-node';
import { writeSyntheticStore } from './synthetic-store-file';

const TOKEN = 'count-me-once-5b7c';

interface CountedServer {
  server: LoopbackServer;
  /** Reads of RECEIPT_API_TOKEN so far. */
  reads: () => number;
}

/** A server on 127.0.0.1 whose env counts the reads of its token. */
async function countedServer(vars: Record<string, string>): Promise<CountedServer> {
  let reads = 0;
  const env: ReceiptApiEnv = { ...vars };
  Object.defineProperty(env, 'RECEIPT_API_TOKEN', {
    enumerable: true,
    get: () => {
      reads++;
      return TOKEN;
    },
  });
  const server = await serveOnLoopback((request) => handleApiRequest(request, env));
  return { server, reads: () => reads };
}

const ENDPOINTS: [method: string, path: string, body?: string][] = [
  ['GET', '/v1/receipts/query?limit=2'],
  ['HEAD', '/v1/receipts/query'],
  ['GET', '/v1/receipts/query?limit=999'],
  ['POST', '/v1/receipts/query', '{}'],
  ['POST', '/v1/evidence/export', '{"query":{"since":1}}'],
  ['POST', '/v1/evidence/export', 'not json'],
  ['GET', '/v1/evidence/export'],
  ['GET', '/v1/evidence/package'],
  ['GET', '/v1/evidence/package/manifest.json'],
  ['GET', '/v1/evidence/package/nothing.txt'],
  ['GET', '/v1/fleet/kernels'],
  ['GET', '/v1/fleet/summary?outcome=deny'],
  ['DELETE', '/v1/fleet/summary'],
  ['GET', '/v1/no-such-endpoint'],
  ['GET', '/v1/receipts/query?toolName=%zz'],
];

const AUTH: [label: string, header: string | null, denied: boolean][] = [
  ['the token', `Bearer ${TOKEN}`, false],
  ['a wrong token', 'Bearer not-the-token', true],
  ['no token', null, true],
];

let dir: string;
const servers: Record<'store' | 'fleet' | 'broken', CountedServer> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-token-once-'));
  const store = path.join(dir, 'store.sqlite3');
  writeSyntheticStore(store, 30);
  // A receipt table without the filter columns: a filtered query throws inside the route (a 500).
  const broken = path.join(dir, 'broken.sqlite3');
  const db = new Database(broken);
  db.exec("CREATE TABLE chio_tool_receipts (seq INTEGER PRIMARY KEY, raw_json TEXT); INSERT INTO chio_tool_receipts VALUES (1, '{}')");
  db.close();
  servers.store = await countedServer({ RECEIPT_DB: store, RECEIPT_CACHE_DIR: path.join(dir, 'cache') });
  // Port 9 (discard) is closed here: every cluster read fails, as with a fleet that is down.
  servers.fleet = await countedServer({ CLICKHOUSE_URL: 'http://127.0.0.1:9/' });
  servers.broken = await countedServer({ RECEIPT_DB: broken, RECEIPT_CACHE_DIR: path.join(dir, 'cache-broken') });
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.server.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** Sends one request and returns its status and how many times it read the token. */
async function send(s: CountedServer, method: string, target: string, authorization: string | null, body?: string): Promise<{ status: number; reads: number }> {
  const before = s.reads();
  const headers: Record<string, string> = authorization === null ? {} : { authorization };
  const res = await fetch(s.server.origin + target, { method, headers, body });
  await res.arrayBuffer();
  return { status: res.status, reads: s.reads() - before };
}

describe.each(['store', 'fleet'] as const)('%s mode: the token is read once per request', (mode) => {
  it.each(AUTH)('with %s', async (_label, authorization, denied) => {
    const wrong: string[] = [];
    for (const [method, target, body] of ENDPOINTS) {
      const { status, reads } = await send(servers[mode], method, target, authorization, body);
      if (reads !== 1 || (status === 401) !== denied) wrong.push(`${method} ${target}: ${status}, token read ${reads} times`);
    }
    expect(wrong, `${wrong.length} of ${ENDPOINTS.length}`).toEqual([]);
  });
});

describe('other paths', () => {
  it('a route that throws (500) read the token once', async () => {
    const { status, reads } = await send(servers.broken, 'GET', '/v1/receipts/query?outcome=allow', `Bearer ${TOKEN}`);
    expect([status, reads]).toEqual([500, 1]);
  });

  it('a fleet export whose cluster is down (500) read the token once', async () => {
    const { status, reads } = await send(servers.fleet, 'POST', '/v1/evidence/export', `Bearer ${TOKEN}`, '{}');
    expect([status, reads]).toEqual([500, 1]);
  });

  it('the CSP report and paths outside /v1 never read it', async () => {
    const before = servers.store.reads();
    const report = JSON.stringify({ 'csp-report': { 'document-uri': 'http://127.0.0.1/', 'violated-directive': 'script-src' } });
    const csp = await fetch(`${servers.store.server.origin}/v1/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: report,
    });
    expect(csp.status).toBe(204);
    expect((await fetch(`${servers.store.server.origin}/not-the-api`)).status).toBe(404);
    expect(servers.store.reads() - before).toBe(0);
  });
});
