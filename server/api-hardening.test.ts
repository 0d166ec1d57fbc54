// Issue 20, over real HTTP on 127.0.0.1 (each server a process of its own): malformed
// percent-encoding is answered 400 with the security headers (it was a 500 without them, or a
// filter on the literal text); the export request body is read capped and refused with
// duplicate keys (the last one used to win); and an API token in `?token=` never reaches a log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MAX_BODY_BYTES } from './handle-evidence';
import { type LoopbackApi, startApiServer } from './loopback-api';
import { logRequest } from './request-log';
import { SECURITY_HEADERS } from './security-headers';
import { writeSyntheticStore } from './synthetic-store-file';

const TOKEN = 'hardening-token-4e0a';
const auth = { authorization: `Bearer ${TOKEN}` };
let dir: string;
let api: LoopbackApi;
let broken: LoopbackApi;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-hardening-'));
  const store = path.join(dir, 'store.sqlite3');
  writeSyntheticStore(store, 50);
  // A store whose receipt table lacks the filter columns: a filtered query fails inside the server.
  const bad = path.join(dir, 'broken.sqlite3');
  const db = new Database(bad);
  db.exec("CREATE TABLE chio_tool_receipts (seq INTEGER PRIMARY KEY, raw_json TEXT); INSERT INTO chio_tool_receipts VALUES (1, '{}')");
  db.close();
  [api, broken] = await Promise.all([
    startApiServer({ RECEIPT_DB: store, RECEIPT_API_TOKEN: TOKEN, RECEIPT_CACHE_DIR: path.join(dir, 'cache') }),
    startApiServer({ RECEIPT_DB: bad, RECEIPT_CACHE_DIR: path.join(dir, 'cache-broken') }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.stop(), broken?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request: fetch would not send a malformed path, and node:http sends it byte for byte. */
function raw(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(api.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('malformed percent-encoding', () => {
  it.each([
    ['GET', '/v1/receipts/query?capabilityId=%ZZ'],
    ['GET', '/v1/receipts/query?capabilityId=50%'],
    ['GET', '/v1/receipts/query?toolName=%C0%AF'],
    ['GET', '/v1/evidence/package/%E0%A4%A'],
    ['GET', '/v1/evidence/package/receipts%FF.ndjson'],
    ['POST', '/v1/evidence/export?x=%G1'],
  ])('%s %s → 400 naming the URL, with the security headers', async (method, target) => {
    const res = await raw(method, target, auth, method === 'POST' ? '{}' : undefined);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'invalid_parameter', param: 'url' });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('well-formed escapes still work (a file name, a filter value)', async () => {
    expect((await raw('GET', '/v1/evidence/package/receipts%2Endjson', auth)).status).toBe(200);
    expect((await raw('GET', '/v1/receipts/query?toolName=read%5Ffile&limit=1', auth)).status).toBe(200);
  });
});

describe('the export request body', () => {
  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    raw('POST', '/v1/evidence/export', { ...auth, 'content-type': 'application/json', ...headers }, body);

  it(`over ${MAX_BODY_BYTES} bytes: 413, whether its length is declared or the body is chunked`, async () => {
    const big = `{"query":{},"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
    const declared = await post(big, { 'content-length': String(Buffer.byteLength(big)) });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error).toMatchObject({ code: 'invalid_parameter', param: 'body' });
    const chunked = await post(big, { 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(413);
  });

  it.each([
    ['{"query":{},"query":{"capabilityId":"cap-0001"}}', 'duplicate key "query"'],
    ['{"requireProofs":false,"requireProofs":true}', 'duplicate key "requireProofs"'],
    ['{"query":{"since":1,"since":2}}', 'duplicate key "since"'],
  ])('duplicate keys are refused, never resolved: %s', async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const { error } = JSON.parse(res.body);
    expect(error.param).toBe('body');
    expect(error.message).toContain(message);
  });

  it('a body that is not UTF-8 is refused', async () => {
    const res = await post(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toContain('not UTF-8');
  });
});

describe('an API token in ?token= is never logged', () => {
  it('the request log keeps the parameter, not its value', () => {
    const log = path.join(dir, 'requests.ndjson');
    logRequest(log, 'GET', 'http://127.0.0.1:3300/receipts?decision=deny&token=s3cr3t-Value&x=1');
    logRequest(log, 'GET', 'http://127.0.0.1:3300/?TOKEN=other-s3cr3t');
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain('s3cr3t');
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).url),
    ).toEqual(['/receipts?decision=deny&token=[redacted]&x=1', '/?TOKEN=[redacted]']);
  });

  it('a request that fails inside the server is logged with its path, the token redacted', async () => {
    const secret = 'tok-SECRET-91f2';
    // The export takes no query string, so the link's parameter rides along to the failure.
    const res = await fetch(`${broken.origin}/v1/evidence/export?token=${secret}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: '{}',
    });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain(secret);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = broken.stderr();
    expect(logged).toContain('POST /v1/evidence/export?token=[redacted] failed');
    expect(logged).not.toContain(secret);
  });
});
