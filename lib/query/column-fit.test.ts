import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitColumns } from './column-fit';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('fitColumns', () => {
  it('a column the cap cut gets its full width back while the box has room (the clipped cost with a quarter of the table empty)', () => {
    // time, tool, cost (capped below its text), verdict; the box has 300 px to spare.
    const w = fitColumns([150, 120, 113, 80], [Infinity, 200, 100, Infinity], 763);
    expect(w[2]).toBeGreaterThanOrEqual(113);
    expect(sum(w)).toBe(763);
  });

  it('without room, every column is its capped width and the table is wider than the box', () => {
    expect(fitColumns([150, 500, 113], [Infinity, 200, 200], 300)).toEqual([150, 200, 113]);
  });

  it('with room for some of what the caps cut, it is shared in proportion', () => {
    expect(fitColumns([100, 300, 200], [100, 200, 100], 500)).toEqual([100, 250, 150]);
  });

  it('properties: fills the box, never below the capped width, never clips while there is room', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ n: fc.integer({ min: 0, max: 2000 }), cap: fc.integer({ min: 20, max: 800 }) }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 5000 }),
        (cols, available) => {
          const natural = cols.map((c) => c.n);
          const cap = cols.map((c) => c.cap);
          const w = fitColumns(natural, cap, available);
          const capped = natural.map((n, i) => Math.min(n, cap[i]!));
          w.forEach((x, i) => expect(x).toBeGreaterThanOrEqual(Math.floor(capped[i]!)));
          expect(sum(w)).toBeGreaterThanOrEqual(Math.min(available, sum(capped)) - 1);
          expect(sum(w)).toBeLessThanOrEqual(Math.max(available, sum(capped)) + 1);
          if (sum(natural) <= available) natural.forEach((n, i) => expect(w[i]).toBeGreaterThanOrEqual(n));
        },
      ),
      { numRuns: 500 },
    );
  });
});
