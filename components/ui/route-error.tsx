'use client';
// What a route shows when it failed to render (each app/**/error.tsx, and app/global-error.tsx
// for the root layout): which page failed, in plain words; the error's own message when it has a
// readable one (never a stack: error-text.ts), or the server's reference; "Try again"; and a way
// home. The message goes through SafeText: it can quote what a log held.
import Link from 'next/link';
import { SafeText } from './safe-text';
import { errorText } from './error-text';

/** What Next.js gives an error.tsx: what was thrown (anything, in this browser), and ways to render again. */
export interface BoundaryProps {
  error: unknown;
  /** Renders the segment again. */
  reset: () => void;
  /** Fetches the segment from the server again, then renders it (Next.js 16; preferred when present). */
  retry?: () => void;
}

export interface RouteErrorProps extends BoundaryProps {
  /** The page for people, as the heading names it: "The DAG view". */
  page: string;
  /** `reload`: the way home loads the page afresh (the root layout itself failed). */
  home?: 'link' | 'reload';
}

export function RouteError({ page, error, reset, retry, home = 'link' }: RouteErrorProps) {
  const { message, digest } = errorText(error);
  const homeLabel = 'Go to the overview';
  return (
    <main id="content" tabIndex={-1} className="route-error">
      <section role="alert" className="banner bad" data-testid="route-error" aria-labelledby="route-error-title">
        <h1 id="route-error-title">{page} could not be shown</h1>
        {digest !== null ? (
          <p>
            The server failed while rendering it. Its log names this failure <code>{digest}</code>.
          </p>
        ) : message !== null ? (
          <p>
            It failed in this browser: <SafeText text={message} max={300} />
          </p>
        ) : (
          <p>It failed in this browser.</p>
        )}
        <p className="muted">Your pinned keys and remembered checkpoints are kept in this browser: a page that fails does not change them.</p>
        <p className="route-error-actions">
          <button type="button" className="button" onClick={retry ?? reset} data-testid="route-error-retry">
            Try again
          </button>
          {home === 'link' ? (
            <Link href="/" className="button" data-testid="route-error-home">
              {homeLabel}
            </Link>
          ) : (
            <a href="/" className="button" data-testid="route-error-home">
              {homeLabel}
            </a>
          )}
        </p>
      </section>
    </main>
  );
}
