// POST /v1/csp-report through the same router the node:http API uses, with real request
// bodies as Chromium sends them (report-uri) and as the Reporting API sends them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { handleApiRequest } from './api-router';
import { MAX_FIELD_CHARS, MAX_REPORTS_PER_MINUTE, MAX_REPORT_BYTES, admitViolations, resetCspRateLimit } from './csp-report';

let dir: string;
let log: string;
const env = () => ({ RECEIPT_AUDIT_CSP_LOG: log, RECEIPT_API_TOKEN: 'a-token-the-browser-does-not-have' });
const lines = () =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
const post = (body: BodyInit, type: string, method = 'POST') =>
  handleApiRequest(new Request('http://127.0.0.1/v1/csp-report', { method, headers: { 'content-type': type }, ...(method === 'POST' ? { body } : {}) }), env());

beforeEach(() => {
  resetCspRateLimit();
  dir = mkdtempSync(path.join(tmpdir(), 'ra-csp-'));
  log = path.join(dir, 'csp.ndjson');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Chromium's report-uri body for a blocked inline script (fields as Chromium 156 sends them).
const chromiumReport = {
  'csp-report': {
    'document-uri': 'http://127.0.0.1:3100/trust',
    referrer: '',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'original-policy': "default-src 'self'; script-src 'self' 'nonce-abc' 'strict-dynamic'",
    disposition: 'enforce',
    'blocked-uri': 'inline',
    'line-number': 14,
    'column-number': 19,
    'source-file': 'http://127.0.0.1:3100/trust',
    'status-code': 200,
    'script-sample': '/*probe*/window.x = 1',
  },
};

describe('POST /v1/csp-report', () => {
  it('takes an application/csp-report without a bearer token, answers 204 and logs one line', async () => {
    const res = await post(JSON.stringify(chromiumReport), 'application/csp-report');
    expect(res.status).toBe(204);
    expect(lines()).toEqual([
      {
        format: 'csp-report',
        documentUri: 'http://127.0.0.1:3100/trust',
        blockedUri: 'inline',
        effectiveDirective: 'script-src-elem',
        violatedDirective: 'script-src-elem',
        disposition: 'enforce',
        sourceFile: 'http://127.0.0.1:3100/trust',
        lineNumber: 14,
        columnNumber: 19,
        sample: '/*probe*/window.x = 1',
        statusCode: 200,
      },
    ]);
  });

  it('takes application/reports+json and logs each csp-violation in it, skipping other report types', async () => {
    const body = [
      {
        type: 'csp-violation',
        age: 10,
        url: 'http://127.0.0.1/',
        body: { documentURL: 'http://127.0.0.1/', blockedURL: 'eval', effectiveDirective: 'script-src', disposition: 'enforce', sample: '1+1', lineNumber: 3 },
      },
      { type: 'deprecation', age: 10, url: 'http://127.0.0.1/', body: { id: 'x', message: 'y' } },
      {
        type: 'csp-violation',
        age: 11,
        url: 'http://127.0.0.1/dag',
        body: { documentURL: 'http://127.0.0.1/dag', blockedURL: 'inline', effectiveDirective: 'style-src-elem', disposition: 'report' },
      },
    ];
    expect((await post(JSON.stringify(body), 'application/reports+json; charset=utf-8')).status).toBe(204);
    expect(lines().map((l) => [l.format, l.documentUri, l.blockedUri, l.effectiveDirective, l.disposition, l.sample])).toEqual([
      ['reports+json', 'http://127.0.0.1/', 'eval', 'script-src', 'enforce', '1+1'],
      ['reports+json', 'http://127.0.0.1/dag', 'inline', 'style-src-elem', 'report', ''],
    ]);
  });

  it(`keeps only the known fields, as strings or numbers, each at most ${MAX_FIELD_CHARS} characters`, async () => {
    const hostile = {
      'csp-report': {
        ...chromiumReport['csp-report'],
        'blocked-uri': { toString: 1 },
        'line-number': '7',
        'script-sample': 'x'.repeat(5000),
        extra: 'dropped',
      },
    };
    expect((await post(JSON.stringify(hostile), 'application/csp-report')).status).toBe(204);
    const [line] = lines();
    expect(line).toMatchObject({ blockedUri: '', lineNumber: null });
    expect(line!.sample).toHaveLength(MAX_FIELD_CHARS);
    expect(line).not.toHaveProperty('extra');
  });

  it('a line stays compact whatever the report holds: every field clipped', async () => {
    const fat = Object.fromEntries(Object.entries(chromiumReport['csp-report']).map(([k, v]) => [k, typeof v === 'string' ? 'y'.repeat(6000) : v]));
    expect((await post(JSON.stringify({ 'csp-report': fat }), 'application/csp-report')).status).toBe(204);
    const raw = readFileSync(log, 'utf8');
    expect(raw.length).toBeLessThan(2200);
  });

  it(`logs at most ${MAX_REPORTS_PER_MINUTE} violations a minute; the rest get 429 with Retry-After, and are counted`, async () => {
    // stderr is where each logged violation also goes: kept here, out of the test output.
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < MAX_REPORTS_PER_MINUTE + 5; i++) statuses.push((await post(JSON.stringify(chromiumReport), 'application/csp-report')).status);
      expect(statuses.filter((s) => s === 204)).toHaveLength(MAX_REPORTS_PER_MINUTE);
      expect(statuses.slice(MAX_REPORTS_PER_MINUTE)).toEqual([429, 429, 429, 429, 429]);
      const refused = await post(JSON.stringify(chromiumReport), 'application/csp-report');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error.code).toBe('rate_limited');
      expect(lines()).toHaveLength(MAX_REPORTS_PER_MINUTE);
      expect(written.filter((w) => w.startsWith('csp-violation '))).toHaveLength(MAX_REPORTS_PER_MINUTE);
      // The next minute's first report says how many were dropped, in one line.
      expect(admitViolations(1, Date.now() + 61_000)).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const dropped = written.filter((w) => w.startsWith('csp-violation-dropped '));
    expect(dropped).toHaveLength(1);
    expect(JSON.parse(dropped[0]!.slice('csp-violation-dropped '.length)).count).toBe(6);
  });

  it('refuses a body over 64 KiB (413), another media type (415), bad JSON or shape (400), other methods (405); logs nothing', async () => {
    const big = JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(MAX_REPORT_BYTES) } });
    expect((await post(big, 'application/csp-report')).status).toBe(413);
    expect((await post(JSON.stringify(chromiumReport), 'application/json')).status).toBe(415);
    expect((await post(JSON.stringify(chromiumReport), 'text/plain')).status).toBe(415);
    expect((await post('{"csp-report":', 'application/csp-report')).status).toBe(400);
    expect((await post(new Uint8Array([0x7b, 0xff, 0x7d]), 'application/csp-report')).status).toBe(400);
    expect((await post('[1,2]', 'application/csp-report')).status).toBe(400);
    expect((await post('{"not":"a list"}', 'application/reports+json')).status).toBe(400);
    const get = await post('', 'application/csp-report', 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(lines()).toEqual([]);
  });

  it('does not exempt any other /v1 path from the bearer token', async () => {
    const res = await handleApiRequest(new Request('http://127.0.0.1/v1/csp-report/../receipts/query'), env());
    expect(res.status).toBe(401);
    const sibling = await handleApiRequest(new Request('http://127.0.0.1/v1/csp-reports', { method: 'POST' }), env());
    expect(sibling.status).toBe(401);
  });
});
