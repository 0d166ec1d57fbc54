import { describe, expect, it } from 'vitest';
import { bucketFilter } from '../readers/finance-spend';
import { clearFilters, filterChips } from './explorer-chips';
import { EMPTY_FILTER, type ExplorerFilter, filterFromParams, filterToParams } from './explorer-filter';

const full: ExplorerFilter = {
  values: { verdict: ['verified', 'unpinned'], decision: ['deny'], toolServer: ['=cmd|calc'] },
  q: 'rcpt-00',
  since: 1767225600,
  until: 1767311999,
  minCost: 100n,
  preset: 'finance',
  sort: { column: 'cost', dir: 'desc' },
  columns: ['time', 'cost'],
};

describe('filterChips', () => {
  it('every active filter is a chip, a time window and the search included', () => {
    const chips = filterChips(full);
    expect(chips.map((c) => c.key)).toEqual(['preset', 'q', 'time', 'cost', 'verdict=verified', 'verdict=unpinned', 'decision=deny', 'toolServer==cmd|calc']);
    expect(chips.find((c) => c.key === 'time')!.value).toBe('2026-01-01 00:00:00 to 2026-01-01 23:59:59');
    expect(chips.find((c) => c.key === 'verdict=unpinned')!.value).toBe('intact, signer not pinned');
  });

  it('removing a chip removes exactly it', () => {
    const all = filterChips(full);
    for (const chip of all) {
      const left = filterChips(chip.without).map((c) => c.key);
      expect(left, chip.key).toEqual(all.map((c) => c.key).filter((k) => k !== chip.key));
      expect(chip.without.sort).toEqual(full.sort);
      expect(chip.without.columns).toEqual(full.columns);
    }
  });

  it("a finance bar's link opens with a time chip that clears the window", () => {
    const spend = { start: 1767225600, bucketSeconds: 86400, count: 3, bucketLabel: 'day' } as Parameters<typeof bucketFilter>[0];
    const f = filterFromParams(filterToParams(bucketFilter(spend, 1, 'USD', 'settled')));
    const time = filterChips(f).find((c) => c.key === 'time')!;
    expect(time.value).toBe('2026-01-02 00:00:00 to 2026-01-02 23:59:59');
    expect(time.without.since).toBeUndefined();
    expect(time.without.until).toBeUndefined();
    expect(time.without.values).toEqual(f.values);
  });

  it('no filter, no chip; clearing keeps the sort and the columns', () => {
    expect(filterChips(EMPTY_FILTER)).toEqual([]);
    expect(filterChips(clearFilters(full))).toEqual([]);
    expect(clearFilters(full)).toEqual({ ...EMPTY_FILTER, sort: full.sort, columns: full.columns });
  });
});
