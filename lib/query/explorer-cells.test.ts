import { describe, expect, it } from 'vitest';
import { storeOf } from '../../test/support/corpus-store';
import type { ReceiptView } from '../verdict/receipt-view';
import { COLUMN_KEYS } from './explorer-columns';
import { CELL_MAX_CHARS, ID_SHOWN_CHARS, cellText, hasCopies, shortId, widthSamples } from './explorer-cells';
import { EMPTY_FILTER, filterRows } from './explorer-filter';
import { RowStore } from './row-store';

describe('width samples bound every cell of their column', () => {
  it.each(['good', 'tampered-field', 'duplicate-key'])("%s: no cell is longer than its column's longest sample, over all rows or a preset's", async (name) => {
    const { store } = await storeOf(name);
    for (const preset of [undefined, 'finance', 'security'] as const) {
      const rows = preset ? filterRows(store, { ...EMPTY_FILTER, preset }) : undefined;
      for (const many of [false, true]) {
        for (const key of COLUMN_KEYS) {
          const widest = Math.max(0, ...widthSamples(store, key, many, rows).map((s) => s.length));
          let longest = '';
          for (const row of rows ?? store.positions().rowAtPos) {
            const t = cellText(store, row, key, many).slice(0, CELL_MAX_CHARS + 1);
            if (t.length > longest.length) longest = t;
          }
          expect(longest.length, `${preset} ${key}: "${longest}"`).toBeLessThanOrEqual(widest);
        }
      }
    }
  });

  it("a preset's rows size the columns to what they hold, not to the whole log", () => {
    const store = new RowStore();
    const v = (i: number, extra: Partial<ReceiptView>): ReceiptView => ({ order: i, id: `r${i}`, type: 'tool', time: 0, file: 'f', line: i, ...extra });
    store.append([v(0, { toolName: 'list_resource_templates' }), v(1, { toolName: 'refund', cost: '5', currency: 'USD' })]);
    const finance = filterRows(store, { ...EMPTY_FILTER, preset: 'finance' });
    expect(widthSamples(store, 'toolName', false, finance)).toEqual(['refund', '—']);
    expect(widthSamples(store, 'toolName', false)).toContain('list_resource_templates');
  });

  it("the cost column's sample is the largest amount of each currency, exactly", () => {
    const store = new RowStore();
    const v = (i: number, cost: string, currency: string): ReceiptView => ({
      order: i,
      id: `r${i}`,
      type: 'tool',
      time: 0,
      file: 'f',
      line: i,
      cost,
      currency,
    });
    store.append([v(0, '395608', 'USD'), v(1, '99', 'USD'), v(2, '123456789', 'JPY'), v(3, '18446744073709551615', 'EUR')]);
    expect(widthSamples(store, 'cost', false).sort()).toEqual(['123,456,789 JPY', '184,467,440,737,095,516.15 EUR', '3,956.08 USD']);
    expect(cellText(store, 0, 'cost', false)).toBe('3,956.08 USD');
  });
});

describe('the id cell', () => {
  it('a long plain id shows its start and its end; other ids whole', () => {
    expect(shortId('rcpt-019b76da-b79a-753e-8058-606e0db50440')).toBe('rcpt-019b76da…6e0db50440');
    expect(shortId('rcpt-019b76da-b79a-753e-8058-606e0db50440')).toHaveLength(ID_SHOWN_CHARS);
    expect(shortId('rcpt-000042-2b8d09ef')).toBe('rcpt-000042-2b8d09ef');
    // Hidden characters must stay in view: an id holding any is never shortened (its cell clips it).
    const hostile = `rcpt-17\u200b${'a'.repeat(40)}\u202e`;
    expect(shortId(hostile)).toBe(hostile);
  });

  it('copies: an id that names several rows', async () => {
    expect(hasCopies((await storeOf('good')).store, false)).toBe(false);
    expect(hasCopies((await storeOf('good')).store, true)).toBe(true);
    const store = new RowStore();
    const v = (i: number): ReceiptView => ({ order: i, id: 'same', type: 'tool', time: 0, file: 'f', line: i });
    store.append([v(0), v(1)]);
    expect(hasCopies(store, false)).toBe(true);
  });
});
