// The policy builder: directive injection through ?source=, nonce form and freshness.
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, sourceOrigin } from './security-headers';

const PAGE = 'http://127.0.0.1:3000';

describe('sourceOrigin', () => {
  it('is the origin of a log URL on another server', () => {
    expect(sourceOrigin('https://logs.example.org/pkg/', PAGE)).toBe('https://logs.example.org');
    expect(sourceOrigin('http://10.0.0.7:8080/receipts.ndjson?x=1#y', PAGE)).toBe('http://10.0.0.7:8080');
    expect(sourceOrigin('http://[::1]:9000/a', PAGE)).toBe('http://[::1]:9000');
  });

  it('is null for this server, `server`, relative URLs, other schemes and hosts that could inject a directive', () => {
    const refused = [
      null,
      'server',
      '/demo/receipts.ndjson',
      'not a url at all',
      `${PAGE}/pkg/`,
      'javascript:alert(1)',
      'data:text/plain,x',
      'blob:https://a.example/x',
      'ftp://a.example/x',
      "https://a.example; script-src 'unsafe-inline'",
      'https://a b.example/',
      'https://*.example/',
      "https://a.example';/",
      'https://a.example,b/',
    ];
    expect(refused.map((s) => [s, sourceOrigin(s, PAGE)]).filter(([, o]) => o !== null)).toEqual([]);
  });

  it('keeps only the origin of a URL whose path, query or whitespace would be hostile in a policy', () => {
    expect(sourceOrigin("https://a.example/'unsafe-eval'; x", PAGE)).toBe('https://a.example');
    expect(sourceOrigin('//evil.example/x;', PAGE)).toBe('http://evil.example');
    expect(sourceOrigin('https://a.example\n.b/', PAGE)).toBe('https://a.example.b');
  });
});

describe('contentSecurityPolicy', () => {
  it('puts the nonce and strict-dynamic in script-src only when there is a nonce', () => {
    const withNonce = contentSecurityPolicy('AAAAAAAAAAAAAAAAAAAAAA==');
    expect(withNonce).toContain("script-src 'self' 'nonce-AAAAAAAAAAAAAAAAAAAAAA==' 'strict-dynamic' 'wasm-unsafe-eval' 'report-sample'");
    const none = contentSecurityPolicy(null);
    expect(none).toContain("script-src 'self' 'wasm-unsafe-eval' 'report-sample'");
    expect(none).not.toContain('nonce-');
    for (const p of [withNonce, none]) expect(p).not.toMatch(/'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  });

  it('adds extra connect sources to connect-src only', () => {
    expect(contentSecurityPolicy(null, ['https://logs.example.org'])).toContain("connect-src 'self' https://logs.example.org;");
  });
});

describe('newNonce', () => {
  it('is 128 random bits in base64, fresh each time', () => {
    const nonces = Array.from({ length: 1000 }, newNonce);
    expect(nonces.filter((n) => !/^[A-Za-z0-9+/]{22}==$/.test(n))).toEqual([]);
    expect(new Set(nonces).size).toBe(1000);
  });
});
