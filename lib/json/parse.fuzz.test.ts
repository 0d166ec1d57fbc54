// Fuzz: parseJson against JSON.parse (contract §2). Whatever JSON.parse accepts, ours accepts
// with the same value, except the classes the contract refuses on purpose (duplicate keys, lone
// surrogates, integers beyond 64 bits, numbers beyond the double range, nesting over 512), which
// are refused with their issue; whatever JSON.parse refuses, ours refuses. Never throws, never hangs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonicalize';
import { MAX_DEPTH, parseJson, type JsonIssue } from './parse';
import { JsonNumber, type JsonValue } from './value';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { jsonDoc, jsonString, jsonText, renderJson, renderString, style } from '../../test/support/json-arbitraries';

/** Comparable form: numbers as doubles (keeping -0), objects as key-sorted entries. */
type Plain = null | boolean | number | string | Plain[] | { obj: [string, Plain][] };

const byKey = (a: [string, Plain], b: [string, Plain]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function fromOurs(v: JsonValue): Plain {
  if (v instanceof JsonNumber) return Number(v.raw);
  if (Array.isArray(v)) return v.map(fromOurs);
  if (v instanceof Map) return { obj: [...v].map(([k, x]): [string, Plain] => [k, fromOurs(x)]).sort(byKey) };
  return v;
}

function fromJsonParse(v: unknown): Plain {
  if (Array.isArray(v)) return v.map(fromJsonParse);
  if (v !== null && typeof v === 'object') {
    return {
      obj: Object.keys(v)
        .map((k): [string, Plain] => [k, fromJsonParse((v as Record<string, unknown>)[k])])
        .sort(byKey),
    };
  }
  return v as Plain;
}

function jsonParse(text: string): { ok: true; value: Plain } | { ok: false } {
  try {
    return { ok: true, value: fromJsonParse(JSON.parse(text)) };
  } catch {
    return { ok: false };
  }
}

/** What the contract refuses although JSON.parse reads it. */
const DELIBERATE = /duplicate key|lone UTF-16 surrogate|64-bit range|IEEE-754 double range|nesting deeper than 512/;

function issueOf(text: string): JsonIssue {
  const r = parseJson(text);
  if (r.ok) throw new Error(`expected a rejection of ${JSON.stringify(text.slice(0, 200))}`);
  return r.issue;
}

/** The UTF-16 offset of a 1-based line and column (columns count code units, lines end at \n). */
function offsetOf(text: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) off = text.indexOf('\n', off) + 1;
  return off + column - 1;
}

describe('parseJson never throws', () => {
  const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)); // lone surrogates too
  const jsonish = fc.constantFrom(...'{}[]",:\\/u0123456789abcdefABCDEF.eE+- \t\n\rtrunlsNIfiy\u00e9\ud800\udc00'.split(''));

  it(
    'on arbitrary strings, decoded bytes and JSON-ish text',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: anyUnit, maxLength: 200 }), (s) => void parseJson(s)),
        fuzzParams(3000),
      );
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), (b) => void parseJson(new TextDecoder().decode(b))),
        fuzzParams(1000),
      );
      fc.assert(
        fc.property(fc.string({ unit: jsonish, maxLength: 200 }), (s) => void parseJson(s)),
        fuzzParams(5000),
      );
    },
    fuzzTimeout(),
  );
});

describe('differential: parseJson vs JSON.parse', () => {
  it(
    'accepts every document JSON.parse accepts (no duplicates, surrogates, big integers or deep nesting), with the same value',
    () => {
      fc.assert(
        fc.property(jsonText, ({ text }) => {
          const reference = jsonParse(text);
          expect(reference.ok, 'the generator wrote invalid JSON').toBe(true);
          const ours = parseJson(text);
          if (!ours.ok) throw new Error(`${ours.issue.message} at ${ours.issue.path} in ${text}`);
          expect(fromOurs(ours.value)).toEqual((reference as { value: Plain }).value);
        }),
        fuzzParams(2000),
      );
    },
    fuzzTimeout(),
  );

  it('a surrogate pair written half raw, half escaped (possible in a JS string, not in UTF-8) reads as the pair, like JSON.parse', () => {
    for (const text of ['"\ud83d\\ude00"', '"\\ud83d\ude00"', '{"\ud800\\uDC00":1}']) {
      const ours = parseJson(text);
      expect(ours.ok && fromOurs(ours.value)).toEqual((jsonParse(text) as { value: Plain }).value);
    }
  });

  it(
    'on mutated documents: ours accepts only what JSON.parse accepts, with the same value, and refuses the rest only for a deliberate reason',
    () => {
      const alphabet = '{}[]",:\\/u0123456789aefAEF.+- \t\n\rtrunlsNIy\u00e9\u0000\u001f\u007f\ud800\udc00\ud83d\ude00'.split('');
      const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'replace', 'delete'), fc.constantFrom(...alphabet));
      let refused = 0;
      fc.assert(
        fc.property(jsonText, fc.array(edit, { minLength: 1, maxLength: 4 }), ({ text }, edits) => {
          let t = text;
          for (const [at, op, ch] of edits) {
            const i = t.length === 0 ? 0 : at % (t.length + (op === 'insert' ? 1 : 0));
            t = op === 'insert' ? t.slice(0, i) + ch + t.slice(i) : t.slice(0, i) + (op === 'replace' ? ch : '') + t.slice(i + 1);
          }
          const reference = jsonParse(t);
          const ours = parseJson(t);
          if (ours.ok) {
            expect(reference.ok, `ours accepted what JSON.parse refuses: ${JSON.stringify(t)}`).toBe(true);
            expect(fromOurs(ours.value)).toEqual((reference as { value: Plain }).value);
          } else if (reference.ok) {
            refused++;
            expect(ours.issue.message, JSON.stringify(t)).toMatch(DELIBERATE);
          }
        }),
        fuzzParams(4000),
      );
      expect(refused, 'no deliberate refusal was exercised').toBeGreaterThan(0);
    },
    fuzzTimeout(),
  );
});

/** `doc` placed at the end of a random path of arrays and objects (a string key or an array index per level). */
const wrappers = fc.array(fc.oneof(fc.nat(3), jsonString), { maxLength: 6 });
function wrap(inner: string, path: (number | string)[]): string {
  let out = inner;
  for (const step of [...path].reverse()) {
    out = typeof step === 'number' ? `[${'0,'.repeat(step)}${out}]` : `{"pad":1,${JSON.stringify(step === 'pad' ? 'pad2' : step)}:${out}}`;
  }
  return out;
}

describe('the deliberate refusals (contract §2)', () => {
  it(
    'a duplicate key, at any depth and spelled with any escapes, is duplicate_key pointing at the second key',
    () => {
      const objectWithDuplicate = fc
        .tuple(fc.uniqueArray(fc.tuple(jsonString, jsonDoc), { selector: (e) => e[0], minLength: 1, maxLength: 5 }), fc.nat(), jsonDoc, style, style)
        .map(([entries, pick, value, st, keySt]) => {
          const key = entries[pick % entries.length]![0];
          const body = renderJson({ t: 'obj', entries }, st).trim().slice(0, -1); // drop the closing brace
          const sep = entries.length > 0 ? ',' : '';
          return { key, text: `${body}${sep}${renderString(key, { ...keySt, escapes: true })}:${renderJson(value, st)}}` };
        });
      fc.assert(
        fc.property(objectWithDuplicate, wrappers, ({ key, text }, path) => {
          const full = wrap(text, path);
          expect(jsonParse(full).ok, 'JSON.parse reads duplicates (last wins)').toBe(true);
          const issue = issueOf(full);
          expect(issue.code).toBe('duplicate_key');
          // The position names the repeated key's opening quote.
          const at = offsetOf(full, issue.line, issue.column);
          const literal = /^"(?:[^"\\]|\\.)*"/.exec(full.slice(at));
          expect(literal && JSON.parse(literal[0])).toBe(key);
        }),
        fuzzParams(1500),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a lone surrogate, raw or escaped, in a key or a value, is a parse_error',
    () => {
      const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
      const brokenString = fc
        .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 4 }), lone, fc.string({ unit: 'grapheme-ascii', maxLength: 4 }), style)
        .map(([a, s, b, st]) => renderString(a + s + b, st));
      fc.assert(
        fc.property(brokenString, fc.boolean(), wrappers, (literal, asKey, path) => {
          const full = wrap(asKey ? `{${literal}:1}` : literal, path);
          expect(jsonParse(full).ok).toBe(true);
          const issue = issueOf(full);
          expect(issue).toMatchObject({ code: 'parse_error', message: 'lone UTF-16 surrogate in a string' });
        }),
        fuzzParams(1500),
      );
    },
    fuzzTimeout(),
  );

  it(
    'nesting: 512 levels of arrays and objects parse like JSON.parse; 513 to 100,000 are refused',
    () => {
      const nest = (kinds: boolean[], leaf: string) =>
        kinds.map((obj) => (obj ? '{"k":' : '[')).join('') +
        leaf +
        [...kinds]
          .reverse()
          .map((obj) => (obj ? '}' : ']'))
          .join('');
      const kinds = (min: number, max: number) => fc.integer({ min, max }).chain((n) => fc.array(fc.boolean(), { minLength: n, maxLength: n }));
      fc.assert(
        fc.property(kinds(1, MAX_DEPTH), (k) => {
          const text = nest(k, '1');
          const ours = parseJson(text);
          expect(ours.ok).toBe(true);
          if (ours.ok) expect(fromOurs(ours.value)).toEqual((jsonParse(text) as { value: Plain }).value);
        }),
        fuzzParams(200),
      );
      fc.assert(
        fc.property(fc.integer({ min: MAX_DEPTH + 1, max: 100_000 }), fc.boolean(), fc.boolean(), (depth, objects, closed) => {
          const open = objects ? '{"k":'.repeat(depth) : '['.repeat(depth);
          const text = open + '0' + (closed ? (objects ? '}' : ']').repeat(depth) : '');
          expect(issueOf(text).message).toBe(`nesting deeper than ${MAX_DEPTH} levels`);
        }),
        fuzzParams(100),
      );
    },
    fuzzTimeout(),
  );

  it(
    'integers keep their exact source text within the 64-bit range and are refused beyond it',
    () => {
      const big = fc.oneof(
        fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
        fc.bigInt({ min: 2n ** 53n - 2n, max: 2n ** 53n + 2n }),
        fc.constantFrom(-(2n ** 63n), -(2n ** 63n) - 1n, 2n ** 63n - 1n, 2n ** 64n - 1n, 2n ** 64n, 10n ** 19n, 10n ** 20n),
      );
      fc.assert(
        fc.property(big, fc.boolean(), (n, inObject) => {
          const lit = String(n);
          const text = inObject ? `{"amount":${lit}}` : `[${lit}]`;
          const r = parseJson(text);
          if (n >= -(2n ** 63n) && n <= 2n ** 64n - 1n) {
            if (!r.ok) throw new Error(r.issue.message);
            const num = r.value instanceof Map ? r.value.get('amount') : (r.value as JsonValue[])[0];
            expect((num as JsonNumber).raw).toBe(lit);
            expect((num as JsonNumber).toBigInt()).toBe(n);
            expect(canonicalize(r.value)).toBe(text);
          } else {
            expect(r.ok).toBe(false);
            if (!r.ok) expect(r.issue.message).toMatch(/64-bit range/);
          }
        }),
        fuzzParams(1500),
      );
    },
    fuzzTimeout(),
  );
});

describe('never hangs: pathological inputs return (accepted or with an issue)', () => {
  const N = 100_000;
  const cases: [string, () => string, boolean][] = [
    ['100,000 nested arrays, unclosed', () => '['.repeat(N), false],
    ['100,000 nested objects', () => '{"a":'.repeat(N) + '1' + '}'.repeat(N), false],
    ['alternating [{ to 100,000 levels', () => '[{"a":'.repeat(N / 2), false],
    ['a 4 MiB string', () => `"${'x'.repeat(4 << 20)}"`, true],
    ['a string of 200,000 \\u escapes', () => `"${'\\u00e9'.repeat(200_000)}"`, true],
    ['a string of 200,000 escaped surrogate pairs', () => `"${'\\ud83d\\ude00'.repeat(200_000)}"`, true],
    ['100,000 raw surrogate pairs, then a lone one', () => `"${'\ud83d\ude00'.repeat(100_000)}\ud800"`, false],
    ['an object with 200,000 keys', () => `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`, true],
    ['an object with 200,000 keys, the last one repeated', () => `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(',')},"k0":0}`, false],
    ['an array of 1,000,000 zeros', () => `[${'0,'.repeat(1_000_000)}0]`, true],
    ['a 100,000-digit integer', () => '9'.repeat(N), false],
    ['a 100,000-digit fraction', () => '0.' + '1'.repeat(N), true],
    ['a 100,000-digit exponent', () => '1e' + '9'.repeat(N), false],
    ['4 MiB of whitespace then garbage', () => ' '.repeat(4 << 20) + 'x', false],
    ['500,000 lines, error on the last', () => '[' + '0,\n'.repeat(500_000) + '?]', false],
  ];
  for (const [name, make, ok] of cases) {
    it(
      name,
      () => {
        const r = parseJson(make());
        expect(r.ok).toBe(ok);
      },
      fuzzTimeout(10_000),
    );
  }
});
