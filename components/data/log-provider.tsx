'use client';
// The one verification session of the app, shared by every route (overview, explorer, receipt
// page) so moving between them never re-verifies. LogProvider puts each concern in a provider
// of its own: the pinned keys (trust-provider.tsx), the dialect inputs (dialect-provider.tsx),
// the origins a view's log may come from (view-origins-provider.tsx), the open log (this file:
// its session, which log is open and the tab's last log, log-contexts.ts) and the checkpoint
// memory (checkpoint-memory-provider.tsx). Which log is opened when is use-log-opener.ts.
import { type ReactNode, useEffect, useMemo } from 'react';
import { saveApiToken } from './api-token';
import { toPinnedKeys } from '../../lib/trust/trust-file';
import { CheckpointMemoryProvider } from './checkpoint-memory-provider';
import { DialectProvider, useDialect } from './dialect-provider';
import { LastLogContext, LogOpenerContext, SessionContext } from './log-contexts';
import { TrustProvider, useTrust } from './trust-provider';
import { useLogOpenerState } from './use-log-opener';
import { useLogSession } from './use-log-session';
import { ViewOriginsProvider, useViewOrigins } from './view-origins-provider';

/** `fleet`: this server serves a fleet (CLICKHOUSE_URL) rather than one store. */
export function LogProvider({ children, fleet = false }: { children: ReactNode; fleet?: boolean }) {
  return (
    <TrustProvider>
      <DialectProvider>
        <ViewOriginsProvider>
          <OpenLogProvider fleet={fleet}>
            <CheckpointMemoryProvider>{children}</CheckpointMemoryProvider>
          </OpenLogProvider>
        </ViewOriginsProvider>
      </DialectProvider>
    </TrustProvider>
  );
}

function OpenLogProvider({ children, fleet }: { children: ReactNode; fleet: boolean }) {
  const { trust, trustLoaded } = useTrust();
  const { dialect } = useDialect();
  const { approvedOrigins } = useViewOrigins();
  const messages = useMemo(() => toPinnedKeys(trust), [trust]);
  const { session, open: openSession, cancel, rows, requestBundle, fleetPage, load } = useLogSession(messages, dialect);
  const opener = useLogOpenerState({ openSession, fleet, trustLoaded, approvedOrigins });
  const { open, ensureOpen, openView, sources, openRole, setApiToken, openMeta, lost, reopenLost, openServerLog } = opener;

  // A token the server refused is not kept for the next reload.
  useEffect(() => {
    if (session.status === 'error' && session.auth === 'rejected') saveApiToken(null);
  }, [session]);

  const dataset = `load-${load}`;
  const sessionValue = useMemo(
    () => ({ session, rows, cancel, requestBundle, fleetPage, dataset }),
    [session, rows, cancel, requestBundle, fleetPage, dataset],
  );
  const openerValue = useMemo(
    () => ({ open, ensureOpen, openView, sources, openRole, fleet, setApiToken }),
    [open, ensureOpen, openView, sources, openRole, fleet, setApiToken],
  );
  const lastLogValue = useMemo(() => ({ openMeta, lost, reopenLost, openServerLog }), [openMeta, lost, reopenLost, openServerLog]);
  return (
    <SessionContext.Provider value={sessionValue}>
      <LogOpenerContext.Provider value={openerValue}>
        <LastLogContext.Provider value={lastLogValue}>{children}</LastLogContext.Provider>
      </LogOpenerContext.Provider>
    </SessionContext.Provider>
  );
}
