'use client';
// The bearer token for this server's /v1 API, when the server requires one
// (RECEIPT_API_TOKEN). A link may carry it (`#token=…` or `?token=…`,
// lib/query/url-token.ts): it is taken out of the address bar as soon as this
// module runs, before the page's own code makes any request. It lives in memory
// and in this tab's sessionStorage (so a reload in the tab still opens the log),
// never in localStorage, IndexedDB, cookies or the Cache API, and goes only to
// this origin as `Authorization: Bearer` (lib/workers/log-worker.ts).
import { takeTokenFromUrl } from '../../lib/query/url-token';

const STORAGE = 'receipt-audit.api-token.v1';

let token: string | null = null;
/** Whether the address this page was loaded with carried a token (see `syncAddressBar`). */
let fromUrl = false;

/** Removes a token from the address bar (history.replaceState, no navigation); returns what was taken. */
function stripAddressBar(state: unknown): ReturnType<typeof takeTokenFromUrl> {
  const taken = takeTokenFromUrl(window.location.href);
  if (taken) window.history.replaceState(state, '', taken.href);
  return taken;
}

if (typeof window !== 'undefined') {
  const taken = stripAddressBar(window.history.state);
  if (taken) {
    fromUrl = true;
    if (taken.token !== null) saveApiToken(taken.token);
  }
}

/**
 * After the router has mounted: Next.js may have read the address before this module ran and
 * written it back on mount, so the token is stripped again; and once through the router's own
 * history hook (state `null`), so its idea of the current URL (useSearchParams) drops it too.
 */
export function syncAddressBar(): () => void {
  if (!fromUrl) return () => undefined;
  stripAddressBar(window.history.state);
  const timer = setTimeout(() => {
    fromUrl = false;
    window.history.replaceState(null, '', takeTokenFromUrl(window.location.href)?.href ?? window.location.href);
  }, 0);
  return () => clearTimeout(timer);
}

export function readApiToken(): string | null {
  if (token !== null) return token;
  try {
    token = sessionStorage.getItem(STORAGE);
  } catch {
    // storage blocked: memory only
  }
  return token;
}

/** Keeps the token for this tab (null forgets it). */
export function saveApiToken(next: string | null): void {
  token = next;
  try {
    if (next === null) sessionStorage.removeItem(STORAGE);
    else sessionStorage.setItem(STORAGE, next);
  } catch {
    // storage blocked: memory only, so a reload asks again
  }
}
