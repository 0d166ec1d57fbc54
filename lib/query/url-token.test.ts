import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_CHARS, takeTokenFromUrl } from './url-token';

const BASE = 'http://127.0.0.1:3000';

describe('takeTokenFromUrl', () => {
  it('takes the token from the fragment or the query and keeps everything else', () => {
    expect(takeTokenFromUrl(`${BASE}/#token=s3cr3t`)).toEqual({ token: 's3cr3t', href: `${BASE}/` });
    expect(takeTokenFromUrl(`${BASE}/?token=s3cr3t`)).toEqual({ token: 's3cr3t', href: `${BASE}/` });
    expect(takeTokenFromUrl(`${BASE}/receipts?decision=deny&token=a.b-c&guard=budget#token=frag&x=1`)).toEqual({
      token: 'frag',
      href: `${BASE}/receipts?decision=deny&guard=budget#x=1`,
    });
    // `+` and `/` are token characters (RFC 6750 b64token), not form encoding.
    expect(takeTokenFromUrl(`${BASE}/#token=ab+c/d%3D%3D`)?.token).toBe('ab+c/d==');
  });

  it('leaves a URL without a token alone, share-link fragments included', () => {
    expect(takeTokenFromUrl(`${BASE}/share#AAECAwQFBgcICQ-_xyz`)).toBeNull();
    expect(takeTokenFromUrl(`${BASE}/receipts?tokens=1&mytoken=2`)).toBeNull();
    expect(takeTokenFromUrl('not a url')).toBeNull();
  });

  it('removes an unusable token but does not use it', () => {
    for (const bad of ['', 'a%20b', 'a%0Ab', '%E0%A4%A', 'caf%C3%A9', 'x'.repeat(MAX_TOKEN_CHARS + 1)]) {
      const taken = takeTokenFromUrl(`${BASE}/?token=${bad}&a=1`);
      expect(taken, bad).toEqual({ token: null, href: `${BASE}/?a=1` });
    }
    expect(takeTokenFromUrl(`${BASE}/?token&token=x#token=y&token=z`)).toEqual({ token: 'y', href: `${BASE}/` });
  });

  it('never throws, and never leaves a token parameter in the address it returns', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9%&=#?+._~-]{0,30}$/);
    fc.assert(
      fc.property(part, part, (q, h) => {
        const taken = takeTokenFromUrl(`${BASE}/p?${q}#${h}`);
        if (taken === null) return;
        const out = new URL(taken.href);
        const params = (s: string) => s.replace(/^[?#]/, '').split('&');
        expect(params(out.search).some((p) => p === 'token' || p.startsWith('token='))).toBe(false);
        expect(params(out.hash).some((p) => p === 'token' || p.startsWith('token='))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
