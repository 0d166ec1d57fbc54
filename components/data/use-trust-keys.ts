'use client';
// Pinned kernel keys, kept in this browser (localStorage) and exportable in the
// command line's --trust-file format. Pinning is always the user's act.
import { useCallback, useEffect, useState } from 'react';
import { normalizeKernelKey } from '../../lib/chio/keys';
import type { PinnedKeyMessage } from '../../lib/workers/protocol';

const STORAGE = 'receipt-audit.trust.v1';

/** One pinned key as stored and exported: the CLI's --trust-file entry. */
export interface TrustEntry {
  key: string;
  label?: string;
  /** Unix seconds, inclusive. */
  not_before?: number;
  not_after?: number;
}

export function toMessages(entries: TrustEntry[]): PinnedKeyMessage[] {
  return entries.map((e) => ({
    key: e.key,
    ...(e.label ? { label: e.label } : {}),
    ...(e.not_before !== undefined ? { notBefore: BigInt(e.not_before) } : {}),
    ...(e.not_after !== undefined ? { notAfter: BigInt(e.not_after) } : {}),
  }));
}

/** Validates entries from storage or an imported file; a bad entry is an error, never dropped silently. */
export function parseTrustEntries(data: unknown): { ok: true; entries: TrustEntry[] } | { ok: false; error: string } {
  const list = Array.isArray(data) ? data : (data as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return { ok: false, error: 'expected a JSON list of {key, label?, not_before?, not_after?}' };
  const entries: TrustEntry[] = [];
  for (const [i, raw] of list.entries()) {
    const e = raw as Record<string, unknown>;
    const key = typeof e?.key === 'string' ? normalizeKernelKey(e.key.trim()) : null;
    if (!key) return { ok: false, error: `entry ${i + 1}: not a valid kernel key` };
    const time = (v: unknown, name: string): number | undefined | string => {
      if (v === undefined || v === null || v === '') return undefined;
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
      if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
      if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return Math.floor(Date.parse(v) / 1000);
      return `entry ${i + 1}: ${name} must be Unix seconds or an ISO 8601 date`;
    };
    const nb = time(e.not_before, 'not_before');
    const na = time(e.not_after, 'not_after');
    if (typeof nb === 'string') return { ok: false, error: nb };
    if (typeof na === 'string') return { ok: false, error: na };
    if (nb !== undefined && na !== undefined && na < nb) return { ok: false, error: `entry ${i + 1}: the window ends before it starts` };
    entries.push({ key, ...(typeof e.label === 'string' && e.label ? { label: e.label } : {}), ...(nb !== undefined ? { not_before: nb } : {}), ...(na !== undefined ? { not_after: na } : {}) });
  }
  return { ok: true, entries };
}

export function useTrustKeys() {
  const [entries, setEntries] = useState<TrustEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    try {
      const parsed = parseTrustEntries(JSON.parse(localStorage.getItem(STORAGE) ?? '[]'));
      if (parsed.ok) setEntries(parsed.entries);
    } catch {
      // unreadable storage: start with no keys
    }
    setLoaded(true);
  }, []);
  const save = useCallback((next: TrustEntry[]) => {
    setEntries(next);
    localStorage.setItem(STORAGE, JSON.stringify(next));
  }, []);
  return { entries, loaded, save };
}
