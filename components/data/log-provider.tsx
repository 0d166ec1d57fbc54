'use client';
// The one verification session of the app, shared by every route (overview,
// explorer, receipt page) so moving between them never re-verifies. It opens
// this server's log by default, reopens a server or URL source after a reload,
// and re-verifies when the pinned keys change.
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { LogSource } from '../../lib/workers/protocol';
import { type Session, useLogSession } from './use-log-session';
import { type Continuity, useCheckpointMemory } from './use-checkpoint-memory';
import type { RememberedCheckpoint } from '../../lib/trust/checkpoint-memory';
import { useTrustKeys } from './use-trust-keys';
import { type TrustEntry, toPinnedKeys } from '../../lib/trust/trust-file';
import type { RowStore } from '../../lib/query/row-store';

const LAST_SOURCE = 'receipt-audit.source.v1';

interface LogContextValue {
  session: Session;
  /** The receipts as table rows, filled while verifying; verdicts once done. */
  rows: React.RefObject<RowStore>;
  open: (sources: LogSource[]) => void;
  cancel: () => void;
  /** Pages that show the log call this: the first call opens this server's log (or the one open before a reload). */
  ensureOpen: () => void;
  trust: TrustEntry[];
  saveTrust: (entries: TrustEntry[]) => void;
  /** How the last finished load compares with the checkpoints this browser remembers. */
  continuity: Continuity | null;
  remembered: RememberedCheckpoint[];
  /** Stored entries that could not be read (and are ignored). */
  memoryIssues: string[];
  forgetCheckpoint: (key: string) => void;
}

const LogContext = createContext<LogContextValue | null>(null);

/** Server and URL sources can be reopened after a reload; picked files cannot. */
function restorable(sources: LogSource[]): boolean {
  return sources.every((s) => s.kind !== 'files');
}

export function LogProvider({ children }: { children: ReactNode }) {
  const trust = useTrustKeys();
  const messages = useMemo(() => toPinnedKeys(trust.entries), [trust.entries]);
  const { session, open: openSession, cancel, rows } = useLogSession(messages);
  const last = useRef<LogSource[] | null>(null);
  const [wanted, setWanted] = useState(false);
  const ensureOpen = useCallback(() => setWanted(true), []);
  const openedSources = useCallback(() => last.current, []);
  const memory = useCheckpointMemory(session, openedSources);

  const open = useCallback(
    (sources: LogSource[]) => {
      last.current = sources;
      if (restorable(sources)) sessionStorage.setItem(LAST_SOURCE, JSON.stringify(sources));
      else sessionStorage.removeItem(LAST_SOURCE);
      openSession(sources);
    },
    [openSession],
  );

  // Once a page wants the log and the pinned keys are read: reopen what was open before a
  // reload, or this server's log. Afterwards, whenever the keys change, the open log is
  // verified again under them.
  useEffect(() => {
    if (!trust.loaded || !wanted) return;
    if (last.current) {
      openSession(last.current);
      return;
    }
    let sources: LogSource[] = [{ kind: 'server' }];
    try {
      const saved = JSON.parse(sessionStorage.getItem(LAST_SOURCE) ?? 'null') as LogSource[] | null;
      if (Array.isArray(saved) && saved.length > 0 && restorable(saved)) sources = saved;
    } catch {
      // nothing usable saved
    }
    open(sources);
  }, [trust.loaded, wanted, openSession]); // eslint-disable-line react-hooks/exhaustive-deps

  const value = useMemo(
    () => ({
      session, rows, open, cancel, ensureOpen, trust: trust.entries, saveTrust: trust.save,
      continuity: memory.continuity, remembered: memory.remembered, memoryIssues: memory.issues, forgetCheckpoint: memory.forget,
    }),
    [session, rows, open, cancel, ensureOpen, trust.entries, trust.save, memory.continuity, memory.remembered, memory.issues, memory.forget],
  );
  return <LogContext.Provider value={value}>{children}</LogContext.Provider>;
}

export function useLog(): LogContextValue {
  const v = useContext(LogContext);
  if (!v) throw new Error('useLog outside LogProvider');
  return v;
}
