import { describe, expect, it } from 'vitest';
import { MAX_TRUST_FILE_BYTES, mergeTrustEntries, parseTrustEntries, readTrustFileText, toPinnedKeys, trustFileText } from './trust-file';
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
    expect(store.store.check(DEMO_KERNEL_KEY, 150n)).toEqual({ status: 'pass' });
    expect(store.store.check(DEMO_KERNEL_KEY, 201n)).toMatchObject({ status: 'fail', code: 'signer_outside_window' });
    expect(store.store.check('00'.repeat(32), 150n)).toMatchObject({ status: 'fail', code: 'signer_not_pinned' });
    expect(TrustStore.empty().check(DEMO_KERNEL_KEY, 150n)).toMatchObject({ status: 'skipped', code: 'no_key_pinned' });
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

describe('trust file export and import', () => {
  const key = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
  // Labels as people write them: accents, emoji, right-to-left, combining marks, quotes.
  const entries = [
    { key: DEMO_KERNEL_KEY, label: 'démo — kernel ✓ 🔑', not_before: 1767225600, not_after: 1798761599 },
    { key: key(1), label: 'שלום עולם', not_before: 0 },
    { key: key(2), label: 'e\u0301"quoted" \\ back', not_after: 4102444800 },
    { key: key(3) },
  ];

  it('export → import → export is byte-identical, and what the command line reads', () => {
    const file = trustFileText(entries);
    const back = readTrustFileText(file);
    expect(back).toEqual({ ok: true, entries });
    if (back.ok) expect(trustFileText(back.entries)).toBe(file);
    expect(JSON.parse(file)).toEqual(entries);
  });

  it('an import adds only what is new', () => {
    expect(mergeTrustEntries(entries.slice(0, 2), entries)).toEqual({ entries, added: 2 });
    expect(mergeTrustEntries(entries, entries)).toEqual({ entries, added: 0 });
  });

  it('a file that is not JSON, too large, or has one bad entry is refused whole', () => {
    expect(readTrustFileText('{"keys": [')).toEqual({ ok: false, error: 'not JSON' });
    expect(readTrustFileText(' '.repeat(MAX_TRUST_FILE_BYTES + 1))).toEqual({ ok: false, error: 'larger than 4 MiB; not a trust file' });
    expect(readTrustFileText(JSON.stringify([...entries, { key: '<script>alert(1)</script>' }]))).toEqual({
      ok: false,
      error: 'entry 5: not a valid kernel key: "<script>alert(1)</script>"',
    });
  });
});
