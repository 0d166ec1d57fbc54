import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { radixSortRows } from './radix-sort';

/** The reference: a comparator sort by (hi, lo), ties in input order. */
function reference(keys: { lo: number; hi: number }[]): number[] {
  return keys
    .map((k, i) => ({ ...k, i }))
    .sort((a, b) => a.hi - b.hi || a.lo - b.lo || a.i - b.i)
    .map((k) => k.i);
}

describe('radixSortRows', () => {
  it('sorts 64-bit keys stably, as a comparator sort does', () => {
    const word = fc.oneof(fc.constantFrom(0, 1, 0xffff, 0x10000, 0xffffffff), fc.nat({ max: 0xffffffff }), fc.nat({ max: 40 }));
    fc.assert(
      fc.property(fc.array(fc.record({ lo: word, hi: word }), { maxLength: 300 }), (keys) => {
        const rows = Uint32Array.from(keys, (_, i) => i);
        const got = radixSortRows(
          rows,
          Uint32Array.from(keys, (k) => k.lo),
          Uint32Array.from(keys, (k) => k.hi),
        );
        expect([...got]).toEqual(reference(keys));
      }),
      { numRuns: 500 },
    );
  });

  it('sorts 32-bit keys without a high word, and keeps rows attached to their keys', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 300 }), (los) => {
        const rows = Uint32Array.from(los, (_, i) => 1000 + i);
        const got = radixSortRows(rows, Uint32Array.from(los), null);
        expect([...got]).toEqual(reference(los.map((lo) => ({ lo, hi: 0 }))).map((i) => 1000 + i));
      }),
      { numRuns: 500 },
    );
  });

  it('sorted input, ascending or descending with ties, takes the shortcut and gives the same result', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ lo: fc.nat({ max: 5 }), hi: fc.nat({ max: 2 }) }), { maxLength: 100 }), fc.boolean(), (raw, descending) => {
        const keys = [...raw].sort((a, b) => (descending ? -1 : 1) * (a.hi - b.hi || a.lo - b.lo));
        const rows = Uint32Array.from(keys, (_, i) => i);
        const got = radixSortRows(
          rows,
          Uint32Array.from(keys, (k) => k.lo),
          Uint32Array.from(keys, (k) => k.hi),
        );
        expect([...got]).toEqual(reference(keys));
      }),
      { numRuns: 500 },
    );
  });

  it('handles the empty and the all-equal cases', () => {
    expect([...radixSortRows(new Uint32Array(0), new Uint32Array(0), null)]).toEqual([]);
    expect([...radixSortRows(Uint32Array.from([5, 3, 9]), Uint32Array.from([7, 7, 7]), Uint32Array.from([1, 1, 1]))]).toEqual([5, 3, 9]);
  });
});
