'use client';
// The receipt's summary, kept at hand while its page is read: the verdict, how
// its checks came out (a link to them), and the ways to share it (a link to the
// receipt in its log, copied in one click; the share section with the
// self-contained link and the evidence file, whose privacy note stays beside
// them). It sticks to the top of the window on wide screens only: on a phone and
// on paper it sits at the top of the page (app/globals.css, "receipt page" block).
import { useState } from 'react';
import { type RowVerdict, VERDICT_LABEL } from '../../lib/query/row-store';

/** How many checks passed, failed and were skipped, and which failed. */
export function checkSummary(checks: Record<string, string>): { pass: number; fail: number; skipped: number; failed: string[] } {
  const entries = Object.entries(checks);
  const failed = entries.filter(([, s]) => s === 'fail').map(([name]) => name);
  return { pass: entries.filter(([, s]) => s === 'pass').length, fail: failed.length, skipped: entries.filter(([, s]) => s === 'skipped').length, failed };
}

function CopyLinkButton({ link }: { link: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    if (!navigator.clipboard) return setState('failed');
    void navigator.clipboard.writeText(link).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <>
      <button
        type="button"
        className="button"
        data-testid="receipt-bar-copy-link"
        aria-label="Copy link to this receipt in its log"
        title={link}
        onClick={copy}
      >
        Copy link
      </button>
      <span role="status" className="receipt-bar-status">
        {state === 'copied' ? 'Link copied.' : state === 'failed' ? 'Could not copy: the link is under Share.' : ''}
      </span>
    </>
  );
}

/**
 * `sourceLink`: the link to this receipt in its log, when the log is served over HTTP (a log of
 * files on this computer has none); `shareId`: the id of the page's share section, when it has one.
 */
export function ReceiptBar({
  state,
  checks,
  checksId,
  sourceLink,
  shareId,
}: {
  state: RowVerdict;
  checks: Record<string, string>;
  checksId: string;
  sourceLink?: string | null;
  shareId?: string | null;
}) {
  const s = checkSummary(checks);
  const total = s.pass + s.fail + s.skipped;
  return (
    <div className="receipt-bar" role="region" aria-label="Verdict, checks and sharing" data-testid="receipt-bar" data-state={state}>
      <strong className={`receipt-bar-verdict ${state}`} data-testid="receipt-bar-verdict">
        {VERDICT_LABEL[state]}
      </strong>
      <a
        href={`#${checksId}`}
        className="receipt-bar-checks"
        data-testid="receipt-check-summary"
        data-pass={s.pass}
        data-fail={s.fail}
        data-skipped={s.skipped}
      >
        {s.fail === 0 && s.skipped === 0 ? (
          total === 1 ? (
            'its one check passed'
          ) : (
            `all ${total} checks passed`
          )
        ) : (
          <>
            {s.pass} of {total} checks passed
            {s.fail > 0 && (
              <>
                , {s.fail} failed ({s.failed.map((n) => n.replace(/_/g, ' ')).join(', ')})
              </>
            )}
            {s.skipped > 0 && <>, {s.skipped} skipped</>}
          </>
        )}
      </a>
      {(sourceLink || shareId) && (
        <span className="receipt-bar-actions no-print">
          {sourceLink && <CopyLinkButton link={sourceLink} />}
          {shareId && (
            <a href={`#${shareId}`} className="button" data-testid="receipt-bar-share">
              Share…
            </a>
          )}
        </span>
      )}
    </div>
  );
}
