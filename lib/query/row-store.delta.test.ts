// The page's rows arrive from the log worker as RowDeltas (typed arrays given
// away in postMessage). A store fed deltas through structured cloning holds
// exactly what a store fed the same receipts directly holds.
import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../verdict/receipt-view';
import { STRING_COLUMNS } from './row-columns';
import { RowEncoder, deltaTransfer } from './row-encoder';
import { RowStore } from './row-store';

const view = (k: number): ReceiptView => ({
  order: k * 1_000_000,
  id: `rcpt-${k}`,
  type: k % 5 === 0 ? 'child' : 'tool',
  time: k % 11 === 0 ? null : 1_767_225_600 + k,
  policyHash: `p${k % 3}`,
  kernelKey: 'k',
  file: 'receipts.ndjson',
  line: k + 1,
  toolName: ['a', 'b', 'é'][k % 3]!,
  ...(k % 4 === 0 ? { cost: String(k * 1000), currency: 'USD' } : {}),
  ...(k % 9 === 0 ? { cost: '18446744073709551616' } : {}),
  ...(k % 7 === 0 ? { failedEarly: true as const } : {}),
});

function snapshot(s: RowStore) {
  return {
    length: s.length,
    rows: Array.from({ length: s.length }, (_, r) => [
      s.order[r],
      s.time[r],
      s.hasCost[r] ? s.cost[r] : null,
      s.verdictOf(r),
      s.line[r],
      ...STRING_COLUMNS.map((c) => s.str(c, r)),
    ]),
    facets: STRING_COLUMNS.map((c) => s.facet(c)),
  };
}

describe('RowDelta', () => {
  it('a store fed cloned, transferred deltas equals one fed the receipts directly', () => {
    const views = Array.from({ length: 500 }, (_, k) => view(k));
    const direct = new RowStore();
    direct.append(views);
    const encoder = new RowEncoder();
    const page = new RowStore();
    for (let at = 0; at < views.length; at += 37) {
      encoder.add(views.slice(at, at + 37));
      const d = encoder.take()!;
      page.applyDelta(structuredClone(d, { transfer: deltaTransfer(d) }));
      expect(d.order.byteLength, 'the sender keeps nothing it gave away').toBe(0);
    }
    expect(encoder.take()).toBeNull();
    expect(snapshot(page)).toEqual(snapshot(direct));
    expect(page.rowById('rcpt-123')).toBe(123);
    // A cost beyond u64 is no cost rather than a wrapped one.
    expect(page.hasCost[9]).toBe(0);
  });

  it("a column's codes widen from one byte to two and four as its dictionary grows, every row keeping its value", () => {
    // 70,000 distinct ids (past 2^8 and 2^16 codes) across deltas; toolName keeps three values.
    const encoder = new RowEncoder();
    const page = new RowStore();
    const width = () => [page.codes.id.BYTES_PER_ELEMENT, page.codes.toolName.BYTES_PER_ELEMENT];
    const seen: number[][] = [];
    for (let at = 0; at < 70_000; at += 5_000) {
      encoder.add(Array.from({ length: 5_000 }, (_, i) => view(at + i)));
      page.applyDelta(encoder.take()!);
      seen.push(width());
    }
    expect(seen[0]).toEqual([2, 1]);
    expect(seen.at(-1)).toEqual([4, 1]);
    for (const row of [0, 255, 256, 65_535, 65_536, 69_999]) {
      expect(page.str('id', row)).toBe(`rcpt-${row}`);
      expect(page.str('toolName', row)).toBe(['a', 'b', 'é'][row % 3]);
    }
    expect(page.rowById('rcpt-65536')).toBe(65_536);
  });

  it('a lost or reordered delta is an error, not silently misplaced rows', () => {
    const encoder = new RowEncoder();
    encoder.add([view(0)]);
    const first = encoder.take()!;
    encoder.add([view(1)]);
    const second = encoder.take()!;
    expect(() => new RowStore().applyDelta(second)).toThrow(/rows 1… arrived after 0 rows/);
    const s = new RowStore();
    s.applyDelta(first);
    s.applyDelta(second);
    expect(s.length).toBe(2);
  });

  it('ids are found in a dictionary too large for a lookup map, one by one or many at once', () => {
    const s = new RowStore();
    const views = Array.from({ length: 100_500 }, (_, k) => ({ ...view(k), id: `id-${k}` }));
    s.append(views);
    expect(s.rowById('id-100400')).toBe(100_400);
    expect(s.rowById('id-7', true)).toBe(7);
    expect(s.rowById('id-100499')).toBe(100_499);
    expect(s.rowById('nope')).toBeUndefined();
  });
});
