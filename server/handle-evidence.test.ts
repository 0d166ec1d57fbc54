// POST /v1/evidence/export and the package download over real HTTP, against a
// real demo store: whatever the server sends must verify in our verifier, and
// the server must not be able to make it verify what it should not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateDemoStore, demoKernelKeyHex } from '../tools/demo/generate';
import { TrustStore } from '../lib/trust/trust-store';
import { LogVerifier } from '../lib/verify/log-verifier';
import { verifyPaths } from '../bin/cli/main';
import { type LoopbackApi, startApiServer } from './loopback-api';

const TOKEN = 'evidence-test-token-51c2';
let dir: string;
let store: string;
let api: LoopbackApi;
let before: { sha: string; mtimeMs: number };

const trust = () => {
  const t = TrustStore.create([{ key: demoKernelKeyHex() }]);
  if (!t.ok) throw new Error(t.error);
  return t.store;
};
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-evidence-'));
  store = (await generateDemoStore({ count: 437, out: dir })).storePath;
  before = { sha: sha(store), mtimeMs: statSync(store).mtimeMs };
  api = await startApiServer({ RECEIPT_DB: store, RECEIPT_API_TOKEN: TOKEN, RECEIPT_CACHE_DIR: path.join(dir, 'cache') });
}, 120_000);

afterAll(async () => {
  await api?.stop();
});

const post = (body: unknown, token: string | null = TOKEN) =>
  fetch(`${api.origin}/v1/evidence/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function verifyText(text: string) {
  const v = new LogVerifier({ trust: trust() });
  await v.addRecord(text, { file: 'export.json', line: 1, role: 'auto', space: 's' });
  return v.finish();
}

describe('POST /v1/evidence/export', () => {
  it('the whole store: every receipt and checkpoint verifies, the tail is uncheckpointed', async () => {
    const res = await post({ query: {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const text = await res.text();
    const bundle = JSON.parse(text).bundle;
    expect(bundle.toolReceipts.length).toBe(437);
    expect(bundle.checkpoints.length).toBe(4);
    expect(bundle.inclusionProofs.length).toBe(400);
    expect(bundle.uncheckpointedReceipts.length).toBe(37);
    const report = await verifyText(text);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary.verified).toBe(report.summary.receipts);
  });

  it('a capability-scoped export carries no child receipts (no join path) and verifies', async () => {
    const all = JSON.parse(await (await post({})).text()).bundle;
    const cap = all.toolReceipts[0].receipt.capability_id as string;
    const res = await post({ query: { capabilityId: cap } });
    const text = await res.text();
    const bundle = JSON.parse(text).bundle;
    expect(bundle.childReceiptScope).toBe('omitted_no_join_path');
    expect(bundle.childReceipts).toEqual([]);
    expect(bundle.toolReceipts.every((r: { receipt: { capability_id: string } }) => r.receipt.capability_id === cap)).toBe(true);
    expect((await verifyText(text)).ok).toBe(true);
  });

  it('requireProofs: 409 while the query reaches the uncheckpointed tail; 200 for the checkpointed part', async () => {
    const tail = await post({ requireProofs: true });
    expect(tail.status).toBe(409);
    expect((await tail.json()).error).toMatchObject({ code: 'proofs_unavailable', param: 'requireProofs' });
    const all = JSON.parse(await (await post({})).text()).bundle;
    const lastCheckpointed = all.toolReceipts[399].receipt.timestamp as number;
    const ok = await post({ query: { until: lastCheckpointed }, requireProofs: true });
    expect(ok.status).toBe(200);
    expect(JSON.parse(await ok.text()).bundle.uncheckpointedReceipts).toEqual([]);
  });

  it('no token: 401 and no data; bad bodies: 400 naming the field', async () => {
    for (const token of [null, 'wrong']) {
      const res = await post({}, token);
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).not.toContain('receipt');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    const cases: [unknown, string][] = [
      ['{not json', 'body'],
      [[], 'body'],
      [{ query: { since: '2026' } }, 'query.since'],
      [{ query: { capability: 'x' } }, 'query.capability'],
      [{ query: { since: 5, until: 4 } }, 'query.since'],
      [{ requireProofs: 'yes' }, 'requireProofs'],
      [{ extra: 1 }, 'extra'],
    ];
    for (const [body, param] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error.param).toBe(param);
    }
    const get = await fetch(`${api.origin}/v1/evidence/export`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(get.status).toBe(405);
  });
});

describe('GET /v1/evidence/package', () => {
  it('lists the package files; downloaded into a folder, they verify with the manifest', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const index = await (await fetch(`${api.origin}/v1/evidence/package`, { headers: auth })).json();
    const names = index.files.map((f: { path: string }) => f.path);
    expect(names).toEqual(
      expect.arrayContaining(['manifest.json', 'receipts.ndjson', 'checkpoints.ndjson', 'inclusion-proofs.ndjson', 'child-receipts.ndjson']),
    );
    const out = path.join(dir, 'downloaded');
    mkdirSync(out, { recursive: true });
    for (const f of index.files as { path: string; url: string }[]) {
      const res = await fetch(`${api.origin}${f.url}`, { headers: auth });
      expect(res.status, f.path).toBe(200);
      writeFileSync(path.join(out, f.path), Buffer.from(await res.arrayBuffer()));
    }
    const report = await verifyPaths([out], trust());
    expect(report.packages[0]!.checks.manifest).toBe('pass');
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('each file is sent with its length (as listed); HEAD sends the length alone', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const index = await (await fetch(`${api.origin}/v1/evidence/package`, { headers: auth })).json();
    const listed = (index.files as { path: string; bytes: number; url: string }[]).find((f) => f.path === 'receipts.ndjson')!;
    const get = await fetch(`${api.origin}${listed.url}`, { headers: auth });
    expect(get.headers.get('content-length')).toBe(String(listed.bytes));
    expect((await get.arrayBuffer()).byteLength).toBe(listed.bytes);
    const head = await fetch(`${api.origin}${listed.url}`, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(listed.bytes));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('only listed files are served; no token, no file', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const name of ['expected.json', '..%2F..%2Fpackage.json', '%2Fetc%2Fpasswd', 'receipts.sqlite3']) {
      expect((await fetch(`${api.origin}/v1/evidence/package/${name}`, { headers: auth })).status, name).toBe(404);
    }
    expect((await fetch(`${api.origin}/v1/evidence/package/receipts.ndjson`)).status).toBe(401);
  });

  it('the server never wrote the store', async () => {
    expect(sha(store)).toBe(before.sha);
    expect(statSync(store).mtimeMs).toBe(before.mtimeMs);
    for (const suffix of ['-wal', '-shm', '-journal']) expect(existsSync(store + suffix), suffix).toBe(false);
  });
});
