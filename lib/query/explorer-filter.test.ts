import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { storeOf } from '../../test/support/corpus-store';
import { COLUMN_KEYS } from './explorer-columns';
import { EMPTY_FILTER, type ExplorerFilter, SORTABLE, explorerUrl, filterFromParams, filterRows, filterToParams } from './explorer-filter';
import { RowStore, rowVerdictOf } from './row-store';
import { PROBLEM_CODES } from '../verdict/problems';

const ids = (store: RowStore, rows: Uint32Array) => [...rows].map((i) => store.str('id', i)!);
const f = (extra: Partial<ExplorerFilter>): ExplorerFilter => ({ ...EMPTY_FILTER, ...extra });

describe('RowStore + filterRows on the reference corpus', () => {
  it('holds every receipt once, in log order, with the report verdicts', async () => {
    const { store, report } = await storeOf('tampered-field');
    expect(store.length).toBe(280);
    const rows = filterRows(store, EMPTY_FILTER);
    expect(ids(store, rows)).toEqual(report.receipts.map((r) => r.id));
    // Nothing is pinned here: what a pinned key would verify is "intact, signer not pinned" (part 2 §11).
    expect([...rows].map((i) => store.verdictOf(i))).toEqual(report.receipts.map(rowVerdictOf));
    expect(report.receipts.some((r) => rowVerdictOf(r) === 'unpinned') && report.receipts.some((r) => rowVerdictOf(r) === 'failed')).toBe(true);
  });

  it('each value filter matches an independent count over the raw receipts', async () => {
    const { store, raw } = await storeOf('good');
    const tools = raw.filter((r) => 'tool_name' in r) as { decision?: { verdict: string; guard?: string }; tool_server: string }[];
    const denies = tools.filter((r) => r.decision?.verdict === 'deny').length;
    expect(filterRows(store, f({ values: { decision: ['deny'] } })).length).toBe(denies);
    expect(filterRows(store, f({ values: { toolServer: ['srv-pay'] } })).length).toBe(tools.filter((r) => r.tool_server === 'srv-pay').length);
    expect(filterRows(store, f({ values: { type: ['child'] } })).length).toBe(30);
    expect(filterRows(store, f({ values: { generation: ['B'] } })).length).toBe(10);
    expect(filterRows(store, f({ values: { decision: ['deny'], toolServer: ['srv-pay'] } })).length).toBe(
      tools.filter((r) => r.decision?.verdict === 'deny' && r.tool_server === 'srv-pay').length,
    );
    expect(filterRows(store, f({ values: { decision: ['no-such-thing'] } })).length).toBe(0);
  });

  it('facet menus count each value over both batches, as independent counts over the raw receipts do', async () => {
    const { store, raw } = await storeOf('good');
    const tools = raw.filter((r) => 'tool_name' in r) as { tool_server: string }[];
    const tally = new Map<string, number>();
    for (const r of tools) tally.set(r.tool_server, (tally.get(r.tool_server) ?? 0) + 1);
    const expected = [...tally].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
    expect(store.facet('toolServer')).toEqual(expected);
    for (const column of ['decision', 'toolName', 'type'] as const) {
      const facet = store.facet(column);
      expect(facet.length, column).toBeGreaterThan(1);
      for (const { value, count } of facet) expect(count, `${column} = ${value}`).toBe(filterRows(store, f({ values: { [column]: [value] } })).length);
    }
  });

  it('verdict and problem filters find the tampered receipt', async () => {
    const { store } = await storeOf('tampered-field');
    expect(ids(store, filterRows(store, f({ values: { verdict: ['failed'] } })))).toEqual(['rcpt-000042-2b8d09ef']);
    expect(ids(store, filterRows(store, f({ values: { problem: ['signature_invalid'] } })))).toEqual(['rcpt-000042-2b8d09ef']);
    expect(ids(store, filterRows(store, f({ preset: 'security' })))).toContain('rcpt-000042-2b8d09ef');
  });

  it("problem codes past the 32nd (the contract's list outgrew one word) filter like the first ones", async () => {
    const { store, report } = await storeOf('good');
    const id = report.receipts[5]!.id;
    const late = PROBLEM_CODES.slice(32);
    expect(late.length).toBeGreaterThan(0);
    for (const code of late) {
      const copy = new RowStore();
      Object.assign(copy, store);
      copy.problemsHi = new Uint32Array(store.problemsHi.length);
      copy.applyReport({ ...report, problems: [{ code, severity: 'warning', message: 'x', receipt_id: id }] });
      expect(ids(copy, filterRows(copy, f({ values: { problem: [code] } }))), code).toEqual([id]);
      expect(ids(copy, filterRows(copy, f({ values: { problem: [PROBLEM_CODES[0]!] } })))).toEqual([]);
      expect(copy.problemCodes(copy.rowById(id)!)).toEqual([code]);
    }
  });

  it('cost range (exact minor units), time range, free text, and sorting', async () => {
    const { store, raw } = await storeOf('good');
    const costs = raw.flatMap((r) => {
      const c = (r as { metadata?: { financial?: { cost_charged: number } } }).metadata?.financial?.cost_charged;
      return c === undefined ? [] : [c];
    });
    expect(filterRows(store, f({ preset: 'finance' })).length).toBe(costs.length);
    expect(filterRows(store, f({ minCost: 1000n, maxCost: 2000n })).length).toBe(costs.filter((c) => c >= 1000 && c <= 2000).length);
    const t0 = (raw[10] as { timestamp: number }).timestamp;
    expect(filterRows(store, f({ until: t0 })).length).toBe(raw.filter((r) => (r as { timestamp: number }).timestamp <= t0).length);
    expect(ids(store, filterRows(store, f({ q: 'RCPT-000042' })))).toEqual(['rcpt-000042-2b8d09ef']);
    const byCost = filterRows(store, f({ preset: 'finance', sort: { column: 'cost', dir: 'desc' } }));
    const sortedCosts = [...byCost].map((i) => store.cost[i]!);
    expect(sortedCosts).toEqual([...sortedCosts].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
  });
});

describe('the filter lives in the URL', () => {
  const arbFilter = fc.record({
    values: fc.record({
      decision: fc.array(fc.constantFrom('allow', 'deny'), { maxLength: 2 }),
      toolServer: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 2 }),
    }),
    q: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
    since: fc.option(fc.nat(), { nil: undefined }),
    until: fc.option(fc.nat(), { nil: undefined }),
    minCost: fc.option(fc.bigInt({ min: 0n, max: 1n << 63n }), { nil: undefined }),
    preset: fc.option(fc.constantFrom('security', 'finance', 'compliance' as const), { nil: undefined }),
    sort: fc.record({ column: fc.constantFrom('order', 'time', 'cost', 'toolName', 'id', 'kernelKey' as const), dir: fc.constantFrom('asc', 'desc' as const) }),
    columns: fc.option(fc.subarray([...COLUMN_KEYS], { minLength: 1 }), { nil: undefined }),
  });
  it('round-trips through URLSearchParams', () => {
    fc.assert(
      fc.property(arbFilter, (raw) => {
        // structuredClone keeps bigints as they are (a JSON detour turned a generated "0n" string into one).
        const filter = structuredClone(raw) as ExplorerFilter;
        for (const k of Object.keys(filter.values) as (keyof typeof filter.values)[]) {
          filter.values[k] = [...new Set(filter.values[k])];
          if (!filter.values[k]!.length) delete filter.values[k];
        }
        for (const k of ['q', 'since', 'until', 'minCost', 'preset', 'columns'] as const) if (filter[k] === undefined) delete filter[k];
        if (filter.sort.column === 'order' && filter.sort.dir === 'asc') filter.sort = { column: 'order', dir: 'asc' };
        const back = filterFromParams(new URLSearchParams(filterToParams(filter).toString()));
        expect(back).toEqual(filter);
      }),
      { numRuns: 300 },
    );
  });

  it('a hostile or broken link never breaks the page: bad values are dropped', () => {
    const back = filterFromParams(new URLSearchParams('since=abc&minCost=-5&sort=evil&preset=admin&decision=&verdict=failed&cols=evil,,'));
    expect(back).toEqual({ values: { verdict: ['failed'] }, sort: { column: 'order', dir: 'asc' } });
    // Names every object has are no preset.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(filterFromParams(new URLSearchParams(`preset=${name}`)).preset, name).toBeUndefined();
  });

  it('the time window of a finance bar (since/until, inclusive Unix seconds) survives the link', () => {
    const p = new URLSearchParams(explorerUrl({ values: { verdict: ['verified'] }, since: 1767225600, until: 1767311999 }).split('?')[1]);
    expect(p.get('since')).toBe('1767225600');
    expect(filterFromParams(p)).toMatchObject({ since: 1767225600, until: 1767311999 });
  });

  it("the chosen columns: known names only, once each, in the table's order", () => {
    expect(filterFromParams(new URLSearchParams('cols=verdict,id,nope,id,time')).columns).toEqual(['time', 'id', 'verdict']);
    expect(filterToParams({ ...EMPTY_FILTER, columns: ['verdict', 'id'] }).get('cols')).toBe('id,verdict');
  });
});

describe('sorting', () => {
  /** The comparator the explorer used before sorting packed keys natively: the reference. */
  function referenceSort(store: RowStore, rows: Uint32Array, column: (typeof SORTABLE)[number], dir: 'asc' | 'desc'): number[] {
    const sign = dir === 'asc' ? 1 : -1;
    const text = (i: number) => (column === 'order' || column === 'time' || column === 'cost' || column === 'verdict' ? undefined : store.str(column, i));
    const key = (i: number): number | bigint | string =>
      column === 'order'
        ? store.order[i]!
        : column === 'time'
          ? store.time[i]!
          : column === 'cost'
            ? store.hasCost[i]
              ? store.cost[i]!
              : -1n
            : column === 'verdict'
              ? store.verdict[i]!
              : (text(i) ?? '');
    const absentFirst = (i: number) => (text(i) === undefined && !['order', 'time', 'cost', 'verdict'].includes(column) ? 0 : 1);
    return [...rows].sort((a, b) => {
      const pa = absentFirst(a);
      const pb = absentFirst(b);
      if (pa !== pb) return (pa - pb) * sign;
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -sign : ka > kb ? sign : store.order[a]! - store.order[b]!;
    });
  }

  it.each(['good', 'duplicate-key'])('%s: every sortable column, both directions, all rows and filtered rows, equals the comparator sort', async (name) => {
    const { store } = await storeOf(name);
    for (const column of SORTABLE) {
      for (const dir of ['asc', 'desc'] as const) {
        for (const values of [{}, { decision: ['deny', 'allow'] }, { toolServer: ['srv-pay'] }]) {
          const base = filterRows(store, f({ values }));
          const got = [...filterRows(store, f({ values, sort: { column, dir } }))];
          expect(got, `${column} ${dir} ${JSON.stringify(values)}`).toEqual(referenceSort(store, base, column, dir));
        }
      }
    }
  });
});
