'use client';
// The pinned kernel keys (use-trust-keys.ts), for every page: the trust manager, the readers that
// name pinned signers, and the log session, which verifies under them. Its own context, so a page
// that reads only the keys does not render again while a log verifies.
import { type ReactNode, createContext, useContext, useMemo } from 'react';
import type { TrustEntry } from '../../lib/trust/trust-file';
import { useTrustKeys } from './use-trust-keys';

export interface TrustValue {
  trust: TrustEntry[];
  /** Why the stored pinned keys could not be read, if they could not. */
  trustIssue: string | null;
  /** Whether the pinned keys have been read from this browser yet. */
  trustLoaded: boolean;
  saveTrust: (entries: TrustEntry[]) => void;
  /** The trust store's version: a new number whenever the pinned keys change (a part of query keys). */
  trustVersion: number;
}

const TrustContext = createContext<TrustValue | null>(null);

export function TrustProvider({ children }: { children: ReactNode }) {
  const { entries, issue, loaded, save, version: trustVersion } = useTrustKeys();
  const value = useMemo(
    () => ({ trust: entries, trustIssue: issue, trustLoaded: loaded, saveTrust: save, trustVersion }),
    [entries, issue, loaded, save, trustVersion],
  );
  return <TrustContext.Provider value={value}>{children}</TrustContext.Provider>;
}

export function useTrust(): TrustValue {
  const v = useContext(TrustContext);
  if (!v) throw new Error('useTrust outside TrustProvider');
  return v;
}
