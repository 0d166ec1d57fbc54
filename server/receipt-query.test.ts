// GET /v1/receipts/query over real HTTP: each server is a child process running
// server/serve-receipt-api.ts (node:http → the same handler as the Next route), so SQLite is
// configured as in a real server process. Stores: copies of the real showcase stores, a
// 10,000-receipt synthetic store built with createChioStore, and a small store of hostile rows.
// Every response is compared byte for byte with a body built here from rows read independently
// (sql.js, or the generator's own objects) and filtered by a plain reference implementation.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../lib/json/parse';
import { isJsonNumber, isJsonObject, type JsonValue } from '../lib/json/value';
import { RECEIPT_OUTCOMES, toSearchParams, type ReceiptQuery } from '../lib/query/receipt-query';
import { CHIO_STORE_SCHEMA_SQL } from '../lib/sources/chio-store-schema';
import { createChioStore, type ToolReceiptInput } from '../lib/sources/sqlite-store-writer';
import { type LoopbackApi as Server, startApiServer } from './loopback-api';
import { SYNTHETIC_BASE_TIME, capabilityId, lineageSubject, subjectKey, syntheticLineage, syntheticReceipts } from './synthetic-store';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SHOWCASE = path.join(ROOT, 'lib/testdata/chio/showcase/sqlite');
const TOKEN = 'rq-test-token-6c1f0e';
const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;

// ---------------------------------------------------------------- servers

const servers: Server[] = [];
const startServer = async (env: Record<string, string>): Promise<Server> => {
  const server = await startApiServer({ RECEIPT_API_TOKEN: TOKEN, ...env });
  servers.push(server);
  return server;
};

async function get(server: Server, query: string, init: { token?: string | null; method?: string; path?: string } = {}) {
  const headers: Record<string, string> = {};
  const token = init.token === undefined ? TOKEN : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${server.origin}${init.path ?? '/v1/receipts/query'}${query ? `?${query}` : ''}`, { method: init.method ?? 'GET', headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

// biome-ignore lint/suspicious/noExplicitAny: answers the test reads field by field; their shape is what it asserts
const jsonOf = (body: Buffer) => JSON.parse(body.toString('utf8')) as Record<string, any>;

// ---------------------------------------------------------------- reference implementation

interface Ref {
  seq: number;
  raw: Buffer;
  timestamp: bigint;
  capabilityId: string;
  subjectKey: string | null;
  toolServer: string;
  toolName: string;
  decision: string;
  cost: bigint | null;
}

interface Dataset {
  refs: Ref[];
  lineage: Map<string, string>;
}

function matches(q: ReceiptQuery, r: Ref, lineage: Map<string, string>): boolean {
  if (q.capabilityId !== undefined && r.capabilityId !== q.capabilityId) return false;
  if (q.toolServer !== undefined && r.toolServer !== q.toolServer) return false;
  if (q.toolName !== undefined && r.toolName !== q.toolName) return false;
  if (q.outcome !== undefined && r.decision !== q.outcome) return false;
  if (q.since !== undefined && r.timestamp < q.since) return false;
  if (q.until !== undefined && r.timestamp > q.until) return false;
  if (q.minCost !== undefined && (r.cost === null || r.cost < q.minCost)) return false;
  if (q.maxCost !== undefined && (r.cost === null || r.cost > q.maxCost)) return false;
  if (q.agentSubject !== undefined && r.subjectKey !== q.agentSubject && lineage.get(r.capabilityId) !== q.agentSubject) return false;
  return true;
}

function body(total: number, next: number | null, raws: Buffer[]): Buffer {
  return Buffer.concat([
    Buffer.from(`{"totalCount":${total},"nextCursor":${next ?? 'null'},"receipts":[`),
    ...raws.flatMap((r, i) => (i ? [Buffer.from(','), r] : [r])),
    Buffer.from(']}'),
  ]);
}

function firstDifference(a: Buffer, b: Buffer): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `bytes differ at ${i} of ${a.length}/${b.length}: got …${a.subarray(Math.max(0, i - 40), i + 40).toString()}… want …${b.subarray(Math.max(0, i - 40), i + 40).toString()}…`;
}

/**
 * Walks every page of `q` (from its own cursor, if any) and checks each body byte for byte:
 * the expected rows in seq order, a stable totalCount, and nextCursor = the page's last seq
 * until the last page, then null. Returns the number of pages.
 */
async function walkAndCheck(server: Server, data: Dataset, q: ReceiptQuery): Promise<number> {
  const all = data.refs.filter((r) => matches(q, r, data.lineage));
  const want = all.filter((r) => q.cursor === undefined || BigInt(r.seq) > q.cursor);
  let cursor = q.cursor;
  for (let page = 0; ; page++) {
    const slice = want.slice(page * q.limit, (page + 1) * q.limit);
    const next = (page + 1) * q.limit < want.length ? slice[slice.length - 1]!.seq : null;
    const params = toSearchParams({ ...q, cursor });
    const res = await get(server, params.toString());
    const expected = body(
      all.length,
      next,
      slice.map((r) => r.raw),
    );
    if (res.status !== 200 || !res.body.equals(expected)) {
      throw new Error(`${params} (page ${page}): HTTP ${res.status}; ${firstDifference(res.body, expected)}`);
    }
    if (next === null) return page + 1;
    cursor = BigInt(next);
  }
}

// ---------------------------------------------------------------- stores

let SQL: SqlJsStatic;
let dir: string;
const file = (name: string) => path.join(dir, name);

const toInput = (r: { seq?: number; costCharged?: bigint | null } & ToolReceiptInput): ToolReceiptInput => {
  const { seq: _seq, costCharged: _cost, ...input } = r;
  return input;
};

async function buildSynthetic(count: number): Promise<Dataset> {
  const receipts = syntheticReceipts(count);
  const db = new SQL.Database(createChioStore(SQL, { toolReceipts: receipts.map(toInput) }));
  const insert = db.prepare('INSERT INTO capability_lineage VALUES (?, ?, ?, ?, ?, ?, ?, NULL)');
  for (const l of syntheticLineage()) insert.run([l.capabilityId, l.subjectKey, l.issuerKey, l.issuedAt, l.expiresAt, l.grantsJson, l.delegationDepth]);
  insert.free();
  const bytes = db.export();
  db.close();
  bytes[18] = 2; // WAL mode, fully checkpointed: how a kernel leaves its store
  bytes[19] = 2;
  writeFileSync(file('synthetic.sqlite3'), bytes);
  const refs = receipts.map((r) => ({
    seq: r.seq,
    raw: Buffer.from(r.rawJson, 'utf8'),
    timestamp: BigInt(r.timestamp),
    capabilityId: r.capabilityId,
    subjectKey: r.subjectKey ?? null,
    toolServer: r.toolServer,
    toolName: r.toolName,
    decision: r.decisionKind,
    cost: r.costCharged,
  }));
  return { refs, lineage: new Map(syntheticLineage().map((l) => [l.capabilityId, l.subjectKey])) };
}

/** metadata.financial.cost_charged when it is a non-negative integer literal (lossless parse). */
function costOf(raw: Buffer): bigint | null {
  const parsed = parseJson(raw.toString('utf8'));
  if (!parsed.ok) return null;
  let v: JsonValue | undefined = parsed.value;
  for (const key of ['metadata', 'financial', 'cost_charged']) v = isJsonObject(v) ? v.get(key) : undefined;
  const n = isJsonNumber(v) ? v.toBigInt() : null;
  return n !== null && n >= 0n ? n : null;
}

/** A showcase store read with sql.js from its bytes (WAL flag cleared in the in-memory copy). */
function readShowcase(name: string): Dataset {
  const bytes = new Uint8Array(readFileSync(path.join(SHOWCASE, name)));
  bytes[18] = 1;
  bytes[19] = 1;
  const db = new SQL.Database(bytes);
  const rows =
    db.exec(
      'SELECT seq, timestamp, capability_id, subject_key, tool_server, tool_name, decision_kind, CAST(raw_json AS BLOB) FROM chio_tool_receipts ORDER BY seq',
    )[0]?.values ?? [];
  const lineage = db.exec('SELECT capability_id, subject_key FROM capability_lineage')[0]?.values ?? [];
  db.close();
  return {
    refs: rows.map(([seq, ts, cap, subject, server, tool, decision, raw]) => ({
      seq: Number(seq),
      raw: Buffer.from(raw as Uint8Array),
      timestamp: BigInt(ts as number),
      capabilityId: String(cap),
      subjectKey: subject === null ? null : String(subject),
      toolServer: String(server),
      toolName: String(tool),
      decision: String(decision),
      cost: costOf(Buffer.from(raw as Uint8Array)),
    })),
    lineage: new Map(lineage.map(([cap, subject]) => [String(cap), String(subject)])),
  };
}

/** Hostile and boundary rows, in a rollback-journal store without capability_lineage. */
const EDGE_RAWS: string[] = [
  '{"id":"e1","metadata":{"attribution":{"subject_key":"S1"},"financial":{"cost_charged":5}}}',
  '{"id":"e2","metadata":{"financial":{"cost_charged":9223372036854775807}}}',
  '{"id":"e3","metadata":{"financial":{"cost_charged":9223372036854775808}}}',
  '{"id":"e4","metadata":{"financial":{"budget_total":18446744073709551615,"cost_charged":18446744073709551615}}}',
  '{"id":"e5","metadata":{"financial":{"cost_charged":99999999999999999999999}}}',
  '{"id":"e6","metadata":{"financial":{"cost_charged":-5}}}',
  '{"id":"e7","metadata":{"financial":{"cost_charged":1.5}}}',
  '{"id":"e8","metadata":{"financial":{"cost_charged":"7"}}}',
  '{"id":"e9","metadata":{"financial":{"currency":"USD"}}}',
  'not json at all',
  '{"a":1}],"totalCount":999,"nextCursor":null,"receipts":[{"b":2}',
  '{"id":"nul\u0000inside"}',
  '[1,2]',
  '  {"id":"e14 padded"}\n',
  '{"id":"e15","metadata":{"financial":{"cost_charged":0}}}',
  '{"id":"e16 \\u2028 é 😀","metadata":{"financial":{"cost_charged":7}}}',
];
const EDGE_BLOB = '{"id":"e17 stored as a BLOB","metadata":{"financial":{"cost_charged":9}}}';

function buildEdge(): void {
  const rows: ToolReceiptInput[] = EDGE_RAWS.map((rawJson, i) => ({
    rawJson,
    receiptId: `edge-${i + 1}`,
    timestamp: 1_700_000_000 + i,
    capabilityId: i < 8 ? 'cap-edge-a' : 'cap-edge-b',
    toolServer: 'edge',
    toolName: i % 2 ? 'odd' : 'even',
    decisionKind: i === 3 ? 'deny' : 'allow',
    policyHash: 'p',
    contentHash: 'c',
    ...(i === 0 ? { subjectKey: 'S1' } : {}),
  }));
  const db = new SQL.Database(createChioStore(SQL, { toolReceipts: rows }));
  db.exec('DROP TABLE capability_lineage');
  db.run(
    `INSERT INTO chio_tool_receipts (receipt_id, timestamp, capability_id, tool_server, tool_name, decision_kind, policy_hash, content_hash, raw_json)
     VALUES ('edge-17', 1700000016, 'cap-edge-b', 'edge', 'even', 'allow', 'p', 'c', ?)`,
    [new TextEncoder().encode(EDGE_BLOB)],
  );
  writeFileSync(file('edge.sqlite3'), db.export());
  db.close();
}

function fingerprint(name: string): { sha256: string; mtimeMs: number; size: number } {
  const st = statSync(file(name));
  return {
    sha256: createHash('sha256')
      .update(readFileSync(file(name)))
      .digest('hex'),
    mtimeMs: st.mtimeMs,
    size: st.size,
  };
}

// ---------------------------------------------------------------- setup

const STORES = ['provider-receipts.sqlite3', 'federation-receipts.sqlite3', 'operator-receipts.sqlite3', 'synthetic.sqlite3', 'edge.sqlite3'];
let synthetic: Dataset;
let before: Map<string, ReturnType<typeof fingerprint>>;
const srv: Record<string, Server> = {};

beforeAll(async () => {
  SQL = await initSqlJs();
  dir = mkdtempSync(path.join(tmpdir(), 'ra-receipt-query-'));
  for (const name of STORES.slice(0, 3)) {
    cpSync(path.join(SHOWCASE, name), file(name));
    for (const side of ['-wal', '-shm']) {
      try {
        cpSync(path.join(SHOWCASE, name + side), file(name + side));
      } catch {
        /* the showcase stores are checkpointed: no -wal */
      }
    }
  }
  synthetic = await buildSynthetic(10_000);
  buildEdge();
  writeFileSync(file('not-a-store.sqlite3'), 'hello, I am not SQLite at all; '.repeat(200));
  before = new Map(STORES.map((n) => [n, fingerprint(n)]));
  const started = await Promise.all([
    startServer({ RECEIPT_DB: file('provider-receipts.sqlite3') }),
    startServer({ RECEIPT_DB: file('federation-receipts.sqlite3') }),
    startServer({ RECEIPT_DB: file('operator-receipts.sqlite3') }),
    startServer({ RECEIPT_DB: file('synthetic.sqlite3') }),
    startServer({ RECEIPT_DB: file('synthetic.sqlite3'), RECEIPT_QUERY_LISTED_MAX: '0' }),
    startServer({ RECEIPT_DB: file('edge.sqlite3') }),
    startServer({ RECEIPT_DB: file('provider-receipts.sqlite3'), RECEIPT_API_TOKEN: '' }),
    startServer({ RECEIPT_DB: file('missing/nowhere.sqlite3') }),
    startServer({ RECEIPT_DB: file('not-a-store.sqlite3') }),
  ]);
  [srv.provider, srv.federation, srv.operator, srv.synthetic, srv.unlisted, srv.edge, srv.open, srv.missing, srv.garbage] = started;
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- tests

describe('pagination over 10,000 receipts', () => {
  it.each([
    ['limit=200', 200, 50],
    ['limit=199', 199, 51],
    ['default limit (50)', 50, 200],
    ['limit=7', 7, 1429],
  ])('%s: every receipt once, in seq order, stable totalCount, nextCursor null at the end', async (_, limit, pages) => {
    expect(await walkAndCheck(srv.synthetic!, synthetic, { limit })).toBe(pages);
  });

  it('limit=1 over a filter, and the same walk without the cached seq list (walk and index plans)', async () => {
    const q: ReceiptQuery = { limit: 1, capabilityId: capabilityId(3) };
    const pages = await walkAndCheck(srv.synthetic!, synthetic, q);
    expect(pages).toBe(synthetic.refs.filter((r) => r.capabilityId === capabilityId(3)).length);
    expect(await walkAndCheck(srv.unlisted!, synthetic, { limit: 200 })).toBe(50);
    expect(await walkAndCheck(srv.unlisted!, synthetic, q)).toBe(pages);
  });

  it('the page after the last is empty, and a cursor past the end or at u64 max is an empty page with the full count', async () => {
    for (const cursor of ['10000', '123456789', U64_MAX.toString()]) {
      const res = await get(srv.synthetic!, `cursor=${cursor}`);
      expect(res.body.toString()).toBe('{"totalCount":10000,"nextCursor":null,"receipts":[]}');
    }
    const res = await get(srv.synthetic!, 'cursor=9999&limit=1');
    expect(res.body.equals(body(10_000, null, [synthetic.refs[9999]!.raw]))).toBe(true);
  });

  it('cursor=0 starts at the beginning; nextCursor is a bare JSON number', async () => {
    const res = await get(srv.synthetic!, 'cursor=0&limit=2');
    expect(res.body.toString().startsWith('{"totalCount":10000,"nextCursor":2,"receipts":[{')).toBe(true);
  });
});

function pools() {
  const refs = synthetic.refs;
  return {
    capabilityId: [capabilityId(3), capabilityId(10), capabilityId(77), 'cap-none'],
    toolServer: ['payments', '*', 'github', 'filesystem', 'nope'],
    toolName: ['read_file', 'charge', 'wildcard_tool', 'nope'],
    outcome: [...RECEIPT_OUTCOMES],
    since: [0n, BigInt(SYNTHETIC_BASE_TIME + 5_000), refs[4_321]!.timestamp, BigInt(SYNTHETIC_BASE_TIME + 19_990), I64_MAX + 1n, U64_MAX],
    until: [BigInt(SYNTHETIC_BASE_TIME + 3_000), refs[4_321]!.timestamp, BigInt(SYNTHETIC_BASE_TIME + 15_000), I64_MAX, U64_MAX],
    minCost: [0n, 1n, 50_000n, 99_999n, 1n << 53n, I64_MAX, I64_MAX + 1n, 12345678901234567890n, U64_MAX],
    maxCost: [0n, 100n, 50_000n, (1n << 53n) + 1n, I64_MAX, I64_MAX + 1n, U64_MAX - 1n, U64_MAX],
    agentSubject: [subjectKey(lineageSubject(3)), subjectKey(0), subjectKey(49), 'nobody'],
  } satisfies Partial<Record<keyof ReceiptQuery, unknown[]>>;
}

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('every filter alone and combined, against an independent computation', () => {
  it('each filter alone, every value in its pool, on both page strategies', async () => {
    const failures: string[] = [];
    let n = 0;
    for (const [key, values] of Object.entries(pools())) {
      for (const value of values) {
        const q = { limit: 200, [key]: value } as ReceiptQuery;
        for (const server of [srv.synthetic!, srv.unlisted!]) {
          n++;
          await walkAndCheck(server, synthetic, q).catch((e: Error) => failures.push(e.message));
        }
      }
    }
    expect(failures, `${failures.length} of ${n} failed`).toEqual([]);
  });

  it('the filters select what they should (non-trivial counts, so the comparisons mean something)', () => {
    const count = (q: ReceiptQuery) => synthetic.refs.filter((r) => matches(q, r, synthetic.lineage)).length;
    const viaLineageOnly = synthetic.refs.filter(
      (r) => r.subjectKey !== subjectKey(lineageSubject(3)) && synthetic.lineage.get(r.capabilityId) === subjectKey(lineageSubject(3)),
    );
    expect(viaLineageOnly.length).toBeGreaterThan(10);
    expect(count({ limit: 1, minCost: I64_MAX + 1n })).toBeGreaterThan(20);
    expect(count({ limit: 1, minCost: 0n })).toBeGreaterThan(4_000);
    expect(count({ limit: 1, minCost: 0n })).toBeLessThan(7_000);
    for (const outcome of RECEIPT_OUTCOMES) expect(count({ limit: 1, outcome })).toBeGreaterThan(300);
  });

  it('150 random combinations of 2 to 5 filters, random limits and starting cursors', async () => {
    const p = pools();
    const keys = Object.keys(p) as (keyof typeof p)[];
    const rnd = prng(20261122);
    const failures: string[] = [];
    for (let i = 0; i < 150; i++) {
      const q: ReceiptQuery = { limit: [200, 37, 1, 200][Math.floor(rnd() * 4)]! };
      const chosen = keys.filter(() => rnd() < 0.35).slice(0, 5);
      for (const key of chosen.length >= 2 ? chosen : [keys[i % keys.length]!, keys[(i + 3) % keys.length]!]) {
        const pool = p[key] as unknown[];
        Object.assign(q, { [key]: pool[Math.floor(rnd() * pool.length)] });
      }
      if (q.since !== undefined && q.until !== undefined && q.since > q.until) [q.since, q.until] = [q.until, q.since];
      if (q.minCost !== undefined && q.maxCost !== undefined && q.minCost > q.maxCost) [q.minCost, q.maxCost] = [q.maxCost, q.minCost];
      if (rnd() < 0.3) q.cursor = BigInt(Math.floor(rnd() * 10_000));
      const server = i % 2 ? srv.unlisted! : srv.synthetic!;
      if (q.limit === 1 && synthetic.refs.filter((r) => matches(q, r, synthetic.lineage)).length > 300) q.limit = 200;
      await walkAndCheck(server, synthetic, q).catch((e: Error) => failures.push(`#${i} ${e.message}`));
    }
    expect(failures, `${failures.length} of 150 failed`).toEqual([]);
  });
});

describe('big integers and bytes survive exactly', () => {
  it('u64 costs above 2^53 and 2^63 come back byte-exact (JSON.parse would have changed them)', async () => {
    const res = await get(srv.synthetic!, `minCost=${U64_MAX - 2n}&limit=200`);
    const want = synthetic.refs.filter((r) => r.cost !== null && r.cost >= U64_MAX - 2n);
    expect(want.length).toBeGreaterThan(5);
    expect(
      res.body.equals(
        body(
          want.length,
          null,
          want.map((r) => r.raw),
        ),
      ),
    ).toBe(true);
    const text = res.body.toString('utf8');
    expect(text).toContain('"cost_charged":18446744073709551615');
    expect(JSON.stringify(JSON.parse(want[0]!.raw.toString()))).not.toBe(want[0]!.raw.toString());
  });

  it('minCost = maxCost = one exact u64 value selects exactly the receipts with that cost', async () => {
    for (const v of [12345678901234567891n, I64_MAX + 1n, I64_MAX, (1n << 53n) + 1n]) {
      const want = synthetic.refs.filter((r) => r.cost === v || r.cost === v - 1n || r.cost === v - 2n).filter((r) => r.cost === v);
      const res = await get(srv.synthetic!, `minCost=${v}&maxCost=${v}&limit=200`);
      expect(
        res.body.equals(
          body(
            want.length,
            null,
            want.map((r) => r.raw),
          ),
        ),
        String(v),
      ).toBe(true);
    }
  });
});

describe('the real showcase stores', () => {
  it('provider: 8 receipts, byte-exact, every filter against the reference', async () => {
    const data = readShowcase('provider-receipts.sqlite3');
    expect(data.refs).toHaveLength(8);
    const subject = 'bff663535a5cf58658cc38595d20dc4501f6dfc076ddf07e20571d413a3ceb5a';
    const queries: ReceiptQuery[] = [
      { limit: 50 },
      { limit: 3 },
      { limit: 1, agentSubject: subject },
      { limit: 50, agentSubject: data.refs[6]!.subjectKey! },
      { limit: 50, toolName: 'issue_review_attestation' },
      { limit: 2, toolServer: 'provider-review', since: 1776131579n, until: 1776995581n },
      { limit: 50, capabilityId: 'cap-ioa-web3-provider', outcome: 'allow' },
      { limit: 50, outcome: 'deny' },
      { limit: 50, minCost: 0n },
      { limit: 50, cursor: 5n },
    ];
    for (const q of queries) await walkAndCheck(srv.provider!, data, q);
    const res = await get(srv.provider!, `agentSubject=${subject}`);
    expect(jsonOf(res.body).totalCount).toBe(5);
  });

  it('federation: its one receipt is found through its own subject and capability lineage, not through another subject of the lineage table', async () => {
    const data = readShowcase('federation-receipts.sqlite3');
    const r = data.refs[0]!;
    await walkAndCheck(srv.federation!, data, { limit: 50 });
    await walkAndCheck(srv.federation!, data, { limit: 50, agentSubject: r.subjectKey! });
    const other = 'bff663535a5cf58658cc38595d20dc4501f6dfc076ddf07e20571d413a3ceb5a';
    expect((await get(srv.federation!, `agentSubject=${other}`)).body.toString()).toBe('{"totalCount":0,"nextCursor":null,"receipts":[]}');
  });

  it('operator: no receipts, an empty page for any query', async () => {
    for (const q of ['', 'limit=200', 'outcome=allow&minCost=1', 'cursor=5', 'agentSubject=x']) {
      expect((await get(srv.operator!, q)).body.toString()).toBe('{"totalCount":0,"nextCursor":null,"receipts":[]}');
    }
  });
});

describe('hostile rows (a store without capability_lineage)', () => {
  const raws = () => [...EDGE_RAWS, EDGE_BLOB].map((raw, i) => ({ seq: i + 1, raw }));
  /**
   * Rows the server must not splice, and why: not one JSON object, a NUL in a string, stored as a
   * BLOB, or an integer beyond 64 bits (our lossless parser, as the verifier, refuses it: contract §2).
   */
  const BAD: Record<number, string> = { 5: 'invalid_json', 10: 'invalid_json', 11: 'invalid_json', 12: 'invalid_json', 13: 'not_an_object', 17: 'not_text' };
  const served = (seq: number) => Buffer.from(raws()[seq - 1]!.raw, 'utf8');
  /** The page of `seqs`: the good rows spliced verbatim, and the bad ones named in `problems` (table, seq, code). */
  function expectPage(res: { body: Buffer }, total: number, seqs: number[]) {
    const good = seqs.filter((s) => !BAD[s]);
    const prefix = body(total, null, good.map(served)).subarray(0, -2);
    expect(res.body.subarray(0, prefix.length).equals(prefix), res.body.toString()).toBe(true);
    const parsed = jsonOf(res.body);
    const bad = seqs.filter((s) => BAD[s]);
    expect(Object.keys(parsed)).toEqual(bad.length ? ['totalCount', 'nextCursor', 'receipts', 'problems'] : ['totalCount', 'nextCursor', 'receipts']);
    expect((parsed.problems ?? []).map((p: Record<string, unknown>) => [p.schema, p.table, p.seq, p.code])).toEqual(
      bad.map((s) => ['receipt-audit.export_problem.v1', 'chio_tool_receipts', s, BAD[s]]),
    );
    for (const p of parsed.problems ?? []) expect(p.message).toMatch(new RegExp(`^chio_tool_receipts seq ${p.seq}: raw_json `));
  }

  it('valid JSON objects verbatim (whitespace included); anything else left out and named, so the envelope cannot be forged', async () => {
    const res = await get(srv.edge!, 'limit=200');
    expectPage(
      res,
      17,
      raws().map((r) => r.seq),
    );
    const parsed = jsonOf(res.body);
    expect(parsed.totalCount).toBe(17);
    expect(parsed.receipts).toHaveLength(11);
    expect(parsed.nextCursor).toBeNull();
  });

  it.each([
    ['minCost=0', [1, 2, 3, 4, 5, 15, 16, 17]],
    ['maxCost=18446744073709551615', [1, 2, 3, 4, 15, 16, 17]],
    ['minCost=18446744073709551615', [4, 5]],
    ['minCost=18446744073709551615&maxCost=18446744073709551615', [4]],
    ['minCost=9223372036854775807&maxCost=9223372036854775808', [2, 3]],
    ['minCost=9223372036854775808', [3, 4, 5]],
    ['maxCost=9223372036854775806', [1, 15, 16, 17]],
    ['minCost=6&maxCost=9', [16, 17]],
    ['minCost=0&outcome=deny', [4]],
    ['minCost=0&toolName=even', [1, 3, 5, 15, 17]],
  ])('%s → seqs %j (non-negative integer cost_charged only; beyond u64 is still an integer)', async (qs, seqs) => {
    expectPage(await get(srv.edge!, `${qs}&limit=200`), seqs.length, seqs);
  });

  it('agentSubject without a capability_lineage table matches subject_key alone', async () => {
    expect((await get(srv.edge!, 'agentSubject=S1')).body.equals(body(1, null, [served(1)]))).toBe(true);
  });
});

describe('bearer token', () => {
  const noData = (b: Buffer) => expect(b.toString()).not.toMatch(/receipts|totalCount|cost_charged/);

  it('missing: 401, WWW-Authenticate: Bearer, a JSON error and no data', async () => {
    const res = await get(srv.provider!, 'limit=5', { token: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="receipt-audit"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(jsonOf(res.body)).toEqual({ error: { code: 'unauthorized', message: 'a bearer token is required' } });
    noData(res.body);
  });

  it.each([['wrong'], [`${TOKEN}x`], [TOKEN.slice(0, -1)], [TOKEN.toUpperCase()], [`${TOKEN}\u00e9`]])(
    'wrong token %s: 401 invalid_token, no data',
    async (token) => {
      const res = await fetch(`${srv.provider!.origin}/v1/receipts/query`, { headers: { authorization: `Bearer ${encodeURI(token)}` } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="receipt-audit", error="invalid_token"');
      noData(Buffer.from(await res.arrayBuffer()));
    },
  );

  it('other schemes and malformed headers: 401 invalid_request, no data', async () => {
    for (const authorization of [
      `Basic ${TOKEN}`,
      TOKEN,
      'Bearer',
      'Bearer ',
      `Token ${TOKEN}`,
      `Bearer ${TOKEN} ${TOKEN}`,
      `Bearer ${TOKEN}, Bearer ${TOKEN}`,
    ]) {
      const res = await fetch(`${srv.provider!.origin}/v1/receipts/query`, { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="receipt-audit", error="invalid_request"');
      noData(Buffer.from(await res.arrayBuffer()));
    }
  });

  it('correct: 200 (scheme case-insensitive); auth is checked before parameters, methods and paths', async () => {
    expect((await get(srv.provider!, 'limit=1')).status).toBe(200);
    const lower = await fetch(`${srv.provider!.origin}/v1/receipts/query?limit=1`, { headers: { authorization: `bearer ${TOKEN}` } });
    expect(lower.status).toBe(200);
    expect((await get(srv.provider!, 'limit=0&bogus=1', { token: null })).status).toBe(401);
    expect((await get(srv.provider!, '', { token: null, method: 'POST' })).status).toBe(401);
    expect((await get(srv.provider!, '', { token: null, path: '/v1/nothing/here' })).status).toBe(401);
  });

  it('no RECEIPT_API_TOKEN configured: the API is open', async () => {
    const res = await get(srv.open!, 'limit=1', { token: null });
    expect(res.status).toBe(200);
    expect(jsonOf(res.body).totalCount).toBe(8);
  });
});

describe('errors', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['since=1e3', 'since'],
    ['until=+5', 'until'],
    ['outcome=maybe', 'outcome'],
    ['unknown=1', 'unknown'],
    ['cursor=-1', 'cursor'],
    ['cursor=18446744073709551616', 'cursor'],
    ['limit=5&limit=6', 'limit'],
    ['minCost=10&maxCost=9', 'minCost'],
    ['since=10&until=9', 'since'],
    ['toolServer=', 'toolServer'],
  ])('%s → 400 naming %s', async (qs, param) => {
    const res = await get(srv.synthetic!, qs);
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { error } = jsonOf(res.body);
    expect(error.code).toBe('invalid_parameter');
    expect(error.param).toBe(param);
    expect(error.message).toMatch(new RegExp(`^${param}: `));
    expect(error.issues[0].param).toBe(param);
  });

  it('several bad parameters are all listed', async () => {
    const { error } = jsonOf((await get(srv.synthetic!, 'limit=0&outcome=maybe&x=1')).body);
    expect(error.issues.map((i: { param: string }) => i.param)).toEqual(['x', 'outcome', 'limit']);
  });

  it('other methods: 405 with Allow: GET; HEAD: headers only; unknown /v1 paths: JSON 404', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await get(srv.provider!, '', { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(jsonOf(res.body).error.code).toBe('method_not_allowed');
    }
    const head = await get(srv.provider!, 'limit=1', { method: 'HEAD' });
    expect([head.status, head.body.length, head.headers.get('content-type')]).toEqual([200, 0, 'application/json; charset=utf-8']);
    const res = await get(srv.provider!, '', { path: '/v1/receipts/nope' });
    expect([res.status, jsonOf(res.body).error.code]).toEqual([404, 'not_found']);
  });

  it('a missing store or a file that is not a store: 503 without paths or stack traces', async () => {
    for (const server of [srv.missing!, srv.garbage!]) {
      const res = await get(server, '');
      expect(res.status).toBe(503);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = res.body.toString();
      expect(jsonOf(res.body).error.code).toBe('store_unavailable');
      expect(text).not.toContain(dir);
      expect(text).not.toMatch(/sqlite3|nowhere|at .*\.ts|Error:/);
    }
  });
});

describe('a live store (a kernel writing in WAL mode) and a replaced store', () => {
  it('sees rows as a writer commits them, across a checkpoint, and after the writer closes', async () => {
    const liveFile = file('live.sqlite3');
    const writer = new Database(liveFile);
    writer.pragma('journal_mode = WAL');
    writer.exec(CHIO_STORE_SCHEMA_SQL);
    const receipts = syntheticReceipts(300, 7);
    const insert = writer.prepare(`INSERT INTO chio_tool_receipts (receipt_id, timestamp, capability_id, tool_server, tool_name,
      decision_kind, policy_hash, content_hash, raw_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const add = (from: number, to: number) =>
      writer.transaction(() => {
        for (const r of receipts.slice(from, to))
          insert.run(r.receiptId, r.timestamp, r.capabilityId, r.toolServer, r.toolName, r.decisionKind, r.policyHash, r.contentHash, r.rawJson);
      })();
    const raws = receipts.map((r) => Buffer.from(r.rawJson));
    add(0, 100);
    const live = await startServer({ RECEIPT_DB: liveFile });
    const page = async (qs: string) => (await get(live, qs)).body;
    expect((await page('limit=200')).equals(body(100, null, raws.slice(0, 100)))).toBe(true);
    add(100, 250);
    expect((await page('limit=200')).equals(body(250, 200, raws.slice(0, 200)))).toBe(true);
    expect((await page('limit=200&cursor=200')).equals(body(250, null, raws.slice(200, 250)))).toBe(true);
    writer.pragma('wal_checkpoint(TRUNCATE)');
    add(250, 300);
    expect((await page('limit=200&cursor=200')).equals(body(300, null, raws.slice(200, 300)))).toBe(true);
    // Our reader keeps the database open, so the writer's close leaves -wal and -shm (as SQLite
    // does for any reader); the server keeps reading through them.
    writer.close();
    expect((await page('limit=200&cursor=250')).equals(body(300, null, raws.slice(250, 300)))).toBe(true);
    await live.stop();
  });

  it('a store file renamed over the served one is served from then on', async () => {
    cpSync(file('federation-receipts.sqlite3'), file('swap.sqlite3'));
    const swap = await startServer({ RECEIPT_DB: file('swap.sqlite3') });
    const federation = readShowcase('federation-receipts.sqlite3');
    const provider = readShowcase('provider-receipts.sqlite3');
    expect(
      (await get(swap, '')).body.equals(
        body(
          1,
          null,
          federation.refs.map((r) => r.raw),
        ),
      ),
    ).toBe(true);
    cpSync(file('provider-receipts.sqlite3'), file('swap.next'));
    renameSync(file('swap.next'), file('swap.sqlite3'));
    expect(
      (await get(swap, '')).body.equals(
        body(
          8,
          null,
          provider.refs.map((r) => r.raw),
        ),
      ),
    ).toBe(true);
    expect((await get(swap, 'toolName=inspect_service_order')).body.equals(body(1, null, [provider.refs[5]!.raw]))).toBe(true);
    expect(readdirSync(dir).filter((n) => n.startsWith('swap.sqlite3-'))).toEqual([]);
    await swap.stop();
  });
});

describe('the server never writes the store', () => {
  it('when SQLite URI filenames are off it still answers correctly, and says it fell back', async () => {
    cpSync(file('provider-receipts.sqlite3'), file('fallback.sqlite3'));
    const fallback = await startServer({ RECEIPT_DB: file('fallback.sqlite3'), SQLITE_USE_URI: '0' });
    const data = readShowcase('provider-receipts.sqlite3');
    expect(
      (await get(fallback, '')).body.equals(
        body(
          8,
          null,
          data.refs.map((r) => r.raw),
        ),
      ),
    ).toBe(true);
    expect(fallback.stderr()).toContain('SQLite URI filenames are disabled');
    await fallback.stop();
  });

  it('every store: same bytes and mtime as before the servers read it, and no -wal, -shm or -journal beside it', async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const name of STORES) expect(fingerprint(name), name).toEqual(before.get(name));
    const sidecars = readdirSync(dir).filter((n) => /-(wal|shm|journal)$/.test(n));
    // fallback.* was read with URI filenames off; live.* was written by its own writer.
    expect(sidecars.filter((n) => !n.startsWith('fallback.') && !n.startsWith('live.'))).toEqual([]);
  });
});
