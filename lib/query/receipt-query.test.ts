import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMIT,
  MAX_ISSUES,
  MAX_LIMIT,
  RECEIPT_OUTCOMES,
  U64_MAX,
  parseReceiptQuery,
  toFilterKey,
  toSearchParams,
  type ReceiptQuery,
  type ReceiptQueryIssue,
} from './receipt-query';

const parse = (qs: string) => parseReceiptQuery(new URLSearchParams(qs));

function issuesOf(qs: string): ReceiptQueryIssue[] {
  const r = parse(qs);
  if (r.ok) throw new Error(`expected issues for ${qs}`);
  return r.issues;
}

const params = (qs: string) => issuesOf(qs).map((i) => i.param);

describe('parseReceiptQuery: valid queries', () => {
  it('an empty query is the default page', () => {
    expect(parse('')).toEqual({ ok: true, query: { limit: DEFAULT_LIMIT } });
  });

  it('reads every parameter, u64s as bigints', () => {
    const r = parse(
      'capabilityId=cap-1&toolServer=*&toolName=read%20file&outcome=deny&since=0&until=18446744073709551615' +
        '&minCost=9007199254740993&maxCost=18446744073709551615&cursor=42&limit=200&agentSubject=ab%2Bcd',
    );
    expect(r).toEqual({
      ok: true,
      query: {
        capabilityId: 'cap-1',
        toolServer: '*',
        toolName: 'read file',
        outcome: 'deny',
        since: 0n,
        until: U64_MAX,
        minCost: 9007199254740993n,
        maxCost: U64_MAX,
        cursor: 42n,
        limit: 200,
        agentSubject: 'ab+cd',
      },
    });
  });

  it.each(RECEIPT_OUTCOMES)('outcome=%s', (o) => {
    expect(parse(`outcome=${o}`)).toEqual({ ok: true, query: { outcome: o, limit: 50 } });
  });

  it('limit 1 and 200 are the bounds; equal since/until and minCost/maxCost are allowed', () => {
    expect(parse('limit=1')).toEqual({ ok: true, query: { limit: 1 } });
    expect(parse(`limit=${MAX_LIMIT}`)).toEqual({ ok: true, query: { limit: 200 } });
    expect(parse('since=5&until=5&minCost=0&maxCost=0').ok).toBe(true);
  });
});

describe('parseReceiptQuery: every malformed parameter is named', () => {
  it.each([
    ['limit=0', 'limit', /between 1 and 200/],
    ['limit=201', 'limit', /between 1 and 200/],
    ['limit=99999999999999999999999', 'limit', /between 1 and 200/],
    ['limit=abc', 'limit', /plain decimal/],
    ['limit=', 'limit', /plain decimal/],
    ['limit=050', 'limit', /plain decimal/],
    ['limit=5.0', 'limit', /plain decimal/],
    ['since=1e3', 'since', /plain decimal/],
    ['since=%2B5', 'since', /plain decimal/],
    ['until=%205', 'until', /plain decimal/],
    ['until=5%20', 'until', /plain decimal/],
    ['until=0x10', 'until', /plain decimal/],
    ['cursor=-1', 'cursor', /plain decimal/],
    ['cursor=007', 'cursor', /plain decimal/],
    ['cursor=18446744073709551616', 'cursor', /u64/],
    ['minCost=1.5', 'minCost', /plain decimal/],
    ['maxCost=%EF%BC%91', 'maxCost', /plain decimal/], // fullwidth digit one
    ['maxCost=123456789012345678901', 'maxCost', /plain decimal/],
    ['outcome=maybe', 'outcome', /one of allow, deny, cancelled, incomplete/],
    ['outcome=ALLOW', 'outcome', /one of/],
    ['outcome=none', 'outcome', /one of/],
    ['unknown=1', 'unknown', /unknown parameter/],
    ['tool_server=x', 'tool_server', /did you mean toolServer/],
    ['toolserver=x', 'toolserver', /did you mean toolServer/],
    ['toolServer=', 'toolServer', /not be empty/],
    ['capabilityId=', 'capabilityId', /not be empty/],
    [`agentSubject=${'a'.repeat(1025)}`, 'agentSubject', /at most 1024/],
    ['limit=5&limit=6', 'limit', /more than once/],
    ['limit=5&limit=5', 'limit', /more than once/],
    ['minCost=10&maxCost=9', 'minCost', /greater than maxCost/],
    ['since=10&until=9', 'since', /after until/],
  ])('%s → %s', (qs, param, message) => {
    const issues = issuesOf(qs);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.param).toBe(param);
    expect(issues[0]!.message).toMatch(message);
  });

  it('values are well-formed Unicode by construction: URLSearchParams turns lone surrogates and bad escapes into U+FFFD', () => {
    expect(parseReceiptQuery(new URLSearchParams([['toolName', 'a\uD800b']]))).toEqual({ ok: true, query: { toolName: 'a\uFFFDb', limit: 50 } });
    expect(parse('toolName=a%FFb')).toEqual({ ok: true, query: { toolName: 'a\uFFFDb', limit: 50 } });
  });

  it('reports all problems at once, in a stable order', () => {
    expect(params('limit=0&since=1e3&outcome=maybe&foo=1&bar=2&cursor=1&cursor=2&toolName=')).toEqual([
      'foo',
      'bar',
      'cursor',
      'toolName',
      'since',
      'outcome',
      'limit',
    ]);
  });

  it('range checks still run next to other problems, and only on values that parsed', () => {
    expect(params('since=9&until=8&limit=0')).toEqual(['limit', 'since']);
    expect(params('since=9&until=x')).toEqual(['until']);
  });

  it(`caps the list at ${MAX_ISSUES} issues and says how many more there were`, () => {
    const qs = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&');
    const issues = issuesOf(qs);
    expect(issues).toHaveLength(MAX_ISSUES + 1);
    expect(issues.at(-1)).toEqual({ param: '…', message: '980 more problem(s) not listed' });
  });

  it('bounds an attacker-chosen parameter name in the issue', () => {
    const [issue] = issuesOf(`${'x'.repeat(10_000)}=1`);
    expect(issue!.param.length).toBeLessThanOrEqual(65);
  });

  it('names are case-sensitive, as in Chio (camelCase)', () => {
    expect(params('Limit=5')).toEqual(['Limit']);
  });
});

describe('toSearchParams and toFilterKey', () => {
  it('writes a fixed order, and limit only when it is not the default', () => {
    const q: ReceiptQuery = { limit: 50, cursor: 7n, toolName: 'a&b=c', since: 1n, outcome: 'allow' };
    expect(toSearchParams(q).toString()).toBe('toolName=a%26b%3Dc&outcome=allow&since=1&cursor=7');
    expect(toSearchParams({ ...q, limit: 200 }).toString()).toBe('toolName=a%26b%3Dc&outcome=allow&since=1&cursor=7&limit=200');
  });

  it('the filter key ignores cursor and limit', () => {
    const q: ReceiptQuery = { limit: 10, cursor: 99n, toolServer: 's', minCost: 5n };
    expect(toFilterKey(q)).toBe('toolServer=s&minCost=5');
    expect(toFilterKey({ ...q, cursor: 1n, limit: 200 })).toBe(toFilterKey(q));
    expect(toFilterKey({ limit: 50 })).toBe('');
  });
});

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
type Bounds = readonly [bigint | undefined, bigint | undefined];
const orderedPair = fc.tuple(u64, u64).map(([a, b]): Bounds => (a <= b ? [a, b] : [b, a]));

const validQuery: fc.Arbitrary<ReceiptQuery> = fc
  .record(
    {
      capabilityId: text,
      toolServer: text,
      toolName: text,
      outcome: fc.constantFrom(...RECEIPT_OUTCOMES),
      time: fc.oneof(
        orderedPair,
        u64.map((a): Bounds => [a, undefined]),
        u64.map((b): Bounds => [undefined, b]),
      ),
      cost: fc.oneof(
        orderedPair,
        u64.map((a): Bounds => [a, undefined]),
        u64.map((b): Bounds => [undefined, b]),
      ),
      cursor: u64,
      limit: fc.integer({ min: 1, max: MAX_LIMIT }),
      agentSubject: text,
    },
    { requiredKeys: ['limit'] },
  )
  .map(({ time, cost, ...rest }) => {
    const q: ReceiptQuery = { ...rest };
    if (time?.[0] !== undefined) q.since = time[0];
    if (time?.[1] !== undefined) q.until = time[1];
    if (cost?.[0] !== undefined) q.minCost = cost[0];
    if (cost?.[1] !== undefined) q.maxCost = cost[1];
    return q;
  });

const NAMES = ['capabilityId', 'toolServer', 'toolName', 'outcome', 'since', 'until', 'minCost', 'maxCost', 'cursor', 'limit', 'agentSubject'];
const hostileValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String),
  fc.constantFrom('', ' 1', '1 ', '+1', '-0', '1e3', '0x1', '007', 'NaN', 'Infinity', '1.0', '\u0000', '\uD800', 'allow', 'deny'),
);
const hostileParams = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'binary', maxLength: 12 })), hostileValue), {
  maxLength: 14,
});

describe('properties', () => {
  it('round trip: parse(toSearchParams(q)) equals q, also through the URL text', () => {
    fc.assert(
      fc.property(validQuery, (q) => {
        expect(parseReceiptQuery(toSearchParams(q))).toEqual({ ok: true, query: q });
        expect(parseReceiptQuery(new URLSearchParams(`?${toSearchParams(q).toString()}`))).toEqual({ ok: true, query: q });
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on hostile input; every issue names a parameter; an accepted query re-encodes to itself', () => {
    fc.assert(
      fc.property(hostileParams, (pairs) => {
        const r = parseReceiptQuery(new URLSearchParams(pairs));
        if (r.ok) {
          expect(parseReceiptQuery(toSearchParams(r.query))).toEqual(r);
        } else {
          expect(r.issues.length).toBeGreaterThan(0);
          expect(r.issues.length).toBeLessThanOrEqual(MAX_ISSUES + 1);
          for (const issue of r.issues) expect(typeof issue.param === 'string' && issue.message.length > 0).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('never throws on an arbitrary query string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (qs) => {
        const r = parse(qs);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts exactly the canonical decimal texts of 0..2^64-1 for cursor', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -10n, max: U64_MAX + 10n }), fc.constantFrom('', '0', '+', ' '), (n, prefix) => {
        const r = parse(`cursor=${encodeURIComponent(prefix + n.toString())}`);
        const acceptable = prefix === '' && n >= 0n && n <= U64_MAX;
        expect(r.ok).toBe(acceptable);
        if (r.ok) expect(r.query.cursor).toBe(n);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('kernelKey (a fleet kernel)', () => {
  const key = 'ab'.repeat(32);
  it('takes 64 lowercase hex digits and round-trips', () => {
    const r = parseReceiptQuery(new URLSearchParams({ kernelKey: key, outcome: 'deny' }));
    expect(r).toEqual({ ok: true, query: { kernelKey: key, outcome: 'deny', limit: 50 } });
    if (r.ok) expect(parseReceiptQuery(toSearchParams(r.query))).toEqual(r);
  });
  it('refuses anything else, naming the parameter', () => {
    for (const bad of [key.toUpperCase(), key.slice(1), `${key}0`, `${key.slice(0, 63)}g`, "' OR 1=1 --"]) {
      const r = parseReceiptQuery(new URLSearchParams({ kernelKey: bad }));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.issues[0]!.param).toBe('kernelKey');
    }
  });
});
