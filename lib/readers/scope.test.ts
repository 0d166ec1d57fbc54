import { describe, expect, it } from 'vitest';
import { RowStore } from '../query/row-store';
import type { ReceiptView } from '../verify/receipt-view';
import { verifiedScope } from './scope';

const view = (order: number, id: string): ReceiptView => ({ order, id, type: 'tool', time: 1_700_000_000 + order, policyHash: 'p', kernelKey: 'k', file: 'r.ndjson', line: order + 1 });

describe('verifiedScope', () => {
  it('keeps verified rows in log order and counts the rest by verdict', () => {
    const store = new RowStore();
    // Rows arrive out of log order, as worker batches do.
    store.append([view(3, 'd'), view(1, 'b')]);
    store.append([view(0, 'a'), view(2, 'c'), view(4, 'e')]);
    const verdicts = { a: 'verified', b: 'failed', c: 'verified', d: 'unverified', e: 'verified' } as const;
    const ids = ['a', 'b', 'c', 'd', 'e'] as const;
    store.applyReport({ receipts: ids.map((id) => ({ id, verdict: verdicts[id] })), problems: [] } as never);
    const s = verifiedScope(store);
    expect([...s.rows].map((r) => store.str('id', r))).toEqual(['a', 'c', 'e']);
    expect(s.left).toEqual({ failed: 1, unverified: 1, pending: 0 });
    expect(s.total).toBe(5);
    const onlyE = verifiedScope(store, (r) => store.str('id', r) !== 'a');
    expect([...onlyE.rows].map((r) => store.str('id', r))).toEqual(['c', 'e']);
  });

  it('counts rows still pending while the log verifies', () => {
    const store = new RowStore();
    store.append([view(0, 'a'), view(1, 'b')]);
    expect(verifiedScope(store)).toMatchObject({ rows: new Uint32Array(0), left: { failed: 0, unverified: 0, pending: 2 } });
  });
});
