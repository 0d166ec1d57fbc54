'use client';
// Sharing one receipt: a link to it in the log it came from (when that log is
// served over HTTP; it names the copy by file and line, since one id can name
// several receipts, and the recipient's page asks before it loads a log from
// another server than its own), a self-contained link that carries the receipt, its
// checkpoint and its proof in the URL fragment (never sent to a server), and
// the bundle as a file with the receipt-audit command that checks it.
import { useEffect, useState } from 'react';
import type { ReceiptBundle } from '../../lib/sources/receipt-bundle';
import { bundleToNdjson, encodeBundle } from '../../lib/share/bundle';
import type { LogSource } from '../../lib/workers/protocol';
import { type CopyAddress, receiptUrl } from '../../lib/query/receipt-address';
import { shareSourceParam } from '../../lib/share/source-param';
import { downloadText } from '../data/download';

/** A file name safe on every system, from an attacker-chosen id. */
const fileSafe = (id: string) => id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'receipt';

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <p className="share-field">
      <label>
        {label}
        <input readOnly value={value} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button
        type="button"
        className="button"
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </p>
  );
}

/** The section's id, for links to it (the receipt page's summary bar). */
export const SHARE_SECTION_ID = 'share';

/**
 * The link to this copy of the receipt in its log, or null when its log cannot be opened elsewhere
 * (files on this computer). `at`: the copy, by its file and line; `copySource`: the source it was
 * read from (the rows' name). The link names the copy's own source alone, in a log of several too.
 */
export function sourceLinkOf(id: string, at: CopyAddress, copySource: string | null, sources: LogSource[] | null): string | null {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const source = origin ? shareSourceParam(sources, copySource, origin) : null;
  if (!source) return null;
  return `${origin}${receiptUrl(id, { ...(at.file !== undefined ? { file: at.file } : {}), ...(at.line !== undefined ? { line: at.line } : {}) }, source)}`;
}

/** `at`: the copy shared, by its file and line in its log; `copySource`: the source it was read from (the rows' name). */
export function SharePanel({
  id,
  at,
  copySource,
  bundle,
  sources,
  kernelKey,
}: {
  id: string;
  at: CopyAddress;
  copySource: string | null;
  bundle: ReceiptBundle;
  sources: LogSource[] | null;
  kernelKey: string | null;
}) {
  const [fragmentLink, setFragmentLink] = useState<string | null>(null);
  const sourceLink = sourceLinkOf(id, at, copySource, sources);
  useEffect(() => {
    let live = true;
    void encodeBundle(bundle).then((enc) => live && setFragmentLink(`${window.location.origin}/share#${enc}`));
    return () => {
      live = false;
    };
  }, [bundle]);
  const file = `receipt-${fileSafe(id)}.ndjson`;
  const command = `npx receipt-audit verify ${file}${kernelKey ? ` --trust-key ${kernelKey}` : ''}`;
  return (
    <section data-testid="share-panel" id={SHARE_SECTION_ID} aria-labelledby={`${SHARE_SECTION_ID}-title`}>
      <h2 id={`${SHARE_SECTION_ID}-title`}>Share this receipt</h2>
      {sourceLink ? (
        <CopyField
          label={`Link to this receipt in its log, at ${at.file ?? '?'}:${at.line ?? '?'} (the recipient's browser loads the log from its source and verifies it):`}
          value={sourceLink}
          testId="share-source-link"
        />
      ) : (
        <p className="muted">
          This log was opened from files on this computer, so a link to it cannot open elsewhere: share the self-contained link or the file below.
        </p>
      )}
      <p className="banner warn" role="note">
        The self-contained link and the file contain this receipt&apos;s whole content (parameters, tenant, costs): anyone who has them can read it. The part
        after <code>#</code> is never sent to any server, this one included.
      </p>
      {fragmentLink ? (
        <CopyField
          label={`Self-contained link (${fragmentLink.length} characters): the receipt, its checkpoint and inclusion proof, compressed:`}
          value={fragmentLink}
          testId="share-fragment-link"
        />
      ) : (
        <p className="muted">Preparing the self-contained link…</p>
      )}
      <p>
        <button
          type="button"
          className="button"
          data-testid="share-download"
          onClick={() => downloadText(file, bundleToNdjson(bundle), 'application/x-ndjson')}
        >
          Download the evidence ({file})
        </button>{' '}
        and check it with the command line:
      </p>
      {/* Focusable: a long command scrolls sideways, by keyboard too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard (WCAG 2.1.1) */}
      <pre className="code" data-testid="share-command" tabIndex={0}>
        {command}
      </pre>
      {kernelKey && (
        <p className="muted">
          Pin the key only if you know it is the kernel&apos;s: the command checks the signature either way, and the key names who signed.
        </p>
      )}
    </section>
  );
}
