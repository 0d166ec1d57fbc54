'use client';
// Which log is open, and why (moved out of log-provider.tsx). It opens this server's log by
// default, reopens a server or URL source after a reload, and re-verifies when the pinned keys
// (or the dialect inputs) change. A page a link opened with its own log (`?source=`) gets that log
// for its view only: it never becomes the tab's log (issue 20), and a log on another origin is
// opened only once the user agreed to that origin (use-view-source.ts asks).
import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { readApiToken, saveApiToken, syncAddressBar } from './api-token';
import type { LogSource } from '../../lib/workers/protocol';
import { foreignOrigins } from '../../lib/share/source-param';
import { type LogMeta, forgetLostLog, metaOf, readLastLog, saveLastLog } from './last-log';

/** The tab's own log, or a log a page was opened with for its view only. */
export type Role = 'default' | 'view';

/** Opens a verification session (use-log-session.ts); a new one whenever the pinned keys or dialect inputs change. */
export type OpenSession = (sources: LogSource[], serverToken?: string) => void;

/** What is open, for people: its sources, files and when it was opened. */
export type OpenMeta = LogMeta & { reopened: boolean };

/** What the page on screen wants: the tab's log, or a view's (its sources as JSON). */
type Wanted = { role: 'default' } | { role: 'view'; key: string };

/** Sources that are this server's own API (its store or its fleet): the API token goes with them. */
function isThisServer(s: LogSource): boolean {
  return s.kind === 'server' || s.kind === 'fleet';
}

/** This server's log: its store's package, or when it serves a fleet (CLICKHOUSE_URL) the fleet's first page. */
function serverLog(fleet: boolean): LogSource[] {
  return [fleet ? { kind: 'fleet', query: 'limit=200' } : { kind: 'server' }];
}

/** The API token goes with a session only when it opens this server's log. */
function start(run: OpenSession, sources: LogSource[]): void {
  const token = sources.some(isThisServer) ? readApiToken() : null;
  run(sources, token ?? undefined);
}

export interface LogOpenerInput {
  openSession: OpenSession;
  /** This server serves a fleet (CLICKHOUSE_URL) rather than one store. */
  fleet: boolean;
  /** Nothing is opened before the pinned keys are read. */
  trustLoaded: boolean;
  approvedOrigins: ReadonlySet<string>;
}

export function useLogOpenerState({ openSession, fleet, trustLoaded, approvedOrigins }: LogOpenerInput) {
  // What is open, and whether it is the tab's log or a view's.
  const last = useRef<{ sources: LogSource[]; role: Role } | null>(null);
  // The tab's log: what the pages without a `?source=` show (null until it is first chosen).
  const tabLog = useRef<LogSource[] | null>(null);
  // The session opener (it carries the pinned keys) the open log was verified with.
  const openedWith = useRef<OpenSession | null>(null);
  const [openSources, setOpenSources] = useState<LogSource[] | null>(null);
  const [openRole, setOpenRole] = useState<Role | null>(null);
  const [openMeta, setOpenMeta] = useState<OpenMeta | null>(null);
  const [lost, setLost] = useState<LogMeta | null>(null);
  const [wanted, setWanted] = useState<Wanted | null>(null);
  const [preferred, setPreferred] = useState<string | null>(null);
  const ensureOpen = useCallback((want?: LogSource[]) => {
    if (Array.isArray(want)) setPreferred(JSON.stringify(want));
    setWanted((w) => (w?.role === 'default' ? w : { role: 'default' }));
  }, []);
  const openView = useCallback((sources: LogSource[]) => {
    const key = JSON.stringify(sources);
    setWanted((w) => (w?.role === 'view' && w.key === key ? w : { role: 'view', key }));
  }, []);

  // A token a link carried is out of the address bar before any of the page's own requests.
  useLayoutEffect(syncAddressBar, []);

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
    [openSession],
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

  // A view: its log, once every other origin it fetches from is approved (until then nothing is
  // opened). The tab's log: the one a page prefers (the fleet's query), else the tab's log as it
  // was before a view or a reload, else this server's log. An effect event: it runs with the
  // latest openers, but only when what is wanted (or may be opened) changes, not when they do.
  const openWanted = useEffectEvent((want: Wanted, prefer: string | null, approved: ReadonlySet<string>, fleetMode: boolean) => {
    const now = last.current;
    if (want.role === 'view') {
      const sources = JSON.parse(want.key) as LogSource[];
      if (foreignOrigins(sources, window.location.origin).some((o) => !approved.has(o))) return;
      // Already open (as this view's, or as the tab's own log: then it stays the tab's).
      if (now && JSON.stringify(now.sources) === want.key) return;
      openAs(sources, 'view');
      return;
    }
    if (prefer !== null && prefer !== JSON.stringify(tabLog.current)) {
      open(JSON.parse(prefer) as LogSource[]);
      return;
    }
    if (now?.role === 'default') return;
    if (tabLog.current) return void open(tabLog.current);
    // After a reload: the log the tab had, reopened; picked files cannot be, and then nothing is
    // opened in their place (the log bar says so and offers to choose them again).
    const saved = readLastLog();
    if (saved && 'lost' in saved) return void setLost(saved.lost);
    if (saved) return void openAs(saved.reopen, 'default', saved.meta);
    open(serverLog(fleetMode));
  });
  // Once a page wants a log and the pinned keys are read.
  useEffect(() => {
    if (trustLoaded && wanted) openWanted(wanted, preferred, approvedOrigins, fleet);
  }, [trustLoaded, wanted, preferred, approvedOrigins, fleet]);

  // Whenever the pinned keys (or the dialect key or diff) change, the open log is verified again under them.
  useEffect(() => {
    if (!last.current || openedWith.current === openSession) return;
    openedWith.current = openSession;
    start(openSession, last.current.sources);
  }, [openSession]);

  return { open, ensureOpen, openView, sources: openSources, openRole, setApiToken, openMeta, lost, reopenLost, openServerLog };
}
