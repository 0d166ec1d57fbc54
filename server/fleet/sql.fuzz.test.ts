// The fleet's SQL builder (./sql.ts, ./query.ts): no value of a request can change the shape of
// a statement. Checked with a reference reader of ClickHouse string literals (the escapes 18.16
// reads: \\, \', \xHH), against random, hostile and well-known injection strings. The same
// strings go through the real cluster in fleet.cluster.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReceiptQuery } from '../../lib/query/receipt-query';
import { fuzzParams } from '../../test/support/fuzz';
import { receiptFilter } from './query';
import { type Sql, SqlValueError, col, list, sql, str, table, u64 } from './sql';

/** Reads the ClickHouse string literal at `text[0]`: its value and where it ends (exclusive). */
function readLiteral(text: string): { value: string; end: number } {
  expect(text[0]).toBe("'");
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 1; i < text.length; ) {
    const c = text[i]!;
    if (c === "'") return { value: new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes)), end: i + 1 };
    if (c === '\\') {
      const e = text[i + 1]!;
      if (e === 'x') {
        bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
        i += 4;
      } else {
        expect(['\\', "'"]).toContain(e);
        bytes.push(e.charCodeAt(0));
        i += 2;
      }
      continue;
    }
    // Nothing unescaped may end or confuse the literal: no controls either.
    expect(c.charCodeAt(0) >= 0x20 && c !== '\x7f').toBe(true);
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    bytes.push(...enc.encode(ch));
    i += ch.length;
  }
  throw new Error('unterminated literal');
}

/** The statement with each string literal replaced by `?` and each number by `N`: its shape. */
function shape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    if (text[i] === "'") {
      i += readLiteral(text.slice(i)).end;
      out += '?';
    } else if (/[0-9]/.test(text[i]!) && !/[A-Za-z_]/.test(text[i - 1] ?? '')) {
      while (/[0-9]/.test(text[i] ?? '')) i++;
      out += 'N';
    } else out += text[i++];
  }
  return out;
}

const INJECTIONS = [
  "' OR 1=1 --",
  "x' OR '1'='1",
  "\\' OR 1=1 --",
  "\\\\' OR 1=1 --",
  "'; DROP TABLE receipts; --",
  'x\\',
  '\\x27 OR 1=1',
  "\u0000' OR 1 --",
  "'\n UNION ALL SELECT raw_json FROM receipts --",
  '\u2019 OR 1=1',
  "é'\\'\\\\\\x00",
  '`receipts`',
  '/* */ OR 1',
];

// Any Unicode text, lone surrogates excluded (str() refuses those, tested below).
const text = fc.string({ unit: 'grapheme', maxLength: 60 });
const hostile = fc.string({ unit: fc.constantFrom(...Array.from(`'\\x0\n\r\t"\`;-/*é€😀\u0000\u007f\u0085 `)), maxLength: 40 });
const anyString = fc.oneof(text, hostile, fc.constantFrom(...INJECTIONS));

describe('str()', () => {
  it('makes a literal that reads back as exactly the string, and ends where it should', () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const lit = str(s).text;
        const read = readLiteral(lit);
        expect(read.value).toBe(s);
        expect(read.end).toBe(lit.length);
      }),
      fuzzParams(3000),
    );
  });

  it('refuses strings that are not well-formed Unicode', () => {
    expect(() => str('a\ud800b')).toThrow(SqlValueError);
    expect(() => str('\udc00')).toThrow(SqlValueError);
    expect(readLiteral(str('\ud83d\ude00').text).value).toBe('😀');
  });
});

describe('sql``', () => {
  it('accepts fragments only: a plain string, number or object in a hole throws', () => {
    for (const v of ["' OR 1=1", 1, 1n, null, { text: 'x' }, ['a']]) {
      expect(() => sql`SELECT ${v as unknown as Sql}`).toThrow(SqlValueError);
    }
    expect(() => list(['a' as unknown as Sql])).toThrow(SqlValueError);
  });

  it('names only whitelisted tables and columns, and u64 only in range', () => {
    expect(() => table('receipts; DROP' as never)).toThrow(SqlValueError);
    expect(() => col('raw_json FROM x' as never)).toThrow(SqlValueError);
    expect(u64((1n << 64n) - 1n).text).toBe('18446744073709551615');
    for (const bad of [-1n, 1n << 64n, 5 as unknown as bigint]) expect(() => u64(bad)).toThrow(SqlValueError);
  });
});

describe('receiptFilter', () => {
  const u64s = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
  const queries = fc.record(
    {
      capabilityId: anyString,
      toolServer: anyString,
      toolName: anyString,
      agentSubject: anyString,
      outcome: fc.constantFrom('allow', 'deny', 'cancelled', 'incomplete' as const),
      kernelKey: fc.stringMatching(/^[0-9a-f]{64}$/),
      since: u64s,
      until: u64s,
      minCost: u64s,
      maxCost: u64s,
    },
    { requiredKeys: [] },
  );
  const fixed = (q: Partial<ReceiptQuery>): Partial<ReceiptQuery> =>
    Object.fromEntries(
      Object.entries(q).map(([k, v]) => [k, typeof v === 'bigint' ? 1n : k === 'kernelKey' ? '0'.repeat(64) : k === 'outcome' ? 'allow' : 'a']),
    );

  it('has the same shape for any values: no value leaves its literal', () => {
    fc.assert(
      fc.property(queries, (q) => {
        const built = receiptFilter(q as ReceiptQuery).text;
        expect(shape(built)).toBe(shape(receiptFilter(fixed(q) as ReceiptQuery).text));
      }),
      fuzzParams(2000),
    );
  });

  it('carries each value exactly, in its own literal', () => {
    for (const s of INJECTIONS) {
      const built = receiptFilter({ toolName: s } as ReceiptQuery).text;
      const at = built.indexOf("tool_name = '") + 'tool_name = '.length;
      expect(readLiteral(built.slice(at)).value).toBe(s);
    }
  });
});
