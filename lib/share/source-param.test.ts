// `?source=`: which log a link asks the page to open, and which origin other than the page's it
// would fetch from (the page asks before it does).
import { describe, expect, it } from 'vitest';
import { foreignOrigins, readSourceParam, shareSourceParam, sourceParam } from './source-param';

const PAGE = 'http://127.0.0.1:3000';

describe('readSourceParam', () => {
  it('this server and same-origin URLs need no consent', () => {
    expect(readSourceParam('server', PAGE)).toEqual({ ok: true, sources: [{ kind: 'server' }], foreign: null, url: null });
    expect(readSourceParam('/v1/evidence/package/', PAGE)).toEqual({
      ok: true,
      sources: [{ kind: 'url', url: `${PAGE}/v1/evidence/package/` }],
      foreign: null,
      url: `${PAGE}/v1/evidence/package/`,
    });
  });

  it('another origin is named exactly: another port, a scheme-relative URL, a look-alike host in punycode', () => {
    expect(readSourceParam('http://127.0.0.1:3201/log.ndjson', PAGE)).toMatchObject({ ok: true, foreign: 'http://127.0.0.1:3201' });
    expect(readSourceParam('//evil.example/pkg/', PAGE)).toMatchObject({ ok: true, foreign: 'http://evil.example', url: 'http://evil.example/pkg/' });
    expect(readSourceParam('https://еxample.com/x.ndjson', PAGE)).toMatchObject({ ok: true, foreign: 'https://xn--xample-2of.com' });
  });

  it('refuses what is not an http(s) log address, saying why', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:application/json,[]',
      'file:///etc/passwd',
      'http://user:pw@evil.example/x',
      'http://[',
      'x'.repeat(3000),
    ]) {
      const r = readSourceParam(bad, PAGE);
      expect(r.ok, bad.slice(0, 40)).toBe(false);
      if (!r.ok) expect(r.message.length).toBeGreaterThan(10);
    }
  });
});

it('foreignOrigins and sourceParam', () => {
  expect(
    foreignOrigins(
      [{ kind: 'server' }, { kind: 'url', url: '/x.ndjson' }, { kind: 'url', url: 'https://a.example/p/' }, { kind: 'url', url: 'https://a.example/q' }],
      PAGE,
    ),
  ).toEqual(['https://a.example']);
  expect(sourceParam([{ kind: 'server' }])).toBe('server');
  expect(sourceParam([{ kind: 'url', url: 'https://a.example/p/' }])).toBe('https://a.example/p/');
  expect(sourceParam([{ kind: 'server' }, { kind: 'server' }])).toBeNull();
  expect(sourceParam(null)).toBeNull();
});

it("shareSourceParam: the copy's own source, even in a log of several", () => {
  const two = [{ kind: 'server' as const }, { kind: 'url' as const, url: 'https://a.example/x.ndjson' }];
  expect(shareSourceParam(two, 'https://a.example/x.ndjson', PAGE)).toBe('https://a.example/x.ndjson');
  expect(shareSourceParam(two, `${PAGE}/v1/evidence/package/`, PAGE)).toBe('server');
  expect(shareSourceParam(two, 'picked-folder', PAGE)).toBeNull();
  expect(shareSourceParam([{ kind: 'url', url: 'https://a.example/p/' }], null, PAGE)).toBe('https://a.example/p/');
});
