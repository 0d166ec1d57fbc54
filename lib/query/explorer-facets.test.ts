import { describe, expect, it } from 'vitest';
import { storeOf } from '../../test/support/corpus-store';
import { EMPTY_FILTER, type ExplorerFilter, VALUE_FILTERS, filterRows } from './explorer-filter';
import { facetCounts } from './explorer-facets';

const f = (extra: Partial<ExplorerFilter>): ExplorerFilter => ({ ...EMPTY_FILTER, ...extra });

describe('facetCounts', () => {
  it("over the whole log, each value's count is the rows its filter keeps, for every field", async () => {
    const { store } = await storeOf('tampered-field');
    for (const field of VALUE_FILTERS) {
      for (const { value, count } of facetCounts(store, EMPTY_FILTER, field)) {
        expect(count, `${field} = ${value}`).toBe(filterRows(store, f({ values: { [field]: [value] } })).length);
      }
    }
    expect(facetCounts(store, EMPTY_FILTER, 'problem').map((c) => c.value)).toContain('signature_invalid');
    expect(facetCounts(store, EMPTY_FILTER, 'verdict').reduce((a, c) => a + c.count, 0)).toBe(store.length);
  });

  it("counts within the other filters, not the field's own choices (they are alternatives)", async () => {
    const { store } = await storeOf('good');
    const base = f({ values: { decision: ['deny'], toolServer: ['srv-pay'] } });
    const counts = facetCounts(store, base, 'decision');
    for (const { value, count } of counts) {
      expect(count, value).toBe(filterRows(store, f({ values: { decision: [value], toolServer: ['srv-pay'] } })).length);
    }
    expect(counts.map((c) => c.value)).toContain('allow');
    // The given rows are used when the field has no choice of its own.
    const rows = filterRows(store, base);
    expect(facetCounts(store, base, 'tenant', 500, rows)).toEqual(facetCounts(store, base, 'tenant'));
  });

  it('most frequent first, at most `limit`, no value without a row', async () => {
    const { store } = await storeOf('good');
    const counts = facetCounts(store, f({ q: 'srv-pay' }), 'toolName', 2);
    expect(counts.length).toBeLessThanOrEqual(2);
    expect(counts.every((c) => c.count > 0)).toBe(true);
    expect(counts[0]!.count).toBeGreaterThanOrEqual(counts.at(-1)!.count);
    expect(facetCounts(store, f({ values: { decision: ['no-such'] } }), 'tenant')).toEqual([]);
  });
});
