'use client';
// Which log every page is showing (issue 21): its sources, how many files, when it was opened and
// how far verification got, right under the navigation. After a reload that cannot reopen the
// tab's log (picked files), it says so plainly and offers to choose them again or to open this
// server's log: the page never swaps one log for another silently.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLastLog, useLogOpener, useSession } from './data/log-contexts';
import { SafeText } from './ui/safe-text';
import { fromInput } from './loader/source-picker';
import type { VerificationReport } from '../lib/verdict/report';
import { logStatusLine } from '../lib/overview/headline';

const n = (x: number) => x.toLocaleString('en-US');

/** "2026-11-27 11:02:13 UTC". */
export function formatOpenedAt(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Files the report read from (receipts, checkpoints, problems), for a log whose sources name none. */
function filesRead(report: VerificationReport): number {
  const files = new Set<string>();
  for (const r of report.receipts) files.add(r.file);
  for (const c of report.checkpoints) if (c.file) files.add(c.file);
  for (const p of report.problems) if (p.file) files.add(p.file);
  return files.size;
}

/** The files an input holds, emptied after each pick so the same file can be chosen again. */
const takeFiles = (input: HTMLInputElement) => {
  const files = fromInput(input.files);
  input.value = '';
  return files;
};

export function LogBar() {
  const { session } = useSession();
  const { openRole } = useLogOpener();
  const { openMeta, lost, reopenLost, openServerLog } = useLastLog();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // Rendered after hydration only: what is open is known in this browser, never on the server.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const report = session.status === 'done' ? session.report : null;
  const headline = useMemo(() => (report ? logStatusLine(report) : null), [report]);
  const read = useMemo(() => (report ? filesRead(report) : 0), [report]);
  if (!mounted) return <div className="log-bar" aria-hidden="true" />;

  if (lost && openMeta === null) {
    return (
      <section className="log-bar lost" role="alert" aria-label="The open log" data-testid="log-bar" data-state="lost">
        <p>
          <strong>The log this tab had open cannot be reopened after a reload:</strong> <SafeText text={lost.description} max={160} /> ({n(lost.files)}{' '}
          {lost.files === 1 ? 'file' : 'files'}, opened {formatOpenedAt(lost.openedAt)}). A browser does not let a page read files again until you choose them,
          so no log is open and nothing else was opened in its place.
        </p>
        <p className="log-bar-actions">
          <button type="button" className="button" data-testid="log-bar-choose-files" onClick={() => filesInput.current?.click()}>
            Choose the files again…
          </button>
          <button type="button" className="button" data-testid="log-bar-choose-folder" onClick={() => folderInput.current?.click()}>
            Choose the folder again…
          </button>
          <button type="button" className="button" data-testid="log-bar-open-server" onClick={openServerLog}>
            Open this server’s log instead
          </button>
        </p>
        <input ref={filesInput} type="file" multiple hidden tabIndex={-1} data-testid="log-bar-files-input" onChange={(e) => reopenLost(takeFiles(e.target))} />
        <input
          ref={(el) => {
            folderInput.current = el;
            el?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          hidden
          tabIndex={-1}
          onChange={(e) => reopenLost(takeFiles(e.target))}
        />
      </section>
    );
  }
  if (openMeta === null) return <div className="log-bar" data-testid="log-bar" data-state="none" />;

  const files = openMeta.files > 0 ? openMeta.files : read;
  const status =
    session.status === 'running'
      ? `verifying: ${n(session.progress?.recordsVerified ?? 0)} records checked so far`
      : session.status === 'done' && headline
        ? null
        : session.status === 'cancelled'
          ? 'cancelled: not verified'
          : session.status === 'error'
            ? 'could not be verified'
            : 'waiting';
  return (
    <section className="log-bar" aria-label="The open log" data-testid="log-bar" data-state={session.status} data-role={openRole ?? ''}>
      <p>
        <span className="log-bar-label">{openRole === 'view' ? 'This page shows a linked log (for this page only):' : 'Log:'}</span>{' '}
        <strong data-testid="log-bar-source">
          <SafeText text={openMeta.description} max={160} />
        </strong>
        {files > 0 ? ` · ${n(files)} ${files === 1 ? 'file' : 'files'}` : ''}
        {' · '}
        <span data-testid="log-bar-opened">
          opened {formatOpenedAt(openMeta.openedAt)}
          {openMeta.reopened ? ', reopened after a reload' : ''}
        </span>
        {' · '}
        {status ?? (
          <span className={`log-bar-verdict ${headline!.tone}`} data-testid="log-bar-verdict" data-tone={headline!.tone}>
            {headline!.text}
          </span>
        )}
      </p>
    </section>
  );
}
