// The API token a link may carry for this server's /v1 API (server/auth.ts):
// `#token=…` (preferred: a fragment never leaves the browser, so it is in no server
// or proxy log and in no Referer) or `?token=…` (accepted, since links are often
// made that way, but the page request itself has then already carried it to the
// server). Either way the page takes it out of the address bar at once.
// Pure: the caller reads and rewrites the address (components/data/api-token.ts).
//
// Attacker-controlled input: a token that could not be a bearer token (RFC 6750
// b64token-ish: visible ASCII, at most MAX_TOKEN_CHARS) is still removed, but not used.

export const MAX_TOKEN_CHARS = 4096;

export interface TakenToken {
  /** The token, or null when the parameter was empty or not a usable bearer token. */
  token: string | null;
  /** The same URL without the token parameter (other parameters and the fragment kept). */
  href: string;
}

/** A usable bearer token: visible ASCII only (a header can carry it), bounded. */
export function isBearerToken(s: string): boolean {
  return s.length > 0 && s.length <= MAX_TOKEN_CHARS && /^[\x21-\x7e]+$/.test(s);
}

/** Removes `token=` from `&`-separated parameters; `+` stays `+` (a token is not form-encoded). */
function take(params: string): { value: string | null; rest: string } | null {
  const parts = params.split('&');
  const at = parts.findIndex((p) => p === 'token' || p.startsWith('token='));
  if (at < 0) return null;
  const raw = parts[at]!.slice('token='.length);
  let value: string | null;
  try {
    value = decodeURIComponent(raw);
  } catch {
    value = null;
  }
  // Every copy goes, so none is left behind in the address bar.
  return { value, rest: parts.filter((p) => p !== 'token' && !p.startsWith('token=')).join('&') };
}

/** The token in `href` (fragment first, then query) and `href` without it; null when there is none. */
export function takeTokenFromUrl(href: string): TakenToken | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  // A share link's fragment is base64url (no `=`, no `&`), so it never reads as `token=`.
  const inHash = take(url.hash.replace(/^#/, ''));
  const inQuery = take(url.search.replace(/^\?/, ''));
  if (!inHash && !inQuery) return null;
  if (inHash) url.hash = inHash.rest;
  if (inQuery) url.search = inQuery.rest;
  const value = inHash?.value ?? inQuery?.value ?? null;
  // `url.hash = ''` still leaves a bare `#` in href; drop it.
  const out = url.href.endsWith('#') ? url.href.slice(0, -1) : url.href;
  return { token: value !== null && isBearerToken(value) ? value : null, href: out };
}
