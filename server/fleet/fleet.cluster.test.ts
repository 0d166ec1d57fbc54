// biome-ignore-all lint/suspicious/noExplicitAny: ClickHouse rows and CLI JSON read field by field; their shape is what the test asserts
// The fleet against a real two-shard ClickHouse cluster (tools/fleet.mjs, Debian's
// clickhouse-server): three demo kernels with three keys (two evidence packages, one SQLite store)
// are ingested with the real command line, and the /v1 API is served by a real server process with
// CLICKHOUSE_URL. Every answer is compared with a reference read independently from the kernels'
// own SQLite stores (their indexed columns, not our ingest's). The cluster is this file's own
// (FLEET_TEST_DIR, FLEET_TEST_BASE_PORT) and is stopped afterwards, also when a test fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayItems, objectMembers } from '../../lib/json/spans';
import { type ReceiptQuery, toSearchParams } from '../../lib/query/receipt-query';
import { loadFleetPage, splitFleetPage } from '../../lib/sources/fleet-page';
import { loadFile } from '../../lib/sources/package';
import { LogVerifier } from '../../lib/verify/log-verifier';
import { TrustStore } from '../../lib/trust/trust-store';
import { sha256Ready } from '../../lib/crypto/sha256';
import { type FleetDemoKernel, fleetDemo } from '../../tools/fleet-demo';
import { exportDemoPackage } from '../../tools/demo/generate';
import { type LoopbackApi, startApiServer } from '../loopback-api';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BASE_PORT = Number(process.env.FLEET_TEST_BASE_PORT ?? 19320);
const DIR = mkdtempSync(path.join(tmpdir(), 'receipt-audit-fleet-'));
// npm test names the cluster's folder (FLEET_TEST_DIR) so it can stop it even if this file dies.
const CLUSTER_DIR = process.env.FLEET_TEST_DIR ?? path.join(DIR, 'cluster');
const COUNT = 450; // 4 checkpoints of 100 per kernel and an uncheckpointed tail of 50

function fleet(command: 'up' | 'down'): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/fleet.mjs', command], {
    cwd: ROOT,
    env: { ...process.env, FLEET_DIR: CLUSTER_DIR, FLEET_BASE_PORT: String(BASE_PORT) },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`fleet ${command} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function ingest(inputs: string[]): { code: number; report: any; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'ingest', ...inputs, '--clickhouse', url, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { code: r.status ?? -1, report: r.stdout ? JSON.parse(r.stdout) : null, stderr: r.stderr };
}

/** A statement straight to one node (not through our client), for counts the tests check. */
async function count(node: string, sqlText: string): Promise<number> {
  const res = await fetch(node, { method: 'POST', body: sqlText });
  expect(res.status, await res.clone().text()).toBe(200);
  return Number((await res.text()).trim());
}

interface Ref {
  kernel: string;
  seq: number;
  id: string;
  raw: string;
  timestamp: bigint;
  capabilityId: string;
  subjectKey: string | null;
  toolServer: string;
  toolName: string;
  decision: string;
  cost: bigint | null;
}

let url = '';
let api: LoopbackApi;
/** The same API with no kept lists and 16-position windows: the plan of a large fleet, on this small one. */
let windowed: LoopbackApi;
let kernels: FleetDemoKernel[] = [];
let firstIngest: { code: number; report: any; stderr: string };
const refs: Ref[] = [];
const expected = new Map<string, { tool: number; child: number; checkpoints: number; covered: number; records: number }>();

beforeAll(async () => {
  try {
    url = fleet('up').trim().split('\n').pop()!;
    kernels = await fleetDemo(path.join(DIR, 'demo'), COUNT);
    // The reference: each kernel's own store, read with its indexed columns.
    for (const k of kernels) {
      const db = new Database(k.store, { readonly: true });
      const rows = db
        .prepare(
          'SELECT seq, receipt_id, raw_json, timestamp, capability_id, subject_key, tool_server, tool_name, decision_kind FROM chio_tool_receipts ORDER BY seq',
        )
        .all() as any[];
      for (const r of rows) {
        const cost = JSON.parse(r.raw_json).metadata?.financial?.cost_charged;
        refs.push({
          kernel: k.kernelKey,
          seq: r.seq,
          id: r.receipt_id,
          raw: r.raw_json,
          timestamp: BigInt(r.timestamp),
          capabilityId: r.capability_id,
          subjectKey: r.subject_key,
          toolServer: r.tool_server,
          toolName: r.tool_name,
          decision: r.decision_kind,
          cost: typeof cost === 'number' ? BigInt(cost) : null,
        });
      }
      const n = (q: string) => (db.prepare(q).pluck().get() as number) ?? 0;
      // The kernel's signed lineage rows and v2 consistency records, as its package (or the export of its store) holds them.
      const pkg = path.join(DIR, `records-${k.kernelKey.slice(0, 8)}`);
      await exportDemoPackage(k.store, pkg);
      const lines = (f: string) => readFileSync(path.join(pkg, f), 'utf8').split('\n').filter(Boolean).length;
      expected.set(k.kernelKey, {
        records: lines('capability-lineage.ndjson') + lines('checkpoint-consistency-proofs.ndjson'),
        tool: rows.length,
        child: n('SELECT count(*) FROM chio_child_receipts'),
        checkpoints: n('SELECT count(*) FROM kernel_checkpoints'),
        covered: n(
          'SELECT count(*) FROM chio_tool_receipts t WHERE EXISTS (SELECT 1 FROM kernel_checkpoints c WHERE t.seq BETWEEN c.batch_start_seq AND c.batch_end_seq)',
        ),
      });
      db.close();
    }
    firstIngest = ingest(kernels.map((k) => k.input));
    api = await startApiServer({ CLICKHOUSE_URL: url, RECEIPT_API_TOKEN: '' });
    windowed = await startApiServer({ CLICKHOUSE_URL: url, RECEIPT_API_TOKEN: '', FLEET_QUERY_LISTED_MAX: '0', FLEET_QUERY_FIRST_WINDOW: '16' });
  } catch (e) {
    fleet('down');
    throw e;
  }
}, 600_000);

afterAll(async () => {
  await api?.stop();
  await windowed?.stop();
  fleet('down');
  rmSync(DIR, { recursive: true, force: true });
}, 120_000);

const shardUrl = (i: number) => `http://127.0.0.1:${BASE_PORT + i}/`;

async function getPage(q: string, pathname = '/v1/receipts/query', server = api) {
  const res = await fetch(`${server.origin}${pathname}${q ? `?${q}` : ''}`);
  return { status: res.status, text: await res.text() };
}

/** Every page of a query: the receipt ids in page order, the totalCount of each page, and the raw texts. */
async function walk(q: Omit<ReceiptQuery, 'limit'>, limit: number, server = api): Promise<{ ids: string[]; totals: string[]; raws: string[] }> {
  const out = { ids: [] as string[], totals: [] as string[], raws: [] as string[] };
  let cursor: bigint | undefined;
  for (let i = 0; i < 1000; i++) {
    const { status, text } = await getPage(
      toSearchParams({ ...q, limit, ...(cursor !== undefined ? { cursor } : {}) }).toString(),
      '/v1/receipts/query',
      server,
    );
    expect(status, text).toBe(200);
    const body = JSON.parse(text) as { totalCount: number; nextCursor: number | null };
    const members = objectMembers(text, { start: 0, end: text.length })!;
    for (const span of arrayItems(text, members.get('receipts')!)!) {
      const raw = text.slice(span.start, span.end);
      out.raws.push(raw);
      out.ids.push(JSON.parse(raw).id);
    }
    out.totals.push(text.slice(members.get('totalCount')!.start, members.get('totalCount')!.end));
    if (body.nextCursor === null) return out;
    cursor = BigInt(text.slice(members.get('nextCursor')!.start, members.get('nextCursor')!.end));
  }
  throw new Error('more than 1000 pages');
}

function matching(q: Omit<ReceiptQuery, 'limit'>): Ref[] {
  return refs.filter(
    (r) =>
      (q.kernelKey === undefined || r.kernel === q.kernelKey) &&
      (q.capabilityId === undefined || r.capabilityId === q.capabilityId) &&
      (q.toolServer === undefined || r.toolServer === q.toolServer) &&
      (q.toolName === undefined || r.toolName === q.toolName) &&
      (q.outcome === undefined || r.decision === q.outcome) &&
      (q.agentSubject === undefined || r.subjectKey === q.agentSubject) &&
      (q.since === undefined || r.timestamp >= q.since) &&
      (q.until === undefined || r.timestamp <= q.until) &&
      (q.minCost === undefined || (r.cost !== null && r.cost >= q.minCost)) &&
      (q.maxCost === undefined || (r.cost !== null && r.cost <= q.maxCost)),
  );
}

async function verifyTexts(files: { name: string; text: string }[], fleetPage = false) {
  await sha256Ready();
  const trust = TrustStore.create(kernels.map((k) => ({ key: k.kernelKey })));
  if (!trust.ok) throw new Error(trust.error);
  const verifier = new LogVerifier({ trust: trust.store });
  for (const [i, f] of files.entries()) {
    if (fleetPage) {
      const split = splitFleetPage(f.text);
      if (!split.ok) throw new Error(split.message);
      await loadFleetPage(split.page, verifier, `page:${i}`);
    } else {
      const bytes = new TextEncoder().encode(f.text);
      await loadFile(
        {
          name: f.name,
          async *stream() {
            yield bytes;
          },
        },
        verifier,
        'files',
        f.name,
      );
    }
  }
  return verifier.finish();
}

describe('ingest', () => {
  it('loads three kernels with three keys, reports each by key, and rejects nothing', () => {
    expect(firstIngest.code, firstIngest.stderr).toBe(0);
    const report = firstIngest.report;
    expect(Object.keys(report.kernels).sort()).toEqual(kernels.map((k) => k.kernelKey).sort());
    expect(new Set(kernels.map((k) => k.kernelKey)).size).toBe(3);
    for (const k of kernels) {
      const want = expected.get(k.kernelKey)!;
      const got = report.kernels[k.kernelKey];
      expect(got).toEqual({
        toolAdded: want.tool,
        childAdded: want.child,
        checkpointsAdded: want.checkpoints,
        proofsAdded: want.covered,
        recordsAdded: want.records,
        alreadyPresent: 0,
      });
      expect(want.covered).toBeLessThan(want.tool); // the tail is uncheckpointed
      expect(want.records).toBeGreaterThan(1); // signed lineage rows and a v2 consistency record
    }
    expect(report.rejected).toEqual([]);
    expect(report.receiptsRead).toBe([...expected.values()].reduce((a, e) => a + e.tool + e.child, 0));
    expect(report.receiptsPerSecond).toBeGreaterThan(0);
  });

  it('spreads the kernels over both shards, each kernel whole on one', async () => {
    const perShard = await Promise.all([1, 2].map((i) => count(shardUrl(i), 'SELECT count() FROM receipts_local')));
    expect(perShard.every((n) => n > 0)).toBe(true);
    const all = [...expected.values()].reduce((a, e) => a + e.tool + e.child, 0);
    expect(perShard[0]! + perShard[1]!).toBe(all);
    for (const k of kernels) {
      const where = `SELECT count() FROM receipts_local WHERE kernel_key = '${k.kernelKey}'`;
      const split = await Promise.all([1, 2].map((i) => count(shardUrl(i), where)));
      expect(split.filter((n) => n > 0)).toHaveLength(1);
    }
  });

  it('stores each receipt byte for byte as the kernel stored it', async () => {
    const { raws } = await walk({}, 200);
    const byId = new Map(refs.map((r) => [r.id, r.raw]));
    expect(raws).toHaveLength(refs.length);
    for (const raw of raws) expect(raw).toBe(byId.get(JSON.parse(raw).id));
  });
});

describe('GET /v1/receipts/query from the cluster', () => {
  it('pages across both shards with no gaps and no repeats, at any page size', async () => {
    for (const [limit, server] of [
      [200, api],
      [37, api],
      [7, api],
      [200, windowed],
      [37, windowed],
    ] as const) {
      const { ids, totals } = await walk({}, limit, server);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(new Set(refs.map((r) => r.id)));
      expect(new Set(totals)).toEqual(new Set([String(refs.length)]));
      expect(totals.length).toBe(Math.ceil(refs.length / limit));
    }
  }, 300_000);

  it('answers every filter as the kernels’ own stores do', async () => {
    const pick = <T>(xs: T[], i: number) => xs[Math.floor(xs.length * i) % xs.length]!;
    const times = refs.map((r) => r.timestamp).sort((a, b) => (a < b ? -1 : 1));
    const costs = refs.flatMap((r) => (r.cost === null ? [] : [r.cost])).sort((a, b) => (a < b ? -1 : 1));
    const some = refs[123]!;
    const queries: Omit<ReceiptQuery, 'limit'>[] = [
      ...kernels.map((k) => ({ kernelKey: k.kernelKey })),
      { capabilityId: some.capabilityId },
      { toolServer: some.toolServer },
      { toolName: some.toolName },
      { toolServer: some.toolServer, toolName: some.toolName },
      ...(['allow', 'deny', 'cancelled', 'incomplete'] as const).map((outcome) => ({ outcome })),
      { agentSubject: some.subjectKey! },
      { since: pick(times, 0.5) },
      { until: pick(times, 0.3) },
      { since: pick(times, 0.2), until: pick(times, 0.6) },
      { minCost: pick(costs, 0.5) },
      { maxCost: pick(costs, 0.5) },
      { minCost: pick(costs, 0.25), maxCost: pick(costs, 0.75) },
      { kernelKey: kernels[1]!.kernelKey, outcome: 'deny', since: pick(times, 0.1) },
      { capabilityId: 'no-such-capability' },
    ];
    for (const server of [api, windowed]) {
      for (const q of queries) {
        const want = matching(q);
        const { ids, totals } = await walk(q, 50, server);
        expect(
          ids.sort(),
          JSON.stringify(q, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
        ).toEqual(want.map((r) => r.id).sort());
        expect(new Set(totals)).toEqual(new Set([String(want.length)]));
      }
    }
    // The filters did filter: the reference is neither everything nor nothing for most of them.
    expect(queries.filter((q) => matching(q).length > 0 && matching(q).length < refs.length).length).toBeGreaterThan(15);
  }, 300_000);

  it('carries the proofs and checkpoints a page needs, and the page verifies', async () => {
    const pages: { name: string; text: string }[] = [];
    for (const q of [
      { limit: 200 },
      { limit: 200, outcome: 'deny' as const },
      { limit: 200, kernelKey: kernels[2]!.kernelKey, since: refs.find((r) => r.kernel === kernels[2]!.kernelKey && r.seq === 380)!.timestamp },
    ]) {
      const { status, text } = await getPage(toSearchParams(q).toString());
      expect(status).toBe(200);
      pages.push({ name: 'page.json', text });
    }
    const report = await verifyTexts(pages, true);
    const n = pages.reduce((a, p) => a + JSON.parse(p.text).receipts.length, 0);
    expect(report.ok).toBe(true);
    expect(report.receipts.length).toBe(n);
    expect(report.receipts.every((r) => r.verdict === 'verified')).toBe(true);
    const proven = report.receipts.filter((r) => r.checks.inclusion === 'pass').length;
    const tail = report.receipts.filter((r) => r.checks.inclusion !== 'pass');
    expect(proven).toBeGreaterThan(0);
    expect(tail.length).toBeGreaterThan(0); // the third page reaches the uncheckpointed tail
    expect(tail.every((r) => r.checks.inclusion === 'skipped')).toBe(true);
    // The signed lineage of the capabilities the pages use came with them, and verifies.
    expect(report.lineage?.length).toBeGreaterThan(0);
    expect(report.lineage!.every((l) => l.verdict === 'verified' && l.provenance === 'signed_token')).toBe(true);
  });

  it('the command line verifies a saved page as the browser does: per kernel, with proofs', async () => {
    const { text } = await getPage('limit=200&outcome=deny');
    const file = path.join(DIR, 'saved-page.json');
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', file, '--json', ...kernels.flatMap((k) => ['--trust-key', k.kernelKey])], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; receipts: { verdict: string; checks: Record<string, string> }[] };
    expect(report.receipts).toHaveLength(JSON.parse(text).receipts.length);
    expect(report.receipts.every((x) => x.verdict === 'verified')).toBe(true);
    expect(report.receipts.filter((x) => x.checks.inclusion === 'pass').length).toBeGreaterThan(100);
  });

  it('sums and counts in the cluster: the summary and the kernel list match the stores', async () => {
    const kernelsBody = JSON.parse((await getPage('', '/v1/fleet/kernels')).text);
    expect(kernelsBody.figures).toBe('index');
    for (const k of kernelsBody.kernels) {
      const want = expected.get(k.kernelKey)!;
      expect([k.toolReceipts, k.childReceipts, k.checkpoints, k.checkpointedReceipts, k.inclusionProofs].map(Number)).toEqual([
        want.tool,
        want.child,
        want.checkpoints,
        want.covered,
        want.covered,
      ]);
    }
    const summary = JSON.parse((await getPage('outcome=allow', '/v1/fleet/summary')).text);
    const allowed = matching({ outcome: 'allow' });
    expect(
      Object.values(summary.byKernel)
        .map(Number)
        .reduce((a, b) => a + b, 0),
    ).toBe(allowed.length);
    const costSum = allowed.reduce((a, r) => a + (r.cost ?? 0n), 0n);
    expect(Object.values(summary.costCharged as Record<string, { sum: string }>).reduce((a, c) => a + BigInt(c.sum), 0n)).toBe(costSum);
  });

  it('exports one kernel as a bundle that verifies, and refuses a bundle of several kernels', async () => {
    const k = kernels[0]!;
    const res = await fetch(`${api.origin}/v1/evidence/export`, { method: 'POST', body: JSON.stringify({ query: { kernelKey: k.kernelKey } }) });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const report = await verifyTexts([{ name: 'bundle.json', text }]);
    const want = expected.get(k.kernelKey)!;
    expect(report.ok).toBe(true);
    expect(report.receipts.length).toBe(want.tool + want.child);
    expect(report.receipts.filter((r) => r.checks.inclusion === 'pass').length).toBe(want.covered);
    // Every checkpoint of the kernel: the v2 chains recompute, the consistency records verify, the lineage is signed.
    expect(report.checkpoints).toHaveLength(want.checkpoints);
    const v2 = report.checkpoints.filter((c) => c.schema === 'chio.checkpoint_statement.v2');
    expect(v2.length).toBeGreaterThan(0);
    expect(v2.every((c) => c.checks.chain === 'pass')).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.lineage!.length).toBeGreaterThan(0);
    expect(report.lineage!.every((l) => l.verdict === 'verified')).toBe(true);
    const all = await fetch(`${api.origin}/v1/evidence/export`, { method: 'POST', body: '{}' });
    expect(all.status).toBe(400);
    expect((await all.json()).error.param).toBe('query.kernelKey');
    const proofs = await fetch(`${api.origin}/v1/evidence/export`, {
      method: 'POST',
      body: JSON.stringify({ query: { kernelKey: k.kernelKey }, requireProofs: true }),
    });
    expect(proofs.status).toBe(409); // the tail is not checkpointed
  });
});

const INJECTIONS = [
  "' OR 1=1 --",
  "x' OR '1'='1",
  "\\' OR 1=1 --",
  "'; DROP TABLE receipts_local; --",
  'x\\',
  "'\n UNION ALL SELECT raw_json FROM receipts --",
  "\u0000'",
  '1 OR 1=1',
  '1; DROP TABLE receipts',
];

describe('hostile input', () => {
  it('refuses an injection attempt in every parameter, and the tables stay whole', async () => {
    const before = await count(url, 'SELECT count() FROM receipts');
    const strings = ['capabilityId', 'toolServer', 'toolName', 'agentSubject'];
    const typed = ['outcome', 'since', 'until', 'minCost', 'maxCost', 'cursor', 'limit', 'kernelKey'];
    for (const payload of INJECTIONS) {
      for (const param of [...strings, ...typed]) {
        for (const pathname of ['/v1/receipts/query', '/v1/fleet/summary']) {
          if (pathname === '/v1/fleet/summary' && (param === 'cursor' || param === 'limit')) continue;
          const { status, text } = await getPage(new URLSearchParams({ [param]: payload }).toString(), pathname);
          if (strings.includes(param)) {
            // A string is data: it matches no receipt (none has such a value) and changes nothing.
            expect(status, `${pathname} ${param}=${JSON.stringify(payload)}: ${text}`).toBe(200);
            const body = JSON.parse(text);
            if (pathname === '/v1/receipts/query') expect(body.totalCount).toBe(0);
            else expect(body.byKernel).toEqual({});
          } else {
            expect(status, `${param}=${JSON.stringify(payload)}`).toBe(400);
            expect(JSON.parse(text).error.param).toBe(param);
          }
        }
      }
      const res = await fetch(`${api.origin}/v1/evidence/export`, {
        method: 'POST',
        body: JSON.stringify({ query: { kernelKey: kernels[0]!.kernelKey, capabilityId: payload } }),
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(await res.text()).bundle.toolReceipts).toEqual([]);
    }
    expect(await count(url, 'SELECT count() FROM receipts')).toBe(before);
    for (const i of [1, 2]) expect(await count(shardUrl(i), "SELECT count() FROM system.tables WHERE database = 'default' AND name LIKE '%_local'")).toBe(5);
  });

  it('re-ingesting the same packages and store adds nothing', async () => {
    const before = await count(url, 'SELECT count() FROM receipts');
    const again = ingest(kernels.map((k) => k.input));
    expect(again.code, again.stderr).toBe(0);
    for (const k of kernels) {
      const want = expected.get(k.kernelKey)!;
      expect(again.report.kernels[k.kernelKey]).toEqual({
        toolAdded: 0,
        childAdded: 0,
        checkpointsAdded: 0,
        proofsAdded: 0,
        recordsAdded: 0,
        alreadyPresent: want.tool + want.child + want.checkpoints + want.covered + want.records,
      });
    }
    expect(await count(url, 'SELECT count() FROM receipts')).toBe(before);
    expect(await count(url, 'SELECT count() FROM checkpoints')).toBe([...expected.values()].reduce((a, e) => a + e.checkpoints, 0));
  });

  it('reports a bad record with its file and line, ingests the rest, and finds a value full of quotes exactly', async () => {
    // A fourth kernel's package, written by hand: unsigned receipts are fine for the index (it
    // never vouches for them; the browser would fail them). Its tool names are hostile.
    const key = 'ab'.repeat(32);
    const weird = "it's a \\'test\\' \n \"x\" é😀 \\x27 ' OR 1=1 --";
    const receipt = (id: string, tool: string) =>
      JSON.stringify({
        id,
        timestamp: 1800000000,
        capability_id: 'cap-h',
        tool_server: 'srv-h',
        tool_name: tool,
        decision: { verdict: 'allow' },
        kernel_key: key,
        signature: '00',
      });
    const dir = path.join(DIR, 'hostile-package');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'receipts.ndjson'),
      [
        `{"seq":1,"receipt":${receipt('h-1', weird)}}`,
        '{"seq":2,"receipt":{"id":"h-2",', // not JSON
        `{"seq":3,"receipt":${JSON.stringify({ id: 'h-3', timestamp: 1, kernel_key: key })}}`, // no tool_server
        `{"seq":4,"receipt":${receipt('h-4', 'plain')}}`,
      ].join('\n'),
    );
    // Given twice in one run: the second copy's records are found present, its bad lines reported again.
    const r = ingest([dir, dir]);
    expect(r.code).toBe(1);
    const bad = [`${path.join(dir, 'receipts.ndjson')}:2`, `${path.join(dir, 'receipts.ndjson')}:3`];
    expect(r.report.rejected.map((x: { where: string }) => x.where)).toEqual([...bad, ...bad]);
    expect(r.report.rejected[0].reason).toMatch(/not JSON/);
    expect(r.report.rejected[1].reason).toMatch(/capability_id|tool_server/);
    expect(r.report.kernels[key]).toMatchObject({ toolAdded: 2, alreadyPresent: 2 });
    const found = await walk({ toolName: weird }, 10);
    expect(found.ids).toEqual(['h-1']);
    expect((await walk({ toolName: weird.slice(0, -1) }, 10)).ids).toEqual([]);
    expect((await walk({ kernelKey: key }, 10)).ids).toEqual(['h-1', 'h-4']);
  });
});

describe('a server of one store', () => {
  it('refuses the fleet-only parameter and endpoints, saying why', async () => {
    const one = await startApiServer({ RECEIPT_DB: kernels[2]!.store, RECEIPT_API_TOKEN: '' });
    try {
      const q = await fetch(`${one.origin}/v1/receipts/query?kernelKey=${kernels[2]!.kernelKey}`);
      expect(q.status).toBe(400);
      expect((await q.json()).error.message).toMatch(/one receipt store, not a fleet/);
      const k = await fetch(`${one.origin}/v1/fleet/kernels`);
      expect(k.status).toBe(404);
      expect((await k.json()).error.message).toMatch(/CLICKHOUSE_URL/);
    } finally {
      await one.stop();
    }
  });
});
