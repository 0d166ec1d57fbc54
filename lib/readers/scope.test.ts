import { describe, expect, it } from 'vitest';
import { RowStore } from '../query/row-store';
import type { ReceiptView } from '../verdict/receipt-view';
import { dagGraph } from './dag';
import { dagSearch } from './dag-search';
import { dagSessions } from './dag-sessions';
import { verifiedScope } from './scope';

const view = (order: number, id: string): ReceiptView => ({
  order,
  id,
  type: 'tool',
  time: 1_700_000_000 + order,
  policyHash: 'p',
  kernelKey: 'k',
  file: 'r.ndjson',
  line: order + 1,
});

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
    expect(s.left).toEqual({ failed: 1, unverified: 1, unpinned: 0, pending: 0 });
    expect(s.total).toBe(5);
    const onlyE = verifiedScope(store, (r) => store.str('id', r) !== 'a');
    expect([...onlyE.rows].map((r) => store.str('id', r))).toEqual(['c', 'e']);
  });

  it('counts rows still pending while the log verifies', () => {
    const store = new RowStore();
    store.append([view(0, 'a'), view(1, 'b')]);
    expect(verifiedScope(store)).toMatchObject({ rows: new Uint32Array(0), left: { failed: 0, unverified: 0, unpinned: 0, pending: 2 } });
  });

  it('leaves other runtimes out of the Chio readers, whatever their verdict, and counts them apart', () => {
    const store = new RowStore();
    // A CodeWhale turn names its thread as a session; a ZeroClaw receipt verified with its key.
    store.append([
      { ...view(0, 'a'), sessionId: 's1' },
      {
        order: 1,
        id: 'turn_1',
        type: 'codewhale-turn',
        time: 1_700_000_001,
        policyHash: '',
        kernelKey: null,
        file: 't.json',
        line: 1,
        sessionId: 'thr_1',
        toolName: 'turn completed',
      },
      { order: 2, id: 'zc-receipt-1-x', type: 'zeroclaw', time: 1_700_000_002, policyHash: '', kernelKey: null, file: 'z.json', line: 2, toolName: 'shell' },
    ]);
    store.applyReport({
      receipts: [
        { id: 'a', verdict: 'verified' },
        { id: 'turn_1', verdict: 'unverified' },
        { id: 'zc-receipt-1-x', verdict: 'verified' },
      ],
      problems: [],
    } as never);
    const s = verifiedScope(store);
    expect([...s.rows].map((r) => store.str('id', r))).toEqual(['a']);
    expect(s.left).toEqual({ failed: 0, unverified: 0, unpinned: 0, pending: 0 });
    expect(s.otherRuntimes).toBe(2);
    expect(dagSessions(store).sessions.map((x) => x.sessionId)).toEqual(['s1']);
    expect(
      dagGraph(store, { all: true })
        .nodes.map((n) => n.receiptId)
        .filter(Boolean),
    ).toEqual(['a']);
    expect(dagSearch(store, 'turn').total).toBe(0);
  });
});
