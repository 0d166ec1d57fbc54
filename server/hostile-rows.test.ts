// Issue 20: stored rows the server cannot splice into a response, over real HTTP on 127.0.0.1.
// One row that was not valid JSON broke the whole export, invalid UTF-8 passed through, and one
// query answered 315 MB. Now each bad row is a problem naming its table and seq, carried in the
// package (export-problems.ndjson), the bundle (`exportProblems`) and the page (`problems`), which
// the verifier reports at that table and seq; everything else still goes out; and a response
// over its cap is paged or refused, never cut short.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { demoKernelKeyHex, generateDemoStore } from '../tools/demo/generate';
import { CHIO_STORE_SCHEMA_SQL } from '../lib/sources/chio-store-schema';
import { INSERT_TOOL } from '../lib/sources/sqlite-store-writer';
import { TrustStore } from '../lib/trust/trust-store';
import { LogVerifier } from '../lib/verify/log-verifier';
import { verifyPaths } from '../bin/cli/main';
import { type LoopbackApi, startApiServer } from './loopback-api';
import { MAX_ROW_BYTES } from './stored-row';
import { MAX_PAGE_BYTES } from './store/receipt-query';

const TOKEN = 'hostile-rows-token-7d21';
const auth = { authorization: `Bearer ${TOKEN}` };
let dir: string;
let hostile: LoopbackApi;
let big: LoopbackApi;

const trust = () => {
  const t = TrustStore.create([{ key: demoKernelKeyHex() }]);
  if (!t.ok) throw new Error(t.error);
  return t.store;
};

/** Valid JSON object text of exactly `bytes` bytes. */
const objectOf = (id: string, bytes: number) => {
  const head = `{"id":"${id}","pad":"`;
  return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
};

/** The demo store (70 tool receipts, checkpoints every 20) with one bad row of each kind. */
async function hostileStore(): Promise<string> {
  const demo = (await generateDemoStore({ count: 70, checkpointEvery: 20, out: path.join(dir, 'demo') })).storePath;
  const file = path.join(dir, 'hostile', 'receipts.sqlite3');
  mkdirSync(path.dirname(file));
  copyFileSync(demo, file);
  const db = new Database(file);
  const set = db.prepare('UPDATE chio_tool_receipts SET raw_json = CAST(? AS TEXT) WHERE seq = ?');
  set.run('{"id":"dup","id":"twice"}', 5); // batch 1: duplicate keys
  set.run(Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 25); // batch 2: {"id":"<ff fe>"}
  set.run(objectOf('too-big', MAX_ROW_BYTES + 1), 45); // batch 3: one byte over the row cap
  set.run('{"id":"cut', 65); // the tail: not JSON
  db.prepare("UPDATE chio_child_receipts SET raw_json = '[1]' WHERE seq = 3").run();
  db.prepare('UPDATE kernel_checkpoints SET statement_json = CAST(? AS TEXT) WHERE checkpoint_seq = 3').run('{"schema":1,"schema":2}');
  db.close();
  return file;
}

/** A store of eight 3 MiB receipts and one over the row cap (seq 2): the page and the bundle must not grow with them. */
function bigStore(): string {
  const file = path.join(dir, 'big', 'receipts.sqlite3');
  mkdirSync(path.dirname(file));
  const db = new Database(file);
  db.exec(CHIO_STORE_SCHEMA_SQL);
  const insert = db.prepare(INSERT_TOOL);
  for (let seq = 1; seq <= 9; seq++) {
    const raw = objectOf(`big-${seq}`, seq === 2 ? MAX_ROW_BYTES + 100 : 3 * 1024 * 1024);
    insert.run(`big-${seq}`, 1_700_000_000 + seq, 'cap-big', null, null, null, 'srv', 'tool', 'allow', 'p', 'c', raw, null);
  }
  db.close();
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-hostile-rows-'));
  const [h, b] = [await hostileStore(), bigStore()];
  [hostile, big] = await Promise.all([
    startApiServer({ RECEIPT_DB: h, RECEIPT_API_TOKEN: TOKEN, RECEIPT_CACHE_DIR: path.join(dir, 'cache-h') }),
    startApiServer({ RECEIPT_DB: b, RECEIPT_API_TOKEN: TOKEN, RECEIPT_CACHE_DIR: path.join(dir, 'cache-b') }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([hostile?.stop(), big?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Every bad row of the hostile store, as [table, seq, code]. */
const EXPECTED = [
  ['kernel_checkpoints', 3, 'duplicate_key'],
  ['chio_tool_receipts', 5, 'duplicate_key'],
  ['chio_tool_receipts', 25, 'invalid_utf8'],
  ['chio_tool_receipts', 45, 'too_large'],
  ['chio_tool_receipts', 65, 'invalid_json'],
  ['chio_child_receipts', 3, 'not_an_object'],
];
const triple = (p: Record<string, unknown>) => [p.table, p.seq, p.code];
/** The report sorts its problems by place; compare as sets of places. */
const sorted = (xs: unknown[][]) => xs.map((x) => JSON.stringify(x)).sort();

describe('bad rows in a served store', () => {
  it('the package: every other row exported, each bad one named in export-problems.ndjson, and the CLI reports it at its table and seq', async () => {
    const index = (await (await fetch(`${hostile.origin}/v1/evidence/package`, { headers: auth })).json()) as { files: { path: string; url: string }[] };
    const out = path.join(dir, 'hostile-package');
    mkdirSync(out);
    for (const f of index.files)
      writeFileSync(path.join(out, f.path), Buffer.from(await (await fetch(`${hostile.origin}${f.url}`, { headers: auth })).arrayBuffer()));
    const lines = (name: string) => readFileSync(path.join(out, name), 'utf8').split('\n').filter(Boolean);
    expect(lines('export-problems.ndjson').map((l) => triple(JSON.parse(l)))).toEqual(EXPECTED);
    // Each line is one JSON text, whatever the store held.
    const receipts = lines('receipts.ndjson').map((l) => JSON.parse(l).seq as number);
    expect(receipts).toEqual(Array.from({ length: 70 }, (_, i) => i + 1).filter((s) => ![5, 25, 45, 65].includes(s)));
    expect(lines('checkpoints.ndjson').map((l) => JSON.parse(l).body.checkpoint_seq)).toEqual([1, 2]);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.exportProblems).toBe(6);
    expect(manifest.files.map((f: { path: string }) => f.path)).toContain('export-problems.ndjson');

    const report = await verifyPaths([out], trust());
    expect(report.packages[0]!.checks.manifest).toBe('pass');
    const located = report.problems.filter((p) => p.message.includes('the server could not export')).map((p) => [p.file, p.line, p.code]);
    expect(sorted(located)).toEqual(sorted(EXPECTED.map(([table, seq]) => [table, seq, 'parse_error'])));
    expect(report.ok).toBe(false);
  }, 60_000);

  it('the POST bundle: one JSON document with every other row and `exportProblems`, which the verifier reports', async () => {
    const res = await fetch(`${hostile.origin}/v1/evidence/export`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    const text = await res.text();
    const bundle = JSON.parse(text).bundle;
    expect(bundle.toolReceipts).toHaveLength(66);
    expect(bundle.exportProblems.map(triple)).toEqual(EXPECTED);
    const v = new LogVerifier({ trust: trust() });
    await v.addRecord(text, { file: 'export.json', line: 1, role: 'auto', space: 'bundle' });
    const report = await v.finish();
    const located = report.problems.filter((p) => p.message.includes('the server could not export')).map((p) => [p.file, p.line]);
    expect(sorted(located)).toEqual(sorted(EXPECTED.map(([t, s]) => [t, s])));
    expect(report.summary.receipts).toBe(66 + bundle.childReceipts.length);
  }, 60_000);

  it('the receipt query: bad rows left out of `receipts` and named in `problems`', async () => {
    const page = (await (await fetch(`${hostile.origin}/v1/receipts/query?limit=200`, { headers: auth })).json()) as {
      totalCount: number;
      receipts: unknown[];
      problems: Record<string, unknown>[];
    };
    expect(page.totalCount).toBe(70);
    expect(page.receipts).toHaveLength(66);
    expect(page.problems.map(triple)).toEqual(EXPECTED.filter(([t]) => t === 'chio_tool_receipts'));
  });
});

describe('responses over their cap', () => {
  it('a page of large rows stops under 16 MiB with a cursor to go on from; the oversized row is a problem', async () => {
    const seen: number[] = [];
    const problems: unknown[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const res = await fetch(`${big.origin}/v1/receipts/query?limit=200${cursor === null ? '' : `&cursor=${cursor}`}`, { headers: auth });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBeLessThanOrEqual(MAX_PAGE_BYTES);
      const page = JSON.parse(bytes.toString('utf8')) as {
        totalCount: number;
        nextCursor: number | null;
        receipts: { id: string }[];
        problems?: Record<string, unknown>[];
      };
      expect(page.totalCount).toBe(9);
      seen.push(...page.receipts.map((r) => Number(r.id.slice(4))));
      problems.push(...(page.problems ?? []).map(triple));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    expect(problems).toEqual([['chio_tool_receipts', 2, 'too_large']]);
  }, 60_000);

  it('an export bundle over 16 MiB is refused with 422, naming the way out; a narrower query is answered', async () => {
    const post = (body: unknown) =>
      fetch(`${big.origin}/v1/evidence/export`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const res = await post({});
    expect(res.status).toBe(422);
    const { error } = await res.json();
    expect(error).toMatchObject({ code: 'result_too_large', param: 'query' });
    expect(error.message).toContain('GET /v1/evidence/package');
    const narrow = await post({ query: { until: 1_700_000_003 } });
    expect(narrow.status).toBe(200);
    expect(JSON.parse(await narrow.text()).bundle.toolReceipts).toHaveLength(2);
  }, 60_000);

  it('the stores were never written', () => {
    for (const name of ['hostile', 'big'])
      for (const suffix of ['-wal', '-shm', '-journal']) expect(existsSync(path.join(dir, name, `receipts.sqlite3${suffix}`))).toBe(false);
  });
});
