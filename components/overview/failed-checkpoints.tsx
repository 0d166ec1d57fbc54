'use client';
// The overview's table of failed checkpoints (below the checkpoint timeline,
// ./checkpoint-timeline.tsx): each with its schema, batch, failing checks and
// record, a page at a time; its number links to its segment on the timeline.
// Texts from the log are text.
import { useMemo, useState } from 'react';
import type { Coverage } from '../../lib/overview/checkpoint-coverage';
import { failingChecks, formatRange, formatSeq, schemaName } from '../../lib/overview/timeline-labels';
import type { ReportCheckpoint } from '../../lib/verdict/report';
import { SafeText } from '../ui/safe-text';

const TABLE_PAGE = 50;

/** Following a link to the fragment already in the URL fires no hashchange: fire one, so its segment is focused again. */
export function refocusAnchor(href: string): void {
  if (window.location.hash === href) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function FailedCheckpoints({ coverage }: { coverage: Coverage }) {
  const rows = useMemo(
    () => coverage.lanes.flatMap((l) => l.runs.flatMap((r) => r.checkpoints.filter((c) => c.verdict === 'failed').map((c) => ({ c, anchor: r.id })))),
    [coverage],
  );
  const [shown, setShown] = useState(TABLE_PAGE);
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="failed-checkpoints-none">
        No checkpoint failed.
      </p>
    );
  return (
    <>
      <h3>Failed checkpoints ({rows.length.toLocaleString('en-US')})</h3>
      <table className="grid compact" data-testid="failed-checkpoints">
        <thead>
          <tr>
            <th scope="col">checkpoint</th>
            <th scope="col">schema</th>
            <th scope="col">batch</th>
            <th scope="col">failing check</th>
            <th scope="col">detail</th>
            <th scope="col">record</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map(({ c, anchor }) => (
            <FailedRow key={`${c.file}\n${c.line}`} c={c} anchor={anchor} />
          ))}
        </tbody>
      </table>
      {shown < rows.length && (
        <button type="button" className="button" onClick={() => setShown((n) => n + TABLE_PAGE * 4)}>
          Show {Math.min(TABLE_PAGE * 4, rows.length - shown)} more ({rows.length - shown} not shown)
        </button>
      )}
    </>
  );
}

function FailedRow({ c, anchor }: { c: ReportCheckpoint; anchor: string }) {
  const why = failingChecks(c);
  return (
    <tr data-checkpoint-seq={String(c.checkpoint_seq)}>
      <th scope="row">
        <a href={`#${anchor}`} onClick={() => refocusAnchor(`#${anchor}`)}>
          {formatSeq(c.checkpoint_seq)}
        </a>
      </th>
      <td>
        <SafeText text={schemaName(c.schema)} max={60} />
      </td>
      <td>{formatRange({ start: c.batch_start_seq, end: c.batch_end_seq })}</td>
      <td>
        {why.map((f) => (
          <div key={f.check}>
            {f.check} ({f.status})
          </div>
        ))}
      </td>
      <td>
        {why.map((f) => (
          <div key={f.check}>
            <SafeText text={f.detail ?? '–'} max={300} />
          </div>
        ))}
      </td>
      <td>
        <SafeText text={`${c.file}:${c.line}`} max={120} />
      </td>
    </tr>
  );
}
