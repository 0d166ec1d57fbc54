'use client';
// What the user gave for other runtimes' receipts: ZeroClaw's HMAC key and the CodeWhale diff. They
// live in this state only: never in a URL, storage, a share link or a request. Setting them makes
// the log provider verify the open log again with them.
import { type ReactNode, createContext, useContext, useMemo, useState } from 'react';
import type { DialectInputs } from '../../lib/workers/protocol';

export interface DialectValue {
  /** ZeroClaw's HMAC key and the CodeWhale diff the open log is verified with (kept in memory only). */
  dialect: DialectInputs;
  /** Sets them and verifies the open log again with them. */
  setDialect: (inputs: DialectInputs) => void;
}

const DialectContext = createContext<DialectValue | null>(null);

export function DialectProvider({ children }: { children: ReactNode }) {
  const [dialect, setDialect] = useState<DialectInputs>({});
  const value = useMemo(() => ({ dialect, setDialect }), [dialect]);
  return <DialectContext.Provider value={value}>{children}</DialectContext.Provider>;
}

export function useDialect(): DialectValue {
  const v = useContext(DialectContext);
  if (!v) throw new Error('useDialect outside DialectProvider');
  return v;
}
