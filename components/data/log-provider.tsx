'use client';
// The one verification session of the app, shared by every route (overview,
// explorer, receipt page) so moving between them never re-verifies. It opens
// this server's log by default, reopens a server or URL source after a reload,
// and re-verifies when the pinned keys change. A page a link opened with its
// own log (`?source=`) gets that log for its view only: it never becomes the
// tab's log (issue 20), and a log on another origin is opened only once the
// user agreed to that origin (use-view-source.ts asks).
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
import { foreignOrigins } from '../../lib/share/source-param';
import { type LogMeta, forgetLostLog, metaOf, readLastLog, saveLastLog } from './last-log';

/** The tab's own log, or a log a page was opened with for its view only. */
type Role = 'default' | 'view';

interface LogContextValue {
  session: Session;
  /** The receipts as table rows, filled while verifying; verdicts once done. */
  rows: React.RefObject<RowStore>;
  open: (sources: LogSource[]) => void;
  cancel: () => void;
  /**
   * Pages that show the tab's log call this: the first call opens this server's log (or the one
   * open before a reload); after a view's log (openView) it opens the tab's log again. `preferred`
   * (the fleet page's query) makes that log the tab's.
   */
  ensureOpen: (preferred?: LogSource[]) => void;
  /**
   * A page a link opened with its own log (`?source=`) calls this instead: `sources` is opened for
   * that view only (never stored as the tab's log, never shown by other pages), and not before
   * every origin other than this page's it would fetch from is approved (approveOrigin).
   */
  openView: (sources: LogSource[]) => void;
  /** Origins the user agreed to load a view's log from, in this tab until it reloads (never stored). */
  approvedOrigins: ReadonlySet<string>;
  approveOrigin: (origin: string) => void;
  /** What is open now (null before the first open). */
  sources: LogSource[] | null;
  /** Whether what is open is the tab's log (`default`) or a view's (`view`); null before the first open. */
  openRole: 'default' | 'view' | null;
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
  /** What is open, for people: its sources, files and when it was opened (null before the first open). */
  openMeta: (LogMeta & { reopened: boolean }) | null;
  /**
   * The tab's log before a reload, when it cannot be reopened (picked files): nothing else is
   * opened in its place until the user chooses the files again (reopenLost) or another log.
   */
  lost: LogMeta | null;
  /** Opens the lost log again with the files the user chose (and the sources of it that could be kept). */
  reopenLost: (files: { file: File; path: string }[]) => void;
  /** Opens this server's log as the tab's (e.g. instead of a lost one). */
  openServerLog: () => void;
}

const LogContext = createContext<LogContextValue | null>(null);

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
  // What is open, and whether it is the tab's log or a view's.
  const last = useRef<{ sources: LogSource[]; role: Role } | null>(null);
  // The tab's log: what the pages without a `?source=` show (null until it is first chosen).
  const tabLog = useRef<LogSource[] | null>(null);
  // The session opener (it carries the pinned keys) the open log was verified with.
  const openedWith = useRef<typeof openSession | null>(null);
  const [openSources, setOpenSources] = useState<LogSource[] | null>(null);
  const [openRole, setOpenRole] = useState<Role | null>(null);
  const [openMeta, setOpenMeta] = useState<(LogMeta & { reopened: boolean }) | null>(null);
  const [lost, setLost] = useState<LogMeta | null>(null);
  // What the page on screen wants: the tab's log, or a view's (its sources as JSON).
  const [wanted, setWanted] = useState<{ role: 'default' } | { role: 'view'; key: string } | null>(null);
  const [preferred, setPreferred] = useState<string | null>(null);
  const [approvedOrigins, setApproved] = useState<ReadonlySet<string>>(() => new Set());
  const ensureOpen = useCallback((want?: LogSource[]) => {
    if (Array.isArray(want)) setPreferred(JSON.stringify(want));
    setWanted((w) => (w?.role === 'default' ? w : { role: 'default' }));
  }, []);
  const openView = useCallback((sources: LogSource[]) => {
    const key = JSON.stringify(sources);
    setWanted((w) => (w?.role === 'view' && w.key === key ? w : { role: 'view', key }));
  }, []);
  const approveOrigin = useCallback((origin: string) => setApproved((a) => (a.has(origin) ? a : new Set([...a, origin]))), []);
  const memory = useCheckpointMemory(session, openSources);

  // A token a link carried is out of the address bar before any of the page's own requests.
  useLayoutEffect(syncAddressBar, []);

  // The API token goes with a session only when it opens this server's log.
  const start = useCallback((run: typeof openSession, sources: LogSource[]) => {
    const token = sources.some(isThisServer) ? readApiToken() : null;
    run(sources, token ?? undefined);
  }, []);

  /** Opens `sources` as the tab's log (remembered for a reload when it can be reopened) or as a view's (never remembered). */
  /** `reopened`: the log the tab had before a reload, opened again (its first opening time is kept). */
  const openAs = useCallback(
    (sources: LogSource[], role: Role, reopened: LogMeta | null = null) => {
      last.current = { sources, role };
      openedWith.current = openSession;
      setOpenSources(sources);
      setOpenRole(role);
      const meta = reopened ?? metaOf(sources, Date.now());
      setOpenMeta({ ...meta, reopened: reopened !== null });
      if (role === 'default') {
        tabLog.current = sources;
        setLost(null);
        saveLastLog(sources, meta);
      }
      start(openSession, sources);
    },
    [openSession, start],
  );
  const open = useCallback((sources: LogSource[]) => openAs(sources, 'default'), [openAs]);
  const reopenLost = useCallback(
    (files: { file: File; path: string }[]) => {
      if (files.length === 0) return;
      const keep = lost?.keep ?? [];
      open([...keep, { kind: 'files', files }]);
    },
    [lost, open],
  );
  const openServerLog = useCallback(() => {
    forgetLostLog();
    open(serverLog(fleet));
  }, [open, fleet]);

  const setApiToken = useCallback(
    (token: string) => {
      saveApiToken(token);
      const now = last.current;
      if (now?.sources.some(isThisServer)) openAs(now.sources, now.role);
      else open(serverLog(fleet));
    },
    [open, openAs, fleet],
  );

  // Once a page wants a log and the pinned keys are read. A view: its log, once every other
  // origin it fetches from is approved (until then nothing is opened). The tab's log: the one a
  // page prefers (the fleet's query), else the tab's log as it was before a view or a reload,
  // else this server's log.
  useEffect(() => {
    if (!trust.loaded || !wanted) return;
    const now = last.current;
    if (wanted.role === 'view') {
      const sources = JSON.parse(wanted.key) as LogSource[];
      if (foreignOrigins(sources, window.location.origin).some((o) => !approvedOrigins.has(o))) return;
      // Already open (as this view's, or as the tab's own log: then it stays the tab's).
      if (now && JSON.stringify(now.sources) === wanted.key) return;
      openAs(sources, 'view');
      return;
    }
    if (preferred !== null && preferred !== JSON.stringify(tabLog.current)) {
      open(JSON.parse(preferred) as LogSource[]);
      return;
    }
    if (now?.role === 'default') return;
    if (tabLog.current) return void open(tabLog.current);
    // After a reload: the log the tab had, reopened; picked files cannot be, and then nothing is
    // opened in their place (the log bar says so and offers to choose them again).
    const saved = readLastLog();
    if (saved && 'lost' in saved) return void setLost(saved.lost);
    if (saved) return void openAs(saved.reopen, 'default', saved.meta);
    open(serverLog(fleet));
  }, [trust.loaded, wanted, preferred, fleet, approvedOrigins]); // eslint-disable-line react-hooks/exhaustive-deps

  // A token the server refused is not kept for the next reload.
  useEffect(() => {
    if (session.status === 'error' && session.auth === 'rejected') saveApiToken(null);
  }, [session]);

  // Whenever the pinned keys (or the dialect key or diff) change, the open log is verified again under them.
  useEffect(() => {
    if (!last.current || openedWith.current === openSession) return;
    openedWith.current = openSession;
    start(openSession, last.current.sources);
  }, [openSession, start]);

  const value = useMemo(
    () => ({
      session,
      rows,
      open,
      cancel,
      ensureOpen,
      openView,
      approvedOrigins,
      approveOrigin,
      sources: openSources,
      openRole,
      trust: trust.entries,
      trustIssue: trust.issue,
      trustLoaded: trust.loaded,
      saveTrust: trust.save,
      requestBundle,
      continuity: memory.continuity,
      remembered: memory.remembered,
      memoryIssues: memory.issues,
      forgetCheckpoint: memory.forget,
      setApiToken,
      importCheckpoints: memory.importText,
      exportCheckpoints: memory.exportText,
      dialect,
      setDialect,
      fleetPage,
      fleet,
      openMeta,
      lost,
      reopenLost,
      openServerLog,
    }),
    [
      session,
      rows,
      open,
      cancel,
      ensureOpen,
      openView,
      approvedOrigins,
      approveOrigin,
      openSources,
      openRole,
      trust.entries,
      trust.issue,
      trust.loaded,
      trust.save,
      requestBundle,
      memory.continuity,
      memory.remembered,
      memory.issues,
      memory.forget,
      setApiToken,
      memory.importText,
      memory.exportText,
      dialect,
      fleetPage,
      fleet,
      openMeta,
      lost,
      reopenLost,
      openServerLog,
    ],
  );
  return <LogContext.Provider value={value}>{children}</LogContext.Provider>;
}

export function useLog(): LogContextValue {
  const v = useContext(LogContext);
  if (!v) throw new Error('useLog outside LogProvider');
  return v;
}
