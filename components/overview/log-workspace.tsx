'use client';
// The home page's workspace: pick a source (the shared session opens this
// server's log by default), watch it verify in the workers, read the summary,
// export the report in the command line's format.
import { useEffect } from 'react';
import { reportJsonParts } from '../../lib/verify/report-json';
import { downloadText } from '../data/download';
import Link from 'next/link';
import { useLogOpener, useSession } from '../data/log-contexts';
import { useTrust } from '../data/trust-provider';
import { useDialect } from '../data/dialect-provider';
import { useCheckpoints } from '../data/checkpoint-memory-provider';
import { ApiTokenPrompt } from '../loader/api-token-prompt';
import { SourcePicker } from '../loader/source-picker';
import { DialectInputsPanel } from '../loader/dialect-inputs';
import { VerifyProgress } from '../loader/verify-progress';
import { CheckpointContinuity, forksOf } from './checkpoint-continuity';
import { ReportSummary } from './report-summary';
import { SafeText } from '../ui/safe-text';

export function LogWorkspace() {
  const { session, cancel } = useSession();
  const { open, ensureOpen, sources, setApiToken } = useLogOpener();
  const { trust, trustIssue } = useTrust();
  const { dialect, setDialect } = useDialect();
  const { continuity } = useCheckpoints();
  useEffect(ensureOpen, [ensureOpen]);
  return (
    <>
      <SourcePicker
        onOpen={(picked, add) => open(add && sources ? [...sources, ...picked] : picked)}
        busy={session.status === 'running'}
        canAdd={sources !== null && session.status !== 'running'}
      />
      <DialectInputsPanel value={dialect} onApply={setDialect} hasLog={sources !== null} />
      {trustIssue && (
        <p role="alert" className="banner bad" data-testid="trust-storage-issue">
          <SafeText text={`${trustIssue[0]!.toUpperCase()}${trustIssue.slice(1)}: signer_trusted is skipped for every receipt.`} max={400} />{' '}
          <Link href="/trust">Trust</Link>
        </p>
      )}
      {session.status === 'running' && <VerifyProgress label={session.label} progress={session.progress} rows={session.rows} onCancel={cancel} />}
      {session.status === 'running' && <p hidden data-testid="verify-summary" data-done="false" data-source={session.label} />}
      {session.status === 'cancelled' && (
        <p role="status" data-testid="verify-summary" data-done="true" data-ok="false" data-source={session.label}>
          Cancelled: <SafeText text={session.label} max={120} /> was not verified.
        </p>
      )}
      {session.status === 'error' && (
        <p role="alert" data-testid="verify-summary" data-done="true" data-ok="false" data-source={session.label}>
          Could not verify <SafeText text={session.label} max={120} />: <SafeText text={session.message} max={400} />
        </p>
      )}
      {session.status === 'error' && session.auth && <ApiTokenPrompt rejected={session.auth === 'rejected'} onToken={setApiToken} />}
      {session.status === 'done' && (
        <>
          {continuity?.load === session.verifiedCheckpoints && <CheckpointContinuity outcomes={continuity.outcomes} />}
          <p>
            <button
              type="button"
              className="button"
              data-testid="export-report"
              onClick={() => downloadText('receipt-audit-report.json', [...reportJsonParts(session.report), '\n'])}
            >
              Export the report (JSON, as <code>receipt-audit verify --json</code> prints it)
            </button>
          </p>
          <ReportSummary
            report={session.report}
            label={session.label}
            bytes={session.progress.bytesRead}
            ms={session.progress.elapsedMs}
            pinned={new Set(trust.map((t) => t.key))}
            forked={continuity?.load === session.verifiedCheckpoints && forksOf(continuity.outcomes).length > 0}
          />
        </>
      )}
    </>
  );
}
