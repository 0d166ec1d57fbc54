import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../verdict/receipt-view';
import { RowStore } from './row-store';
import { RUNTIMES, isOtherRuntime, otherRuntimeTypeFlags, runtimeOf } from './runtimes';

const view = (id: string, type: ReceiptView['type'], extra: Partial<ReceiptView> = {}): ReceiptView => ({
  order: 0,
  id,
  type,
  time: null,
  policyHash: '',
  kernelKey: null,
  file: 'f',
  line: 1,
  ...extra,
});

describe('runtimes', () => {
  it('every report receipt type belongs to exactly one runtime', () => {
    const types = RUNTIMES.flatMap((r) => r.types);
    expect(new Set(types).size).toBe(types.length);
    expect(types.sort()).toEqual(['child', 'codewhale-review', 'codewhale-turn', 'http', 'tool', 'zeroclaw']);
    expect(runtimeOf('codewhale-turn')?.label).toBe('CodeWhale');
    expect(runtimeOf('child')?.id).toBe('chio');
    expect(runtimeOf('nonsense')).toBeUndefined();
    expect(runtimeOf(undefined)).toBeUndefined();
  });

  it('flags other runtimes by type code, so readers can leave their rows out without a string compare per row', () => {
    const store = new RowStore();
    store.append([view('a', 'tool', { kernelKey: 'k' }), view('zc-receipt-1-x', 'zeroclaw'), view('r', 'codewhale-review'), view('c', 'child')]);
    const flags = otherRuntimeTypeFlags(store);
    const other = [0, 1, 2, 3].filter((row) => flags[store.codes.type[row]!] === 1).map((row) => store.str('id', row));
    expect(other).toEqual(['zc-receipt-1-x', 'r']);
    expect(isOtherRuntime('http')).toBe(false);
    expect(isOtherRuntime('zeroclaw')).toBe(true);
  });

  it('a row without a signing key (null) has no signer value: the filter menu never meets a null', () => {
    const store = new RowStore();
    store.append([view('a', 'tool', { kernelKey: 'k' }), view('b', 'zeroclaw')]);
    expect(store.str('kernelKey', 1)).toBeUndefined();
    expect(store.dict.kernelKey.values).toEqual(['', 'k']);
    expect(store.facet('kernelKey').map((f) => f.value)).toEqual(['k']);
  });
});
