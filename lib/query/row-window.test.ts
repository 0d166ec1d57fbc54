import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SCROLL_PX, offsetAt, offsetShowing, scrollHeight, scrollTopFor, visibleRows } from './row-window';

const geometry = fc.record({ count: fc.nat({ max: 20_000_000 }), rowHeight: fc.constantFrom(20, 32, 41), viewport: fc.integer({ min: 50, max: 2000 }) });

describe('row window', () => {
  it('a small table scrolls naturally: rows sit at index × height', () => {
    const g = { count: 1000, rowHeight: 32, viewport: 320 };
    expect(scrollHeight(g)).toBe(32_000);
    expect(offsetAt(g, 640)).toBe(640);
    const rows = visibleRows(g, 640, 640, 0);
    expect(rows[0]).toEqual({ index: 20, top: 640 });
    expect(rows.at(-1)!.index).toBe(30);
  });

  it('1,125,220 rows stay under the browser cap and the last row can be reached', () => {
    const g = { count: 1_125_220, rowHeight: 32, viewport: 600 };
    expect(scrollHeight(g)).toBe(MAX_SCROLL_PX);
    const bottom = scrollHeight(g) - g.viewport;
    const offset = offsetAt(g, bottom);
    const rows = visibleRows(g, offset, bottom, 0);
    expect(rows.at(-1)!.index).toBe(g.count - 1);
    // The last row's bottom edge meets the viewport's bottom edge.
    expect(rows.at(-1)!.top + g.rowHeight).toBeCloseTo(bottom + g.viewport, 6);
  });

  it('every row can be brought into view, whole, by its scrollTop', () => {
    fc.assert(
      fc.property(geometry, fc.double({ min: 0, max: 1, noNaN: true }), (g, at) => {
        if (g.count === 0) return;
        const index = Math.min(g.count - 1, Math.floor(at * g.count));
        const offset = offsetShowing(g, 0, index);
        const top = scrollTopFor(g, offset);
        expect(top).toBeGreaterThanOrEqual(0);
        expect(top).toBeLessThanOrEqual(Math.max(0, scrollHeight(g) - g.viewport) + 1e-6);
        const back = offsetAt(g, top);
        expect(Math.abs(back - Math.min(offset, Math.max(0, g.count * g.rowHeight - g.viewport)))).toBeLessThan(
          1e-3 * g.rowHeight + (1e-6 * g.count * g.rowHeight) / MAX_SCROLL_PX + 1e-6,
        );
        const shown = visibleRows(g, offset, top, 0).map((r) => r.index);
        expect(shown).toContain(index);
      }),
      { numRuns: 1000 },
    );
  });

  it('rows are placed one height apart, starting at the viewport top', () => {
    fc.assert(
      fc.property(geometry, fc.double({ min: 0, max: 1, noNaN: true }), (g, at) => {
        const top = at * Math.max(0, scrollHeight(g) - g.viewport);
        const offset = offsetAt(g, top);
        const rows = visibleRows(g, offset, top, 2);
        for (let k = 1; k < rows.length; k++) expect(rows[k]!.top - rows[k - 1]!.top).toBeCloseTo(g.rowHeight, 6);
        const firstWhole = rows.find((r) => r.top >= top - 1e-6);
        if (firstWhole && g.count * g.rowHeight > g.viewport) expect(firstWhole.top - top).toBeLessThan(g.rowHeight + 1e-6);
      }),
      { numRuns: 1000 },
    );
  });

  it('offsetShowing moves only as far as needed', () => {
    const g = { count: 100, rowHeight: 32, viewport: 320 };
    expect(offsetShowing(g, 0, 5)).toBe(0);
    expect(offsetShowing(g, 0, 10)).toBe(32);
    expect(offsetShowing(g, 640, 3)).toBe(96);
  });
});
