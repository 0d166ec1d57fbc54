'use client';
// What a receipt page shows before it shows a log its link names (`?source=`): the question
// whether to load a log from another origin (nothing is fetched from there before the user
// agrees), the answer when they did not, or why the link's log address is refused (issue 20).
// In the page, never `window.confirm`: the origin is shown as text the user can read and compare.
import Link from 'next/link';
import type { CopyAddress } from '../../lib/query/receipt-address';
import { receiptUrl } from '../../lib/query/receipt-address';
import type { ViewSource } from '../data/use-view-source';
import { SafeText } from '../ui/safe-text';
import { ReceiptHeading } from './receipt-detail';

export function ViewSourceGate({ id, view, at }: { id: string; view: Exclude<ViewSource, { status: 'tab' | 'view' }>; at: CopyAddress }) {
  // The same receipt looked up in this tab's own log instead (a link without `source`).
  const here = receiptUrl(id, at);
  if (view.status === 'pending')
    return (
      <p data-testid="receipt-verdict" data-verdict="pending">
        Reading the link…
      </p>
    );
  if (view.status === 'invalid') {
    return (
      <article className="receipt">
        <ReceiptHeading id={id} />
        <p role="alert" className="banner bad" data-testid="source-invalid">
          This link names a log this page does not open: <SafeText text={view.message} max={200} />. Nothing was loaded.{' '}
          <Link href={here}>Look for this receipt in this tab&apos;s log</Link>.
        </p>
      </article>
    );
  }
  if (view.status === 'declined') {
    return (
      <article className="receipt">
        <ReceiptHeading id={id} />
        <p role="status" className="banner warn" data-testid="source-declined">
          Nothing was loaded from{' '}
          <strong>
            <SafeText text={view.origin} max={200} />
          </strong>
          . <Link href={here}>Look for this receipt in this tab&apos;s own log instead</Link>.
        </p>
      </article>
    );
  }
  return (
    <article className="receipt">
      <ReceiptHeading id={id} />
      <section className="banner warn source-consent" aria-labelledby="source-consent-title" data-testid="source-consent" data-origin={view.origin}>
        <h2 id="source-consent-title">Load a receipt log from another server?</h2>
        <p>
          This link asks this page to load the log of this receipt from{' '}
          <strong className="origin" data-testid="source-consent-origin">
            <SafeText text={view.origin} max={200} />
          </strong>
          , which is not this server ({typeof window === 'undefined' ? '' : window.location.origin}).
        </p>
        <p className="muted source-url">
          Its address:{' '}
          <code>
            <SafeText text={view.url} max={300} />
          </code>
        </p>
        <p>
          Nothing has been loaded from it. If you load it, this browser fetches the log from that server and verifies it here, under the keys pinned in this
          browser. It is opened for this page only: this tab&apos;s own log stays as it is, and the other pages keep showing it.
        </p>
        <p className="consent-actions">
          <button type="button" className="button" data-testid="source-consent-load" onClick={view.approve}>
            Load the log from <SafeText text={view.origin} max={120} expandable={false} />
          </button>{' '}
          <button type="button" className="button" data-testid="source-consent-decline" onClick={view.decline}>
            Do not load it
          </button>
        </p>
      </section>
    </article>
  );
}
