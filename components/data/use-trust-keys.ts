'use client';
// Pinned kernel keys, kept in this browser (localStorage) and exportable in the
// command line's --trust-file format. Pinning is always the user's act.
import { useCallback, useEffect, useState } from 'react';
import { type TrustEntry, parseTrustEntries } from '../../lib/trust/trust-file';

const STORAGE = 'receipt-audit.trust.v1';

export function useTrustKeys() {
  // `version`: a new number each time the entries are set (read or saved), for query keys.
  const [{ entries, version }, setState] = useState<{ entries: TrustEntry[]; version: number }>({ entries: [], version: 0 });
  const setEntries = useCallback((next: TrustEntry[]) => setState((s) => ({ entries: next, version: s.version + 1 })), []);
  const [loaded, setLoaded] = useState(false);
  // Stored keys that cannot be read are never dropped in silence: with no keys pinned, receipts
  // would pass without their signer checked, while the user believes keys are pinned.
  const [issue, setIssue] = useState<string | null>(null);
  useEffect(() => {
    let text: string | null = null;
    try {
      text = localStorage.getItem(STORAGE);
      const parsed = parseTrustEntries(JSON.parse(text ?? '[]'));
      if (parsed.ok) setEntries(parsed.entries);
      else setIssue(`the keys pinned in this browser could not be read (${parsed.error}), so none is pinned now`);
    } catch (e) {
      setIssue(
        text === null
          ? 'this browser does not allow reading localStorage, so no key is pinned'
          : `the keys pinned in this browser could not be read (${(e as Error).message}), so none is pinned now`,
      );
    }
    setLoaded(true);
  }, [setEntries]);
  const save = useCallback(
    (next: TrustEntry[]) => {
      setEntries(next);
      setIssue(null);
      localStorage.setItem(STORAGE, JSON.stringify(next));
    },
    [setEntries],
  );
  return { entries, loaded, issue, save, version };
}
