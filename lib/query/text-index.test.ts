import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextIndex } from './text-index';

const expected = (values: string[], q: string) => values.map((v, c) => (c > 0 && q.length > 0 && v.toLowerCase().includes(q) ? 1 : 0));

describe('TextIndex', () => {
  it('marks exactly the values containing the query, as includes() on each lower-cased value does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', 'A', 'İ', 'ß', 'x', '\u0000', 'é') }), { maxLength: 60 }),
        fc.string({ maxLength: 3, unit: fc.constantFrom('a', 'b', 'x', 'i', 'ß') }),
        (vals, q) => {
          const values = ['', ...vals];
          const hit = new Uint8Array(values.length);
          new TextIndex(q.length % 2 ? 16 : undefined).search(values, q, hit);
          // A value containing NUL is searched like any other: the query has none, so no match spans two values.
          expect([...hit]).toEqual(expected(values, q));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps up with a growing dictionary and finds values in every chunk', () => {
    const values = [''];
    const index = new TextIndex(100); // a few values per chunk
    const grow = (n: number) => {
      for (let i = 0; i < n; i++) values.push(`rcpt-${values.length.toString(16).padStart(6, '0')}-Tool`);
    };
    grow(10);
    let hit = new Uint8Array(values.length);
    index.search(values, 'rcpt-00000a', hit);
    expect([...hit].indexOf(1)).toBe(10);
    grow(1000);
    hit = new Uint8Array(values.length);
    index.search(values, '-tool', hit);
    expect(hit.reduce((a, b) => a + b, 0)).toBe(1010);
    hit = new Uint8Array(values.length);
    index.search(values, 'rcpt-0003e8', hit);
    expect([...hit].indexOf(1)).toBe(1000);
  });

  it('a query with NUL matches nothing rather than across two values', () => {
    const hit = new Uint8Array(3);
    new TextIndex().search(['', 'ab', 'cd'], 'b\u0000c', hit);
    expect([...hit]).toEqual([0, 0, 0]);
  });
});

describe('TextIndex.warm', () => {
  it('indexes ahead in steps, and searches see warmed and unwarmed values alike', () => {
    const values = ['', ...Array.from({ length: 25 }, (_, i) => `Value-${i}`)];
    const index = new TextIndex();
    expect(index.warm(values, 10)).toBe(false);
    expect(index.warm(values, 10)).toBe(false);
    const hit = new Uint8Array(values.length);
    index.search(values, 'value-2', hit); // indexes the rest itself
    expect([...hit].flatMap((h, c) => (h ? [c] : []))).toEqual([3, 21, 22, 23, 24, 25]);
    expect(index.warm(values, 10)).toBe(true);
  });
});
