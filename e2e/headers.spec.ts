import { createHash, randomUUID } from 'node:crypto';
import { type APIResponse, expect, test } from '@playwright/test';
import { CSP_PROBE, loggedRequests } from './server-logs';

// What the server sends with every response (proxy.ts, server/security-headers.ts), read
// from the real server: a page, an RSC fetch, the API, a built chunk, a public file, a 404.

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The policy as directive → sources. */
function directives(response: APIResponse): Map<string, string[]> {
  const csp = response.headers()['content-security-policy'];
  expect(csp, `${response.url()} has no Content-Security-Policy`).toBeTruthy();
  const map = new Map<string, string[]>();
  for (const part of csp!.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) {
      expect(map.has(name), `${name} twice`).toBe(false);
      map.set(name, sources);
    }
  }
  return map;
}

function expectSecurityHeaders(response: APIResponse): void {
  const headers = response.headers();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], `${name} on ${response.url()}`).toBe(value);
  const permissions = headers['permissions-policy'] ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(permissions, response.url()).toContain(`${feature}=()`);
}

/** What every policy says, with or without a nonce. */
function expectStrictPolicy(csp: Map<string, string[]>): void {
  expect(csp.get('default-src')).toEqual(["'self'"]);
  const scripts = csp.get('script-src')!;
  expect(scripts).toContain("'wasm-unsafe-eval'");
  for (const loose of ["'unsafe-eval'", "'unsafe-inline'", '*', 'data:', 'blob:', 'http:', 'https:']) expect(scripts).not.toContain(loose);
  expect(csp.get('style-src-elem')).not.toContain("'unsafe-inline'");
  expect(csp.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('report-uri')).toEqual(['/v1/csp-report']);
}

test('a page: strict CSP whose fresh nonce is on every script Next renders, and the security headers', async ({ request }) => {
  const first = await request.get('/');
  expect(first.status()).toBe(200);
  expectSecurityHeaders(first);
  const csp = directives(first);
  expectStrictPolicy(csp);
  const nonces = csp.get('script-src')!.filter((s) => s.startsWith("'nonce-"));
  expect(nonces).toHaveLength(1);
  expect(csp.get('script-src')).toContain("'strict-dynamic'");
  const nonce = /^'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(nonces[0]!)?.[1];
  expect(nonce, nonces[0]).toBeTruthy();

  const html = await first.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);

  const second = directives(await request.get('/'));
  expect(second.get('script-src')).not.toContain(nonces[0]);
});

// experimental.sri: Next puts integrity on its bootstrap scripts (and their preloads) only; the
// route's own chunks, stylesheets and chunks loaded later carry none (see next.config.mjs).
test('every integrity attribute Next renders is the SHA-384 of the file it names', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const tags = (html.match(/<(?:script|link)\b[^>]*\bintegrity="[^"]+"[^>]*>/g) ?? []).map((tag) => ({
    src: /\b(?:src|href)="([^"]+)"/.exec(tag)![1]!,
    integrity: /\bintegrity="([^"]+)"/.exec(tag)![1]!,
  }));
  expect(tags.length).toBeGreaterThan(0);
  for (const { src, integrity } of tags) {
    const body = await (await request.get(src)).body();
    expect(integrity, src).toBe(`sha384-${createHash('sha384').update(body).digest('base64')}`);
  }
});

test('an RSC fetch, the API, a built chunk, a public file and a 404 carry the policy and the headers', async ({ request }) => {
  const html = await (await request.get('/receipts')).text();
  const chunk = /<script src="(\/_next\/static\/chunks\/[^"]+\.js)"/.exec(html)?.[1];
  expect(chunk).toBeTruthy();
  const cases: [string, () => Promise<APIResponse>, number][] = [
    ['RSC', () => request.get('/security?_rsc=1', { headers: { rsc: '1' } }), 200],
    ['API', () => request.get('/v1/receipts/query?limit=1'), 200],
    ['chunk', () => request.get(chunk!), 200],
    ['vendor WebAssembly', () => request.get('/vendor/sql-wasm-browser.wasm'), 200],
    ['icon', () => request.get('/icon.svg'), 200],
    ['404', () => request.get('/no-such-page'), 404],
  ];
  for (const [label, get, status] of cases) {
    const response = await get();
    expect(response.status(), label).toBe(status);
    expectSecurityHeaders(response);
    const csp = directives(response);
    // A built chunk may be a Web Worker's script, which fetches the logs the user opens by URL.
    if (label === 'chunk') {
      expect(csp.get('connect-src')).toEqual(["'self'", 'http:', 'https:']);
      csp.set('connect-src', ["'self'"]);
    }
    expectStrictPolicy(csp);
    // Files and API answers hold no inline script: no nonce, and so no 'strict-dynamic'.
    if (label !== 'RSC' && label !== '404') expect(csp.get('script-src'), label).toEqual(["'self'", "'wasm-unsafe-eval'", "'report-sample'"]);
  }
});

test('a page opened with ?source=<another server> may connect to that origin only', async ({ request }) => {
  const csp = directives(await request.get('/receipts/x?source=' + encodeURIComponent('https://logs.example.org:8443/pkg/manifest.json')));
  expect(csp.get('connect-src')).toEqual(["'self'", 'https://logs.example.org:8443']);
  const hostile = directives(await request.get('/receipts/x?source=' + encodeURIComponent("https://a.example; script-src 'unsafe-inline'")));
  expect(hostile.get('connect-src')).toEqual(["'self'"]);
  expect(hostile.get('script-src')).not.toContain("'unsafe-inline'");
});

test('the request log has every request as received, path and query, and never a fragment', async ({ request, page }) => {
  const tag = randomUUID();
  await request.get(`/trust?probe=${tag}&x=%20y`);
  await request.get(`/v1/receipts/query?limit=1&probe=${tag}`);
  await request.get(`/icon.svg?probe=${tag}`);
  await page.goto(`/trust?probe=${tag}#fragment-${tag}`);
  await expect(page.getByTestId('trust-key-input')).toBeVisible();
  const mine = loggedRequests().filter((r) => r.url.includes(tag));
  expect(mine).toEqual([
    { method: 'GET', url: `/trust?probe=${tag}&x=%20y` },
    { method: 'GET', url: `/v1/receipts/query?limit=1&probe=${tag}` },
    { method: 'GET', url: `/icon.svg?probe=${tag}` },
    { method: 'GET', url: `/trust?probe=${tag}` },
  ]);
  // The page's own chunks went through the log too (static files are not skipped).
  expect(loggedRequests().some((r) => r.url.startsWith('/_next/static/'))).toBe(true);
});

test('POST /v1/csp-report takes a report without a token and answers 204; anything else is refused', async ({ request }) => {
  const report = {
    'csp-report': {
      'document-uri': 'http://127.0.0.1/headers-test',
      'effective-directive': 'img-src',
      'blocked-uri': 'https://x.example',
      disposition: 'report',
      'script-sample': `${CSP_PROBE}headers-test`,
    },
  };
  const ok = await request.post('/v1/csp-report', { data: JSON.stringify(report), headers: { 'content-type': 'application/csp-report' } });
  expect(ok.status()).toBe(204);
  expectSecurityHeaders(ok);
  const wrongType = await request.post('/v1/csp-report', { data: JSON.stringify(report), headers: { 'content-type': 'text/plain' } });
  expect(wrongType.status()).toBe(415);
  const tooBig = await request.post('/v1/csp-report', { data: 'x'.repeat(65 * 1024), headers: { 'content-type': 'application/csp-report' } });
  expect(tooBig.status()).toBe(413);
});
