'use client';
// Pinned kernel keys, kept in this browser (localStorage) and exportable in the
// command line's --trust-file format. Pinning is always the user's act.
import { useCallback, useEffect, useState } from 'react';
import { type TrustEntry, parseTrustEntries } from '../../lib/trust/trust-file';

const STORAGE = 'receipt-audit.trust.v1';

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
