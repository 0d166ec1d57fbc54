'use client';
// The page of a ZeroClaw or CodeWhale receipt: what it can prove first, in
// plain words, then the log's verdict with one line per check, its problems,
// and the facts the audit read from it (lib/dialects/audit.ts). Share links
// re-verify Chio receipts from a signed bundle; these have none, so there is
// no share panel. Every string from the log renders as text.
import Link from 'next/link';
import { Fragment } from 'react';
import type { Problem } from '../../lib/verify/problems';
import type { ReportReceipt } from '../../lib/verify/report';
import { formatTime } from '../explorer/format';
import { SafeText } from '../ui/safe-text';
import { Checklist } from './receipt-detail';

const RUNTIME: Record<string, { name: string; proves: string; banner: string }> = {
  zeroclaw: {
    name: 'ZeroClaw tool receipt',
    banner:
      "HMAC tag: checkable only with the runtime's ephemeral key. ZeroClaw keeps its key in memory only, per receipt scope; without it the signature check is skipped, never passed.",
    proves:
      'With the key, the tag shows this tool ran with these arguments and returned this output. Without it, only that the string is well-formed and that the replies quoting it match a tool result of their turn.',
  },
  'codewhale-review': {
    name: 'CodeWhale review receipt',
    banner: 'Unsigned: an integrity check, not an authenticity check. Anyone can write or edit this receipt.',
    proves: 'Checked against the diff you supply, it shows the review was written for that diff and what it reported; never who reviewed, or that the review happened.',
  },
  'codewhale-turn': {
    name: 'CodeWhale turn receipt (draft)',
    banner: 'Unsigned: an integrity check, not an authenticity check. Anyone can write or edit this receipt.',
    proves: "Its checks are this project's consistency rules for CodeWhale's draft format: whether the receipt agrees with itself, never that the turn happened as it says.",
  },
};

export function DialectReceipt({ entry, facts, problems, time, label }: { entry: ReportReceipt; facts: [string, string][]; problems: Problem[]; time: number; label: string }) {
  const runtime = RUNTIME[entry.type]!;
  return (
    <article className="receipt">
      <p>
        <Link href="/receipts">← receipts</Link>
      </p>
      <h1>
        <code><SafeText text={entry.id} max={200} /></code>
      </h1>
      <p role="note" className="banner warn" data-testid="dialect-banner">
        <strong>{runtime.banner}</strong>
      </p>
      <p data-testid="receipt-verdict" data-verdict={entry.verdict} className={`banner ${entry.verdict === 'verified' ? 'ok' : 'bad'}`}>
        <strong>{entry.verdict}</strong> — {runtime.name}, <SafeText text={`${entry.file}:${entry.line}`} max={120} />
        {Number.isNaN(time) ? '' : <>, at {formatTime(time)} UTC</>}. Checked in this browser, in <SafeText text={label} max={120} />.
      </p>
      <p className="muted">{runtime.proves}</p>
      <h2>Checks</h2>
      <Checklist checks={entry.checks} type={entry.type} {...(entry.details ? { details: entry.details } : {})} />
      {problems.length > 0 && (
        <>
          <h2>Problems</h2>
          <ul data-testid="receipt-problems">
            {problems.map((p, i) => (
              <li key={i}>
                <code>{p.code}</code> <SafeText text={`${p.file ?? ''}${p.line !== undefined ? `:${p.line}` : ''}`} max={120} /> <SafeText text={p.message} max={600} />
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>What the receipt says</h2>
      <dl className="facts" data-testid="dialect-facts">
        {facts.map(([k, v], i) => (
          <Fragment key={i}>
            <dt>{k}</dt>
            <dd>
              <SafeText text={v} max={2000} />
            </dd>
          </Fragment>
        ))}
      </dl>
      <p className="muted">
        Share links carry a Chio receipt with its signed checkpoint so a colleague can verify it again; a {runtime.name} has no signature to carry, so it has no share
        link. Its place in the log: <SafeText text={`${entry.file}:${entry.line}`} max={120} />.
      </p>
    </article>
  );
}
