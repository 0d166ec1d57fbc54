'use client';
// The open log's contexts, one per concern, so a component renders again only when what it reads
// changes: the session (progress, rows, the report) changes many times a second while a log
// verifies; which log is open changes when another is opened; the last log only on a reload.
// log-provider.tsx fills them; the pinned keys, dialect inputs, approved origins and checkpoint
// memory have providers of their own.
import { type RefObject, createContext, useContext } from 'react';
import type { RowStore } from '../../lib/query/row-store';
import type { BundleAnswer, BundleQuery } from '../../lib/sources/record-host';
import type { FleetPageInfo, LogSource } from '../../lib/workers/protocol';
import type { LogMeta } from './last-log';
import type { OpenMeta, Role } from './use-log-opener';
import type { Session } from './use-log-session';

export interface SessionValue {
  session: Session;
  /** The receipts as table rows, filled while verifying; verdicts once done. */
  rows: RefObject<RowStore>;
  cancel: () => void;
  /** One receipt of the verified log with its checkpoint and proof, for the receipt page and share links. */
  requestBundle: (query: BundleQuery, signal?: AbortSignal) => Promise<BundleAnswer>;
  /** The open fleet page's index figures (null unless a fleet page is open). */
  fleetPage: FleetPageInfo | null;
  /** Which load is open: a new value for each (the dataset part of query keys, query-keys.ts). */
  dataset: string;
}

export interface LogOpenerValue {
  open: (sources: LogSource[]) => void;
  /**
   * Pages that show the tab's log call this: the first call opens this server's log (or the one
   * open before a reload); after a view's log (openView) it opens the tab's log again. `preferred`
   * (the fleet page's query) makes that log the tab's.
   */
  ensureOpen: (preferred?: LogSource[]) => void;
  /**
   * A page a link opened with its own log (`?source=`) calls this instead: `sources` is opened for
   * that view only (never stored as the tab's log, never shown by other pages), and not before
   * every origin other than this page's it would fetch from is approved (view-origins-provider.tsx).
   */
  openView: (sources: LogSource[]) => void;
  /** What is open now (null before the first open). */
  sources: LogSource[] | null;
  /** Whether what is open is the tab's log (`default`) or a view's (`view`); null before the first open. */
  openRole: Role | null;
  /** This server serves a fleet (CLICKHOUSE_URL): its log is searched a page at a time. */
  fleet: boolean;
  /** Keeps this tab's API token for this server's log and opens that log with it again. */
  setApiToken: (token: string) => void;
}

export interface LastLogValue {
  /** What is open, for people: its sources, files and when it was opened (null before the first open). */
  openMeta: OpenMeta | null;
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

export const SessionContext = createContext<SessionValue | null>(null);
export const LogOpenerContext = createContext<LogOpenerValue | null>(null);
export const LastLogContext = createContext<LastLogValue | null>(null);

function need<T>(value: T | null, hook: string): T {
  if (value === null) throw new Error(`${hook} outside LogProvider`);
  return value;
}

/** The open log's verification: progress, rows, report. */
export function useSession(): SessionValue {
  return need(useContext(SessionContext), 'useSession');
}

/** Which log is open, and how to open another. */
export function useLogOpener(): LogOpenerValue {
  return need(useContext(LogOpenerContext), 'useLogOpener');
}

/** The tab's log across a reload: what is open, or what could not be reopened. */
export function useLastLog(): LastLogValue {
  return need(useContext(LastLogContext), 'useLastLog');
}
