import { describe, expect, it } from 'vitest';
import { parseJson } from './parse';
import { canonicalize, canonicalBytes, canonicalBytesPair, formatNumber } from './canonicalize';
import { JsonNumber, type JsonValue } from './value';
import { listTestdata, readTestdata, readTestdataJson, readTestdataText, summarize } from '../../test/support/testdata';

function parseOrThrow(text: string): JsonValue {
  const r = parseJson(text);
  if (!r.ok) throw new Error(`${r.issue.message} at ${r.issue.path}`);
  return r.value;
}

function doubleFromHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt('0x' + hex));
  return view.getFloat64(0);
}

describe('RFC 8785 vectors (cyberphone/json-canonicalization)', () => {
  it('input/*.json canonicalizes to output/*.json byte for byte', () => {
    const inputs = listTestdata('jcs/cyberphone/input');
    const failures: string[] = [];
    for (const rel of inputs) {
      const name = rel.split('/').pop()!;
      const expected = readTestdata(`jcs/cyberphone/output/${name}`);
      const hex = readTestdataText(`jcs/cyberphone/outhex/${name.replace('.json', '.txt')}`)
        .trim()
        .split(/\s+/)
        .join('');
      const got = canonicalBytes(parseOrThrow(readTestdataText(rel)));
      if (Buffer.compare(Buffer.from(got), expected) !== 0) failures.push(`${name}: got ${new TextDecoder().decode(got)}`);
      if (Buffer.from(got).toString('hex') !== hex.toLowerCase()) failures.push(`${name}: differs from outhex`);
    }
    expect(inputs.length).toBe(6);
    expect(failures, summarize('cyberphone', inputs.length, failures)).toEqual([]);
  });

  it('the 10,000-line ES6 number stream', () => {
    const lines = readTestdataText('jcs/cyberphone/es6testfile10k.txt').split('\n').filter(Boolean);
    const failures: string[] = [];
    for (const line of lines) {
      const [hex, expected] = line.split(',') as [string, string];
      const d = doubleFromHex(hex.padStart(16, '0'));
      // 17 significant digits round-trip every double; the exponent form keeps it a non-integer literal.
      const got = formatNumber(new JsonNumber(d.toExponential(16)));
      if (got !== expected) failures.push(`${hex}: expected ${expected}, got ${got}`);
    }
    expect(lines.length).toBe(10_000);
    expect(failures, summarize('es6 numbers', lines.length, failures.slice(0, 20))).toEqual([]);
  });

  it('RFC 8785 Appendix B: numbers, and NaN/Infinity rejected', () => {
    const { samples } = readTestdataJson<{ samples: { ieee754_hex: string; expected: string | null }[] }>('jcs/rfc8785/rfc8785-appendix-b-numbers.json');
    const failures: string[] = [];
    for (const s of samples) {
      const d = doubleFromHex(s.ieee754_hex);
      if (s.expected === null) {
        if (Number.isFinite(d)) failures.push(`${s.ieee754_hex}: expected non-finite`);
        if (parseJson(`[${String(d)}]`).ok) failures.push(`${s.ieee754_hex}: ${String(d)} parsed`);
        expect(() => formatNumber(new JsonNumber(String(d)))).toThrow(RangeError);
        continue;
      }
      const got = formatNumber(new JsonNumber(d.toExponential(16)));
      if (got !== s.expected) failures.push(`${s.ieee754_hex}: expected ${s.expected}, got ${got}`);
    }
    expect(samples.length).toBe(25);
    expect(failures, summarize('appendix B', samples.length, failures)).toEqual([]);
  });
});

interface CanonicalCase {
  id: string;
  input_json: string;
  canonical_json: string;
}

describe('Chio canonical vectors', () => {
  for (const gen of ['gen-a-upstream', 'gen-b-upstream']) {
    it(`${gen}/tests/bindings/vectors/canonical/v1.json`, () => {
      const { cases } = readTestdataJson<{ cases: CanonicalCase[] }>(`chio/${gen}/tests/bindings/vectors/canonical/v1.json`);
      const failures: string[] = [];
      for (const c of cases) {
        const got = canonicalize(parseOrThrow(c.input_json));
        if (got !== c.canonical_json) failures.push(`${c.id}: expected ${c.canonical_json}, got ${got}`);
      }
      expect(cases.length).toBe(gen === 'gen-a-upstream' ? 5 : 23);
      expect(failures, summarize(gen, cases.length, failures)).toEqual([]);
    });
  }

  it('the legacy variant escapes DEL and C1 like old Rust, and only then', () => {
    const v = parseOrThrow('{"a":"x\\u007fy\\u0080\\u009f\\u00a0"}');
    expect(canonicalize(v)).toBe('{"a":"x\u007fy\u0080\u009f\u00a0"}');
    expect(canonicalize(v, { legacyC1: true })).toBe('{"a":"x\\u007fy\\u0080\\u009f\u00a0"}');
  });

  it('prints integers from their source text, beyond 2^53', () => {
    expect(canonicalize(parseOrThrow('{"b":9007199254740993,"a":-0,"c":1.0,"d":1e-7}'))).toBe('{"a":0,"b":9007199254740993,"c":1,"d":1e-7}');
  });
});

// Property tests (differential against the canonicalize package, canonicalBytesPair) are in canonicalize.fuzz.test.ts.
describe('canonicalBytesPair', () => {
  const parsed = (v: unknown) => {
    const r = parseJson(JSON.stringify(v));
    return r.ok && r.value instanceof Map ? r.value : null;
  };
  it('is right when the larger object is not a superset (a member differs or is missing)', () => {
    const outer = parsed({ a: 1, b: { c: 2 }, signature: 'x' })!;
    const changed = new Map(outer);
    changed.set('b', parsed({ c: 3 })!);
    const missing = new Map(outer);
    missing.set('z', null);
    for (const inner of [changed, missing]) {
      expect(canonicalBytesPair(inner, outer)).toEqual([canonicalBytes(inner), canonicalBytes(outer)]);
    }
  });
});
