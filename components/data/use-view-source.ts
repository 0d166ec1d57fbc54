'use client';
// A page that accepts `?source=` (a link to a receipt in its log): which log it shows, and the
// consent that a log on another origin needs before anything is fetched from it (issue 20). The
// log provider opens a `?source=` log for this view only and refuses to open one from an origin
// the user has not approved; this hook says which of those states the page is in.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { readSourceParam } from '../../lib/share/source-param';
import type { LogSource } from '../../lib/workers/protocol';
import { useLogOpener } from './log-contexts';
import { useViewOrigins } from './view-origins-provider';

export type ViewSource =
  /** Before the page knows its own origin (the first render). */
  | { status: 'pending' }
  /** No `?source=`: the page shows the tab's log. */
  | { status: 'tab' }
  /** A `?source=` that is not a log address this page opens. */
  | { status: 'invalid'; param: string; message: string }
  /** A log on another origin, not approved yet: nothing has been fetched from it. */
  | { status: 'consent'; origin: string; url: string; approve: () => void; decline: () => void }
  | { status: 'declined'; origin: string; url: string }
  /** The view's own log (this server's, or an approved origin's): `param` is its `?source=` value, for links within the view. */
  | { status: 'view'; sources: LogSource[]; param: string };

/**
 * `param`: the page's `?source=` value (null without one). `ready`: the open log is the one this
 * page shows (the tab's, or this view's: which may be the tab's own log when the link names it),
 * so its session and rows may be rendered.
 */
export function useViewSource(param: string | null): { view: ViewSource; ready: boolean } {
  const { ensureOpen, openView, sources, openRole } = useLogOpener();
  const { approvedOrigins, approveOrigin } = useViewOrigins();
  const [pageOrigin, setPageOrigin] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  useEffect(() => setPageOrigin(window.location.origin), []);
  const parsed = useMemo(() => (param === null || pageOrigin === null ? null : readSourceParam(param, pageOrigin)), [param, pageOrigin]);
  const origin = parsed?.ok ? parsed.foreign : null;
  const url = parsed?.ok ? parsed.url : null;
  const approve = useCallback(() => {
    if (origin !== null) approveOrigin(origin);
  }, [origin, approveOrigin]);
  const decline = useCallback(() => setDeclined(url), [url]);

  // Asks the provider for the log: it opens a view's log only once its origin is approved.
  useEffect(() => {
    if (pageOrigin === null) return;
    if (param === null) ensureOpen();
    else if (parsed?.ok) openView(parsed.sources);
  }, [pageOrigin, param, parsed, ensureOpen, openView]);

  const view: ViewSource =
    pageOrigin === null
      ? { status: 'pending' }
      : param === null || parsed === null
        ? { status: 'tab' }
        : !parsed.ok
          ? { status: 'invalid', param, message: parsed.message }
          : origin !== null && declined === url
            ? { status: 'declined', origin, url: url! }
            : origin !== null && !approvedOrigins.has(origin)
              ? { status: 'consent', origin, url: url!, approve, decline }
              : { status: 'view', sources: parsed.sources, param };
  const ready =
    view.status === 'tab'
      ? openRole === 'default'
      : view.status === 'view'
        ? openRole !== null && JSON.stringify(sources) === JSON.stringify(view.sources)
        : false;
  return { view, ready };
}
