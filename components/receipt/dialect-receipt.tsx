'use client';
// The page of a ZeroClaw or CodeWhale receipt: what it can prove first, in
// plain words, then the log's verdict with one line per check, its problems,
// and the facts the audit read from it (lib/dialects/zeroclaw/audit.ts, codewhale/audit.ts). These receipts
// are not read again from their source (the audit's facts are their page), and
// share links re-verify Chio receipts from a signed bundle, which these do not
// have: no share panel. Every string from the log renders as text (SafeText).
import { Fragment } from 'react';
import { PROBLEM_TITLE, type Problem } from '../../lib/verdict/problems';
import type { ReportReceipt } from '../../lib/verdict/report';
import { useLogOpener } from '../data/log-contexts';
import { useDialect } from '../data/dialect-provider';
import { formatTime } from '../explorer/format';
import { DialectInputsPanel } from '../loader/dialect-inputs';
import { SafeText } from '../ui/safe-text';
import { Checklist, ReceiptHeading } from './receipt-detail';

const SHARE = 'A share link carries a Chio receipt with its signed checkpoint so that someone else can verify it again';
const UNSIGNED_BANNER = 'Unsigned: an integrity check, not an authenticity check. Anyone can write or edit this receipt.';
const UNSIGNED_SHARE = `${SHARE}; this receipt has no signature to carry, so it has no share link.`;

const RUNTIME: Record<string, { name: string; banner: string; proves: string; share: string }> = {
  zeroclaw: {
    name: 'ZeroClaw tool receipt',
    banner: "HMAC tag: checkable only with the runtime's ephemeral key; without it the signature check is skipped, never passed.",
    proves:
      'ZeroClaw keeps its key in memory only, one per receipt scope, and never writes it down. With the key, the tag shows this tool ran with these arguments and returned this output; without it, only that the string is well-formed and that the replies quoting it match a tool result of their turn.',
    share: `${SHARE}; a ZeroClaw tag can be checked only by the holder of its key, so this receipt has no share link.`,
  },
  'codewhale-review': {
    name: 'CodeWhale review receipt',
    banner: UNSIGNED_BANNER,
    proves:
      'Checked against the diff you supply, it shows the review was written for that diff and what it reported; never who reviewed, or that the review happened.',
    share: UNSIGNED_SHARE,
  },
  'codewhale-turn': {
    name: 'CodeWhale turn receipt (draft format)',
    banner: UNSIGNED_BANNER,
    proves:
      "Its checks are this project's consistency rules for CodeWhale's draft format: whether the receipt agrees with itself, never that the turn happened as it says.",
    share: UNSIGNED_SHARE,
  },
};

export interface DialectEntry {
  receipt: ReportReceipt;
  facts: [string, string][];
  /** Unix seconds, NaN when the receipt has no usable time. */
  time: number;
}

const VERDICT_CLASS: Record<string, string> = { verified: 'ok', failed: 'bad', unverified: 'warn' };

/** What the key or the diff would change for this receipt, when the user has not supplied it. */
function missingInput(r: ReportReceipt): 'key' | 'diff' | null {
  if (r.type === 'zeroclaw' && r.checks.signature === 'skipped') return 'key';
  if (r.type === 'codewhale-review' && r.checks.diff_fingerprint === 'skipped') return 'diff';
  return null;
}

/** `entries`: the log's receipts with this id, in log order (two CodeWhale reviews of one diff in one second share it). */
export function DialectReceipt({ id, entries, problems, label }: { id: string; entries: DialectEntry[]; problems: Problem[]; label: string }) {
  const { sources } = useLogOpener();
  const { dialect, setDialect } = useDialect();
  const first = entries[0]!.receipt;
  const runtime = RUNTIME[first.type]!;
  const missing = entries.map((e) => missingInput(e.receipt)).find((m) => m !== null) ?? null;
  // One receipt: its parts are the page's sections; several: each receipt is one, its parts below it.
  const Part = entries.length > 1 ? 'h3' : 'h2';
  return (
    <article className="receipt dialect-receipt" data-type={first.type}>
      <ReceiptHeading id={id} />
      <p className="muted">{runtime.name}</p>
      <div role="note" className="banner warn" data-testid="dialect-banner">
        <strong>{runtime.banner}</strong>
      </div>
      <p>{runtime.proves}</p>
      {entries.length > 1 && (
        <p className="banner warn" data-testid="dialect-shared-id">
          {entries.length} receipts of this log share this id (CodeWhale names a review by the second it was written and its diff): each is shown below, with
          where it was read.
        </p>
      )}
      {entries.map((e, i) => (
        <section key={i} className="dialect-entry" data-testid="dialect-entry" data-file={e.receipt.file} data-line={e.receipt.line}>
          {entries.length > 1 && (
            <h2>
              <SafeText text={`${e.receipt.file}:${e.receipt.line}`} max={160} />
            </h2>
          )}
          <p data-testid="receipt-verdict" data-verdict={e.receipt.verdict} className={`banner ${VERDICT_CLASS[e.receipt.verdict] ?? 'bad'}`}>
            <strong>{e.receipt.verdict}</strong> — {RUNTIME[e.receipt.type]?.name ?? e.receipt.type},{' '}
            <SafeText text={`${e.receipt.file}:${e.receipt.line}`} max={120} />
            {Number.isNaN(e.time) ? '' : <>, at {formatTime(e.time)} UTC</>}. Checked in this browser, in <SafeText text={label} max={120} />.
            {e.receipt.type !== 'zeroclaw' && e.receipt.verdict === 'unverified' ? ' An unsigned receipt is never verified, however its checks come out.' : ''}
          </p>
          <Part>Checks</Part>
          <Checklist checks={e.receipt.checks} type={e.receipt.type} {...(e.receipt.details ? { details: e.receipt.details } : {})} />
          <Part>What the receipt says</Part>
          {e.facts.length === 0 ? (
            <p className="muted">The audit recorded no facts for this receipt.</p>
          ) : (
            <dl className="facts dialect-facts" data-testid="dialect-facts">
              {e.facts.map(([k, v], j) => (
                <Fragment key={j}>
                  <dt>
                    <SafeText text={k} max={80} />
                  </dt>
                  <dd>
                    <SafeText text={v} max={2000} multiline />
                  </dd>
                </Fragment>
              ))}
            </dl>
          )}
        </section>
      ))}
      {problems.length > 0 && (
        <>
          <h2>Problems</h2>
          <ul data-testid="receipt-problems">
            {problems.map((p, i) => (
              <li key={i} data-code={p.code}>
                <strong>{PROBLEM_TITLE[p.code]}</strong> <code>{p.code}</code>
                {p.file !== undefined && (
                  <>
                    {' '}
                    at <SafeText text={`${p.file}${p.line !== undefined ? `:${p.line}` : ''}`} max={120} />
                  </>
                )}
                : <SafeText text={p.message} max={600} />
              </li>
            ))}
          </ul>
        </>
      )}
      {missing && (
        <>
          <h2>{missing === 'key' ? 'Check the tag with a key' : 'Check the review against its diff'}</h2>
          <DialectInputsPanel value={dialect} onApply={setDialect} hasLog={sources !== null} open />
        </>
      )}
      <p className="muted" data-testid="no-share-note">
        {runtime.share}
      </p>
    </article>
  );
}
