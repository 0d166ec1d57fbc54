'use client';
// The origins the user agreed to load a view's log from (`?source=` on another origin, issue 20):
// in this tab until it reloads, never stored. The log provider opens a view's log only once every
// origin it fetches from is here; use-view-source.ts asks the user.
import { type ReactNode, createContext, useCallback, useContext, useMemo, useState } from 'react';

export interface ViewOriginsValue {
  approvedOrigins: ReadonlySet<string>;
  approveOrigin: (origin: string) => void;
}

const ViewOriginsContext = createContext<ViewOriginsValue | null>(null);

export function ViewOriginsProvider({ children }: { children: ReactNode }) {
  const [approvedOrigins, setApproved] = useState<ReadonlySet<string>>(() => new Set());
  const approveOrigin = useCallback((origin: string) => setApproved((a) => (a.has(origin) ? a : new Set([...a, origin]))), []);
  const value = useMemo(() => ({ approvedOrigins, approveOrigin }), [approvedOrigins, approveOrigin]);
  return <ViewOriginsContext.Provider value={value}>{children}</ViewOriginsContext.Provider>;
}

export function useViewOrigins(): ViewOriginsValue {
  const v = useContext(ViewOriginsContext);
  if (!v) throw new Error('useViewOrigins outside ViewOriginsProvider');
  return v;
}
