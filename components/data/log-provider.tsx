'use client';
// The one verification session of the app, shared by every route (overview,
// explorer, receipt page) so moving between them never re-verifies. It opens
// this server's log by default, reopens a server or URL source after a reload,
// and re-verifies when the pinned keys change.
import { type ReactNode, createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { readApiToken, saveApiToken, syncAddressBar } from './api-token';
import type { DialectInputs, FleetPageInfo, LogSource } from '../../lib/workers/protocol';
import { type Session, useLogSession } from './use-log-session';
import { type Continuity, useCheckpointMemory } from './use-checkpoint-memory';
import type { RememberedCheckpoint } from '../../lib/trust/checkpoint-memory';
import type { MemoryImport } from '../../lib/trust/checkpoint-memory-import';
import { useTrustKeys } from './use-trust-keys';
import { type TrustEntry, toPinnedKeys } from '../../lib/trust/trust-file';
import type { RowStore } from '../../lib/query/row-store';
import type { BundleAnswer, BundleQuery } from '../../lib/sources/record-host';

const LAST_SOURCE = 'receipt-audit.source.v1';

interface LogContextValue {
  session: Session;
  /** The receipts as table rows, filled while verifying; verdicts once done. */
  rows: React.RefObject<RowStore>;
  open: (sources: LogSource[]) => void;
  cancel: () => void;
  /**
   * Pages that show the log call this: the first call opens this server's log (or the one open
   * before a reload). A link that names its source (`?source=`) passes it, and that log is opened.
   */
  ensureOpen: (preferred?: LogSource[]) => void;
  /** What is open now (null before the first open). */
  sources: LogSource[] | null;
  trust: TrustEntry[];
  /** Why the stored pinned keys could not be read, if they could not. */
  trustIssue: string | null;
  /** Whether the pinned keys have been read from this browser yet. */
  trustLoaded: boolean;
  saveTrust: (entries: TrustEntry[]) => void;
  /** One receipt of the verified log with its checkpoint and proof, for the receipt page and share links. */
  requestBundle: (query: BundleQuery) => Promise<BundleAnswer>;
  /** How the last finished load compares with the checkpoints this browser remembers. */
  continuity: Continuity | null;
  remembered: RememberedCheckpoint[];
  /** Stored entries that could not be read (and are ignored). */
  memoryIssues: string[];
  forgetCheckpoint: (key: string) => void;
  /** Adds the logs of a checkpoint file to the memory, or says why the file is refused (nothing changes then). */
  importCheckpoints: (text: string) => MemoryImport;
  /** The remembered checkpoints as a file. */
  exportCheckpoints: () => string;
  /** Keeps this tab's API token for this server's log and opens that log with it again. */
  setApiToken: (token: string) => void;
  /** ZeroClaw's HMAC key and the CodeWhale diff the open log is verified with (kept in memory only). */
  dialect: DialectInputs;
  /** Sets them and verifies the open log again with them. */
  setDialect: (inputs: DialectInputs) => void;
  /** This server serves a fleet (CLICKHOUSE_URL): its log is searched a page at a time. */
  fleet: boolean;
  /** The open fleet page's index figures (null unless a fleet page is open). */
  fleetPage: FleetPageInfo | null;
}

const LogContext = createContext<LogContextValue | null>(null);

/** Server and URL sources can be reopened after a reload; picked files cannot. */
function restorable(sources: LogSource[]): boolean {
  return sources.every((s) => s.kind !== 'files');
}

/** Sources that are this server's own API (its store or its fleet): the API token goes with them. */
function isThisServer(s: LogSource): boolean {
  return s.kind === 'server' || s.kind === 'fleet';
}

/** This server's log: its store's package, or when it serves a fleet (CLICKHOUSE_URL) the fleet's first page. */
function serverLog(fleet: boolean): LogSource[] {
  return [fleet ? { kind: 'fleet', query: 'limit=200' } : { kind: 'server' }];
}

/** `fleet`: this server serves a fleet (CLICKHOUSE_URL) rather than one store. */
export function LogProvider({ children, fleet = false }: { children: ReactNode; fleet?: boolean }) {
  const trust = useTrustKeys();
  const messages = useMemo(() => toPinnedKeys(trust.entries), [trust.entries]);
  // The key and the diff live in this state only: never in a URL, storage, a share link or a request.
  const [dialect, setDialect] = useState<DialectInputs>({});
  const { session, open: openSession, cancel, rows, requestBundle, fleetPage } = useLogSession(messages, dialect);
  const last = useRef<LogSource[] | null>(null);
  // The session opener (it carries the pinned keys) the open log was verified with.
  const openedWith = useRef<typeof openSession | null>(null);
  const [openSources, setOpenSources] = useState<LogSource[] | null>(null);
  const [wanted, setWanted] = useState(false);
  const [preferred, setPreferred] = useState<string | null>(null);
  const ensureOpen = useCallback((want?: LogSource[]) => {
    if (Array.isArray(want)) setPreferred(JSON.stringify(want));
    setWanted(true);
  }, []);
  const memory = useCheckpointMemory(session, openSources);

  // A token a link carried is out of the address bar before any of the page's own requests.
  useLayoutEffect(syncAddressBar, []);

  // The API token goes with a session only when it opens this server's log.
  const start = useCallback(
    (run: typeof openSession, sources: LogSource[]) => {
      const token = sources.some(isThisServer) ? readApiToken() : null;
      run(sources, token ?? undefined);
    },
    [],
  );

  const open = useCallback(
    (sources: LogSource[]) => {
      last.current = sources;
      openedWith.current = openSession;
      setOpenSources(sources);
      if (restorable(sources)) sessionStorage.setItem(LAST_SOURCE, JSON.stringify(sources));
      else sessionStorage.removeItem(LAST_SOURCE);
      start(openSession, sources);
    },
    [openSession, start],
  );

  const setApiToken = useCallback(
    (token: string) => {
      saveApiToken(token);
      open(last.current?.some(isThisServer) ? last.current : serverLog(fleet));
    },
    [open, fleet],
  );

  // Once a page wants the log and the pinned keys are read: open the log a link names, or
  // reopen what was open before a reload, or this server's log.
  useEffect(() => {
    if (!trust.loaded || !wanted) return;
    if (preferred !== null && preferred !== JSON.stringify(last.current)) {
      open(JSON.parse(preferred) as LogSource[]);
      return;
    }
    if (last.current) return;
    try {
      const saved = JSON.parse(sessionStorage.getItem(LAST_SOURCE) ?? 'null') as LogSource[] | null;
      if (Array.isArray(saved) && saved.length > 0 && restorable(saved)) return void open(saved);
    } catch {
      // nothing usable saved
    }
    open(serverLog(fleet));
  }, [trust.loaded, wanted, preferred, fleet]); // eslint-disable-line react-hooks/exhaustive-deps

  // A token the server refused is not kept for the next reload.
  useEffect(() => {
    if (session.status === 'error' && session.auth === 'rejected') saveApiToken(null);
  }, [session]);

  // Whenever the pinned keys (or the dialect key or diff) change, the open log is verified again under them.
  useEffect(() => {
    if (!last.current || openedWith.current === openSession) return;
    openedWith.current = openSession;
    start(openSession, last.current);
  }, [openSession, start]);

  const value = useMemo(
    () => ({
      session, rows, open, cancel, ensureOpen, sources: openSources, trust: trust.entries, trustIssue: trust.issue, trustLoaded: trust.loaded, saveTrust: trust.save, requestBundle,
      continuity: memory.continuity, remembered: memory.remembered, memoryIssues: memory.issues, forgetCheckpoint: memory.forget, setApiToken,
      importCheckpoints: memory.importText, exportCheckpoints: memory.exportText, dialect, setDialect, fleetPage, fleet,
    }),
    [session, rows, open, cancel, ensureOpen, openSources, trust.entries, trust.issue, trust.loaded, trust.save, requestBundle, memory.continuity, memory.remembered, memory.issues, memory.forget, setApiToken, memory.importText, memory.exportText, dialect, fleetPage, fleet],
  );
  return <LogContext.Provider value={value}>{children}</LogContext.Provider>;
}

export function useLog(): LogContextValue {
  const v = useContext(LogContext);
  if (!v) throw new Error('useLog outside LogProvider');
  return v;
}
