// Test-only fast-check arbitraries for JSON *text*: a document tree rendered with random
// whitespace and escapes, for the parser and canonicalizer fuzz tests. Every document here is
// inside what contract §2 accepts: no duplicate keys, no lone surrogates, integer literals
// within ±2^53, finite numbers, shallow nesting. Tests add the hostile parts themselves.
import fc from 'fast-check';

export type Doc =
  | { t: 'lit'; text: 'null' | 'true' | 'false' }
  | { t: 'num'; text: string }
  | { t: 'str'; s: string }
  | { t: 'arr'; items: Doc[] }
  | { t: 'obj'; entries: [string, Doc][] };

/** How a document is written: whitespace between tokens, and optional escapes in strings. */
export interface Style {
  spaces: boolean;
  escapes: boolean;
  seed: number;
}

/**
 * Keys and strings that matter: astral characters (U+1F600 sorts before U+FF61 and U+FB33 by
 * UTF-16 code units but after them by code point), controls, DEL and C1 (raw in RFC 8785),
 * quotes, backslashes, line separators, combining marks, and prototype names.
 */
export const SPECIAL_STRINGS = [
  '',
  'a',
  'A',
  'é',
  'e\u0301',
  '\uff61',
  '\ufb33',
  '\u{1F600}',
  '\u{10FFFF}',
  '\u{10000}',
  '\u20ac',
  '€\u{1F600}',
  '\u0000',
  '\u001f',
  '\b\f\n\r\t',
  '\u007f',
  '\u0080',
  '\u009f',
  '\u00a0',
  '\u2028\u2029',
  '"',
  '\\',
  '/',
  '\\"',
  '__proto__',
  'constructor',
  'toString',
  '1',
  '10',
  '2',
  '-0',
  'NaN',
];

export const jsonString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
  fc.constantFrom(...SPECIAL_STRINGS),
  fc.array(fc.constantFrom(...SPECIAL_STRINGS), { maxLength: 4 }).map((a) => a.join('')),
);

/** An integer literal (no fraction or exponent) beyond ±2^53 cannot go through JSON.parse or `canonicalize` exactly. */
export function isUnsafeIntegerLiteral(text: string): boolean {
  return /^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text)) && Math.abs(Number(text)) !== 2 ** 53;
}

/** The ways a double may be written (each denotes exactly that double). */
function spellings(d: number): string[] {
  const out = [String(d), d.toExponential(), d.toExponential(16), d.toExponential().toUpperCase()];
  if (Object.is(d, -0)) out.push('-0', '-0.0', '-0e0', '-0E-0');
  if (Number.isInteger(d) && Math.abs(d) < 1e15) out.push(`${d}.0`, `${d}e0`, `${d * 10}E-1`);
  return out;
}

export const numberText: fc.Arbitrary<string> = fc
  .oneof(
    fc.maxSafeInteger().map(String),
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).chain((d) => fc.constantFrom(...spellings(d))),
    fc.constantFrom(
      '0',
      '-0',
      '-0.0',
      '1e21',
      '1E+21',
      '1e+21',
      '1e20',
      '5e-324',
      '4.9e-324',
      '2.2250738585072014e-308',
      '1.7976931348623157e308',
      '1e-7',
      '1e-6',
      '0.000001',
      '9007199254740992',
      '-9007199254740992',
      '1.0',
      '1.50',
      '100e-2',
      '123456789012345678901234567890e-10',
      '0.1',
      '0.30000000000000004',
    ),
    fc.stringMatching(/^-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?$/),
  )
  .filter((t) => Number.isFinite(Number(t)) && !isUnsafeIntegerLiteral(t));

const key: fc.Arbitrary<string> = jsonString;

export const jsonDoc: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Doc>({ t: 'lit', text: 'null' }, { t: 'lit', text: 'true' }, { t: 'lit', text: 'false' }),
    numberText.map((text): Doc => ({ t: 'num', text })),
    jsonString.map((s): Doc => ({ t: 'str', s })),
    fc.array(tie('doc'), { maxLength: 5 }).map((items): Doc => ({ t: 'arr', items })),
    fc.uniqueArray(fc.tuple(key, tie('doc')), { selector: (e) => e[0], maxLength: 5 }).map((entries): Doc => ({ t: 'obj', entries })),
  ),
})).doc;

/** An object document (what a record is). */
export const jsonObjectDoc: fc.Arbitrary<Doc & { t: 'obj' }> = fc
  .uniqueArray(fc.tuple(key, jsonDoc), { selector: (e) => e[0], maxLength: 8 })
  .map((entries) => ({ t: 'obj' as const, entries }));

export const style: fc.Arbitrary<Style> = fc.record({ spaces: fc.boolean(), escapes: fc.boolean(), seed: fc.nat() });

/** A small deterministic PRNG (mulberry32) for the rendering choices. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SHORT: Record<number, string> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

function hex4(c: number, upper: boolean): string {
  const h = c.toString(16).padStart(4, '0');
  return '\\u' + (upper ? h.toUpperCase() : h);
}

/**
 * A JSON string literal for `s`, escaping code unit by code unit. A surrogate pair is escaped
 * whole or not at all: half of one escaped leaves a lone surrogate in the text, which has no
 * UTF-8 form (the byte-level tests encode these texts).
 */
export function renderString(s: string, st: Style, rnd: () => number = prng(st.seed)): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const must = c < 0x20 || c === 0x22 || c === 0x5c;
    const next = s.charCodeAt(i + 1);
    const pair = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    if (!must && !(st.escapes && rnd() < 0.3)) out += pair ? s[i]! + s[++i]! : s[i];
    else if (pair) out += hex4(c, rnd() < 0.5) + hex4(s.charCodeAt(++i), rnd() < 0.5);
    else if (SHORT[c] !== undefined && rnd() < 0.7) out += SHORT[c];
    else if (c === 0x2f && rnd() < 0.5) out += '\\/';
    else out += hex4(c, rnd() < 0.5);
  }
  return out + '"';
}

/** Writes the document as JSON text in the given style. */
export function renderJson(doc: Doc, st: Style): string {
  const rnd = prng(st.seed);
  const WS = ['', ' ', '\n', '\t', '\r\n  ', '  '];
  const ws = () => (st.spaces ? WS[Math.floor(rnd() * WS.length)]! : '');
  const go = (d: Doc): string => {
    switch (d.t) {
      case 'lit':
      case 'num':
        return d.text;
      case 'str':
        return renderString(d.s, st, rnd);
      case 'arr':
        return '[' + ws() + d.items.map((x) => go(x) + ws()).join(',' + ws()) + ']';
      case 'obj':
        return '{' + ws() + d.entries.map(([k, v]) => renderString(k, st, rnd) + ws() + ':' + ws() + go(v) + ws()).join(',' + ws()) + '}';
    }
  };
  return ws() + go(doc) + ws();
}

/** A rendered document with its tree. */
export const jsonText: fc.Arbitrary<{ doc: Doc; text: string }> = fc.tuple(jsonDoc, style).map(([doc, st]) => ({ doc, text: renderJson(doc, st) }));
