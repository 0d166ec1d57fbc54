import { describe, expect, it } from 'vitest';
import { parseJson, MAX_DEPTH } from './parse';
import { type JsonNumber, isJsonObject } from './value';

function issueOf(text: string) {
  const r = parseJson(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
  return r.issue;
}

describe('parseJson: lossless values', () => {
  it('keeps the source text of every number, including integers above 2^53', () => {
    const r = parseJson('{"wei":115792089237316195,"max":18446744073709551615,"f":1.50,"e":1E2,"z":-0}');
    expect(r.ok).toBe(true);
    if (!r.ok || !isJsonObject(r.value)) return;
    expect((r.value.get('wei') as JsonNumber).raw).toBe('115792089237316195');
    expect((r.value.get('max') as JsonNumber).raw).toBe('18446744073709551615');
    expect((r.value.get('f') as JsonNumber).raw).toBe('1.50');
    expect((r.value.get('e') as JsonNumber).raw).toBe('1E2');
    expect((r.value.get('z') as JsonNumber).raw).toBe('-0');
  });

  it('keeps object keys in source order and decodes escapes', () => {
    const r = parseJson('{"b":1,"a":"\\u00e9\\n\\/","\\ud83d\\ude00":true}');
    expect(r.ok && isJsonObject(r.value) && [...r.value.keys()]).toEqual(['b', 'a', '😀']);
    expect(r.ok && isJsonObject(r.value) && r.value.get('a')).toBe('é\n/');
  });

  it('accepts the i64/u64 boundaries', () => {
    expect(parseJson('[-9223372036854775808, 18446744073709551615]').ok).toBe(true);
  });
});

describe('parseJson: rejections carry a code, a field path and a line', () => {
  it('duplicate keys, even when spelled with different escapes', () => {
    const issue = issueOf('{\n "receipt": {"tool_name": "a",\n  "tool_\\u006eame": "b"}}');
    expect(issue.code).toBe('duplicate_key');
    expect(issue.path).toBe('$.receipt.tool_name');
    expect(issue.line).toBe(3);
  });

  it('lone surrogates, escaped or raw', () => {
    expect(issueOf('{"a":"\\ud800"}')).toMatchObject({ code: 'parse_error', path: '$.a' });
    expect(issueOf('{"a":"\\udc00x"}').code).toBe('parse_error');
    expect(issueOf('["\\ud800\\u0041"]').path).toBe('$[0]');
    expect(issueOf('{"a":"x\ud800"}').code).toBe('parse_error');
    expect(issueOf('{"\\udfff":1}').code).toBe('parse_error');
  });

  it('NaN, Infinity and out-of-range numbers', () => {
    expect(issueOf('{"a":NaN}').message).toMatch(/NaN and Infinity/);
    expect(issueOf('{"a":-Infinity}').message).toMatch(/NaN and Infinity/);
    expect(issueOf('{"a":Infinity}').message).toMatch(/NaN and Infinity/);
    expect(issueOf('{"a":1e400}').message).toMatch(/range/);
    expect(issueOf('[18446744073709551616]').message).toMatch(/64-bit/);
    expect(issueOf('[-9223372036854775809]').message).toMatch(/64-bit/);
  });

  it('nesting deeper than 512 levels, but not 512 itself', () => {
    expect(parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)).ok).toBe(true);
    const deep = issueOf('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1));
    expect(deep.message).toMatch(/nesting deeper than 512/);
    expect(issueOf('{"a":'.repeat(MAX_DEPTH + 1) + '1' + '}'.repeat(MAX_DEPTH + 1)).code).toBe('parse_error');
    // Far deeper input must still return, not overflow the stack.
    expect(parseJson('['.repeat(200_000)).ok).toBe(false);
  });

  it('grammar errors with line and column', () => {
    const bad = [
      '',
      ' ',
      '{',
      '{"a" 1}',
      '{"a":1,}',
      '[1,]',
      '[01]',
      '[1.]',
      '[.5]',
      '[1e]',
      '[+1]',
      '["a\tb"]',
      '["\\x"]',
      '["\\u12"]',
      '{a:1}',
      "{'a':1}",
      '[1] x',
      'tru',
      'nul',
      '"abc',
      '[1 2]',
      '\u00a0[]',
      '[]\u2028',
    ];
    for (const text of bad) expect(parseJson(text).ok, JSON.stringify(text)).toBe(false);
    expect(issueOf('{\n  "a": 1,\n  "b": ?}')).toMatchObject({ line: 3, column: 8, path: '$.b' });
    expect(issueOf('{"a":1 "b":2}')).toMatchObject({ message: "expected ',' or '}'", path: '$', column: 8 });
    expect(issueOf('[1 2]')).toMatchObject({ message: "expected ',' or ']'", path: '$', column: 4 });
    expect(issueOf('{"a":[1,2')).toMatchObject({ message: 'unexpected end of input in an array', path: '$.a' });
    expect(issueOf('{"a":1')).toMatchObject({ message: 'unexpected end of input in an object', path: '$' });
  });
});
