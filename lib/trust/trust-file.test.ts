import { describe, expect, it } from 'vitest';
import { parseTrustEntries, toPinnedKeys } from './trust-file';
import { TrustStore } from './trust-store';
import { DEMO_KERNEL_KEY } from './known-keys';

describe('trust file', () => {
  it('reads a list or {keys}, normalizes keys, and takes Unix seconds or ISO 8601', () => {
    const entry = { key: `  ${DEMO_KERNEL_KEY.toUpperCase()} `, label: 'demo', not_before: '2026-01-01T00:00:00Z', not_after: '1767230000' };
    for (const data of [[entry], { keys: [entry] }]) {
      const parsed = parseTrustEntries(data);
      expect(parsed).toEqual({ ok: true, entries: [{ key: DEMO_KERNEL_KEY, label: 'demo', not_before: 1767225600, not_after: 1767230000 }] });
    }
  });

  it('becomes pinned keys whose window the trust store enforces', () => {
    const parsed = parseTrustEntries([{ key: DEMO_KERNEL_KEY, not_before: 100, not_after: 200 }]);
    if (!parsed.ok) throw new Error(parsed.error);
    const keys = toPinnedKeys(parsed.entries);
    expect(keys).toEqual([{ key: DEMO_KERNEL_KEY, notBefore: 100n, notAfter: 200n }]);
    const store = TrustStore.create(keys);
    if (!store.ok) throw new Error(store.error);
    expect(store.store.check(DEMO_KERNEL_KEY, 150n).status).toBe('pass');
    expect(store.store.check(DEMO_KERNEL_KEY, 201n).status).toBe('fail');
  });

  it('refuses a bad entry, naming it, rather than dropping it', () => {
    const error = (data: unknown) => {
      const parsed = parseTrustEntries(data);
      return parsed.ok ? null : parsed.error;
    };
    expect(error({ key: DEMO_KERNEL_KEY })).toMatch(/expected a JSON list/);
    expect(error([{ key: DEMO_KERNEL_KEY }, { label: 'x' }])).toBe('entry 2 has no "key"');
    expect(error([null])).toBe('entry 1 has no "key"');
    expect(error([{ key: 'abc' }])).toBe('entry 1: not a valid kernel key: "abc"');
    expect(error([{ key: DEMO_KERNEL_KEY, not_before: -5 }])).toMatch(/^entry 1: not_before must be/);
    expect(error([{ key: DEMO_KERNEL_KEY, not_after: 'soon' }])).toMatch(/^entry 1: not_after must be/);
    expect(error([{ key: DEMO_KERNEL_KEY, not_after: '' }])).toMatch(/^entry 1: not_after must be/);
    expect(error([{ key: DEMO_KERNEL_KEY, not_before: 10, not_after: 9 }])).toBe('entry 1: the window ends before it starts');
  });
});
