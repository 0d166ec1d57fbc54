import { describe, expect, it } from 'vitest';
import { parseCsv } from '../text/csv';
import { storeOf } from '../../test/support/corpus-store';
import type { ReceiptView } from '../verdict/receipt-view';
import { EMPTY_FILTER, filterRows } from './explorer-filter';
import { CHUNK_ROWS, EXPORT_FIELDS, exportCsv, exportNdjson } from './explorer-export';
import { RowStore } from './row-store';

const view = (i: number, extra: Partial<ReceiptView>): ReceiptView => ({
  order: i,
  id: `r${i}`,
  type: 'tool',
  time: 1767225600 + i,
  file: 'receipts.ndjson',
  line: i + 1,
  ...extra,
});

describe("exporting the explorer's rows", () => {
  it('amounts stay exact minor units past 2^53, and cells a spreadsheet would run are neutralised', () => {
    const store = new RowStore();
    store.append([
      view(0, {
        toolName: '=HYPERLINK("http://x","y")',
        cost: '18446744073709551615',
        currency: 'USD',
        tenant: '+1',
        decision: 'deny',
        guard: '-2',
        reason: '@SUM(A1)',
      }),
      view(1, { toolName: 'file_read', cost: '9007199254740993', currency: 'JPY', tenant: 'a,"b"\r\nc' }),
      view(2, { toolName: '\tcmd', attemptedCost: '500' }),
    ]);
    const rows = filterRows(store, EMPTY_FILTER);
    const csv = parseCsv(exportCsv(store, rows).join(''));
    const h = csv[0]!;
    expect(h).toEqual([...EXPORT_FIELDS]);
    const col = (r: number, k: string) => csv[r + 1]![h.indexOf(k)];
    expect(col(0, 'cost_minor')).toBe('18446744073709551615');
    expect(col(1, 'cost_minor')).toBe('9007199254740993');
    expect(col(2, 'attempted_cost_minor')).toBe('500');
    expect(col(2, 'cost_minor')).toBe('');
    expect(col(0, 'tool_name')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(col(0, 'tenant')).toBe("'+1");
    expect(col(0, 'guard')).toBe("'-2");
    expect(col(0, 'reason')).toBe("'@SUM(A1)");
    expect(col(2, 'tool_name')).toBe("'\tcmd");
    expect(col(1, 'tenant')).toBe('a,"b"\r\nc');
    expect(col(0, 'time_utc')).toBe('2026-01-01T00:00:00Z');

    const nd = exportNdjson(store, rows)
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(nd.map((r) => r.cost_minor)).toEqual(['18446744073709551615', '9007199254740993', null]);
    // NDJSON is data, not a spreadsheet: values as the receipt has them.
    expect(nd[0]!.tool_name).toBe('=HYPERLINK("http://x","y")');
    expect(Object.keys(nd[0]!)).toEqual([...EXPORT_FIELDS]);
  });

  it('the filtered rows in their sorted order, CSV and NDJSON alike', async () => {
    const { store } = await storeOf('tampered-field');
    const rows = filterRows(store, { ...EMPTY_FILTER, values: { decision: ['allow'] }, sort: { column: 'cost', dir: 'desc' } });
    expect(rows.length).toBeGreaterThan(10);
    const csv = parseCsv(exportCsv(store, rows).join(''));
    const nd = exportNdjson(store, rows)
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string | number | null>);
    expect(csv.length - 1).toBe(rows.length);
    expect(nd.length).toBe(rows.length);
    expect(nd.map((r) => r.id)).toEqual([...rows].map((r) => store.str('id', r)));
    expect(csv.slice(1).map((r) => r[0])).toEqual(nd.map((r) => r.id));
    expect(nd.every((r) => r.decision === 'allow')).toBe(true);
    const failed = nd.find((r) => r.verdict === 'failed');
    if (failed) expect(failed.problems).toMatch(/\w/);
  });

  it('comes in pieces, so a million rows never need one string', () => {
    const store = new RowStore();
    store.append(Array.from({ length: CHUNK_ROWS + 5 }, (_, i) => view(i, {})));
    const rows = filterRows(store, EMPTY_FILTER);
    expect(exportCsv(store, rows).length).toBe(3);
    expect(exportNdjson(store, rows).length).toBe(2);
    expect(exportNdjson(store, new Uint32Array())).toEqual([]);
  });
});
