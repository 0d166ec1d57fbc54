'use client';
// The frame of every reader view (DAG, finance, compliance, security): opens
// the shared log if none is open, shows its progress while it verifies, and
// renders the view only once verdicts exist, since those views count verified
// receipts only. `VerifiedNote` says on each view what its numbers stand on.
import Link from 'next/link';
import { type ReactNode, useEffect, useMemo } from 'react';
import type { RowStore } from '../../lib/query/row-store';
import { type VerifiedScope, verifiedScope } from '../../lib/readers/scope';
import { explorerUrl } from '../../lib/query/explorer-filter';
import { RUNTIMES } from '../../lib/query/runtimes';
import type { VerificationReport } from '../../lib/verdict/report';
import { useLastLog, useLogOpener, useSession } from '../data/log-contexts';
import { VerifyProgress } from '../loader/verify-progress';
import { SafeText } from '../ui/safe-text';
import { UnpinnedNotice } from '../trust/unpinned-notice';

export interface ReaderData {
  store: RowStore;
  report: VerificationReport;
  scope: VerifiedScope;
  label: string;
}

export function ReaderShell({ children }: { children: (data: ReaderData) => ReactNode }) {
  const { session, rows, cancel } = useSession();
  const { ensureOpen } = useLogOpener();
  const { lost } = useLastLog();
  useEffect(ensureOpen, [ensureOpen]);
  const done = session.status === 'done' ? session : null;
  const store = rows.current;
  const scope = useMemo(() => (done && store ? verifiedScope(store) : null), [done, store]);
  if (session.status === 'running') {
    return (
      <>
        <VerifyProgress label={session.label} progress={session.progress} rows={session.rows} onCancel={cancel} />
        <p className="muted" data-testid="reader-waiting">
          This view counts verified receipts only: it appears when the whole log has been checked.
        </p>
      </>
    );
  }
  if (session.status === 'error')
    return (
      <p role="alert">
        Could not verify <SafeText text={session.label} max={120} />: <SafeText text={session.message} max={400} />
      </p>
    );
  if (session.status === 'cancelled')
    return (
      <p role="status">
        Cancelled: <SafeText text={session.label} max={120} /> was not verified. <Link href="/">Open a log</Link>
      </p>
    );
  if (session.status === 'idle' && lost)
    return (
      <p role="status" data-testid="reader-no-log">
        No log is open: the one this tab had cannot be reopened after a reload (see above).
      </p>
    );
  if (!done || !scope || !store) return <p className="muted">Opening the log…</p>;
  return (
    <>
      {scope.left.unpinned > 0 && <UnpinnedNotice keys={done.report.keys.map((k) => k.key)} count={scope.left.unpinned} />}
      {children({ store, report: done.report, scope, label: done.label })}
    </>
  );
}

const OTHER_RUNTIMES_HREF = explorerUrl({ values: { type: RUNTIMES.filter((r) => r.id !== 'chio').flatMap((r) => [...r.types]) } });

/** What a view's numbers stand on: the verified receipts, and what was left out (other runtimes' receipts too). */
export function VerifiedNote({ scope, label }: { scope: VerifiedScope; label: string }) {
  const { failed, unverified, unpinned, pending } = scope.left;
  // Records that could not be read are in no receipt count, so never "none left out" over them.
  const { session } = useSession();
  const unreadable = session.status === 'done' ? (session.report.summary.unreadable ?? 0) : 0;
  const out = failed + unverified + unpinned + pending + unreadable;
  const fmt = (n: number) => n.toLocaleString('en-US');
  return (
    <p className="muted" data-testid="verified-note" data-counted={scope.rows.length} data-left={out}>
      Counted from the {fmt(scope.rows.length)} verified receipts of <SafeText text={label} max={120} />
      {out > 0 ? (
        <>
          {'; left out: '}
          {[
            failed && `${fmt(failed)} failed`,
            unreadable && `${fmt(unreadable)} ${unreadable === 1 ? 'record' : 'records'} that could not be read`,
            unpinned && `${fmt(unpinned)} intact, signer not pinned`,
            unverified && `${fmt(unverified)} unverified`,
            pending && `${fmt(pending)} not yet checked`,
          ]
            .filter(Boolean)
            .join(', ')}
          {' ('}
          <Link href="/receipts?verdict=failed&verdict=unverified&verdict=unpinned">see them</Link>
          {')'}
        </>
      ) : (
        '; none left out'
      )}
      .
      {scope.otherRuntimes > 0 && (
        <span data-testid="verified-note-other-runtimes">
          {' '}
          This view reads Chio receipts (policies, guards, budgets, signers): the log&apos;s {fmt(scope.otherRuntimes)} ZeroClaw and CodeWhale receipts are not
          part of it (<Link href={OTHER_RUNTIMES_HREF}>see them</Link>).
        </span>
      )}
    </p>
  );
}
