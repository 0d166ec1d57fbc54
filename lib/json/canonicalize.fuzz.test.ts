// Fuzz: our RFC 8785 bytes against the `canonicalize` package (contract §3) on documents with
// every kind of double (-0, 1e21, 5e-324, ...), astral and control characters, and keys whose
// UTF-16 order differs from their code-point order. Integer literals stay within ±2^53 here:
// beyond that the package (which works on JS numbers) cannot be exact, and ours is tested
// against the literal's own text in parse.fuzz.test.ts.
import canonicalizeReference from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalBytesPair, canonicalize } from './canonicalize';
import { parseJson } from './parse';
import type { JsonObject, JsonValue } from './value';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { jsonDoc, jsonObjectDoc, jsonText, renderJson, style, SPECIAL_STRINGS } from '../../test/support/json-arbitraries';

const utf8 = (s: string) => new TextEncoder().encode(s);

function parsed(text: string): JsonValue {
  const r = parseJson(text);
  if (!r.ok) throw new Error(`the generator wrote JSON our parser refuses: ${r.issue.message} in ${text}`);
  return r.value;
}

/** The reference: JSON.parse (exact for these documents), then the package, as UTF-8. */
const referenceBytes = (text: string) => utf8(canonicalizeReference(JSON.parse(text)) as string);

describe('differential: canonicalBytes vs the canonicalize package', () => {
  it(
    'identical bytes on arbitrary documents',
    () => {
      fc.assert(
        fc.property(jsonText, ({ text }) => {
          const ours = canonicalBytes(parsed(text));
          expect(ours).toEqual(referenceBytes(text));
          expect(ours).toEqual(utf8(canonicalize(parsed(text))));
        }),
        fuzzParams(2000),
      );
    },
    fuzzTimeout(),
  );

  it(
    'identical bytes on objects whose keys sort differently by UTF-16 and by code point',
    () => {
      const astral = fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c));
      const highBmp = fc.integer({ min: 0xe000, max: 0xffff }).map((c) => String.fromCharCode(c));
      const key = fc.oneof(
        astral,
        highBmp,
        fc.constantFrom(...SPECIAL_STRINGS),
        fc.tuple(highBmp, astral).map(([a, b]) => a + b),
      );
      const object = fc.tuple(fc.uniqueArray(fc.tuple(key, jsonDoc), { selector: (e) => e[0], minLength: 2, maxLength: 8 }), style);
      fc.assert(
        fc.property(object, ([entries, st]) => {
          const text = renderJson({ t: 'obj', entries }, st);
          expect(canonicalBytes(parsed(text))).toEqual(referenceBytes(text));
        }),
        fuzzParams(1000),
      );
    },
    fuzzTimeout(),
  );
});

describe('canonical form is a fixed point', () => {
  // One known exception: a double of integral value beyond the 64-bit range and below 1e21 in
  // magnitude (1e20, -9.3e18) prints as an integer literal (RFC 8785 / ECMAScript), which
  // contract §2 refuses to parse because Rust would read it as f64. Canonical text is hashed, never parsed again, so the verifier is
  // not affected; the property checks that this is the only way the round trip can fail.
  it(
    'parse(canonical(x)) canonicalizes to the same bytes; so does the legacy DEL/C1 form',
    () => {
      fc.assert(
        fc.property(jsonText, ({ text }) => {
          const once = canonicalize(parsed(text));
          const again = parseJson(once);
          if (!again.ok) {
            expect(again.issue.message).toMatch(/64-bit range/);
            const literals = once.match(/(?<=^|[:,[])-?\d+(?=$|[,\]}])/g) ?? [];
            expect(
              literals.some((l) => BigInt(l) < -(2n ** 63n) || BigInt(l) >= 2n ** 64n),
              once,
            ).toBe(true);
            return;
          }
          expect(canonicalize(again.value)).toBe(once);
          // Escaping U+007F-U+009F changes the text, never the value.
          expect(canonicalize(parsed(canonicalize(parsed(text), { legacyC1: true })))).toBe(once);
        }),
        fuzzParams(1500),
      );
    },
    fuzzTimeout(),
  );

  it(
    'anything the parser accepts canonicalizes without throwing (mutated documents)',
    () => {
      const edit = fc.tuple(fc.nat(), fc.constantFrom(...'{}[]",:\\0123456789.eE-+ \u007f\u0080'.split('')));
      fc.assert(
        fc.property(jsonText, fc.array(edit, { maxLength: 3 }), ({ text }, edits) => {
          let t = text;
          for (const [at, ch] of edits) {
            const i = at % (t.length + 1);
            t = t.slice(0, i) + ch + t.slice(i + 1);
          }
          const r = parseJson(t);
          if (r.ok) canonicalBytes(r.value);
        }),
        fuzzParams(1500),
      );
    },
    fuzzTimeout(),
  );
});

describe('canonicalBytesPair', () => {
  it(
    'equals canonicalizing the body and the larger object separately, whether or not it is a superset',
    () => {
      const objects = fc.tuple(jsonObjectDoc, style, fc.array(fc.boolean(), { maxLength: 8 }), fc.array(fc.boolean(), { maxLength: 8 }), jsonDoc);
      fc.assert(
        fc.property(objects, ([doc, st, keep, change, other]) => {
          const outer = parsed(renderJson(doc, st)) as JsonObject;
          // The body: some of the members, sharing their values (the fast path), some replaced by
          // an equal-looking or different value (the slow path), plus a key the outer lacks when asked.
          const inner: JsonObject = new Map();
          let i = 0;
          for (const [k, v] of outer) {
            if (keep[i] ?? true) inner.set(k, change[i] ? parsed(renderJson(other, st)) : v);
            i++;
          }
          if (change[i]) inner.set('\u{1F600}absent', null);
          const [a, b] = canonicalBytesPair(inner, outer);
          expect(a).toEqual(canonicalBytes(inner));
          expect(b).toEqual(canonicalBytes(outer));
        }),
        fuzzParams(800),
      );
    },
    fuzzTimeout(),
  );
});
