// Server side only: what the server writes to its logs never carries an API token (issue 20). A
// link may carry the token as `?token=…` (lib/query/url-token.ts takes it out of the address bar,
// but the first request has already reached the server), and an error's message or stack may
// quote a URL or a header. Every request-log line and every error this server logs goes through
// `redactSecrets` first.

const TOKEN_PARAM = /([?&#;]token=)[^&#\s"'<>]*/gi;
const BEARER = /(\bBearer\s+)[^\s"',;]+/gi;
/** user:password@ in a URL (CLICKHOUSE_URL may carry them into a cluster error). */
const USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s"'<>]+@/gi;

/** `text` with every `token=` value, bearer credential and URL user info replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(TOKEN_PARAM, '$1[redacted]').replace(BEARER, '$1[redacted]').replace(USERINFO, '$1[redacted]@');
}

/** A request as a log names it: method, path and query, secrets redacted. */
export function requestLabel(request: Request): string {
  const { pathname, search } = new URL(request.url);
  return `${request.method} ${redactSecrets(pathname + search)}`;
}

/** Logs a failed request as one line: what failed (method and redacted path) and the error, redacted. */
export function logServerError(what: string, e: unknown): void {
  const detail = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
  process.stderr.write(`${redactSecrets(`${what} failed: ${detail}`)}\n`);
}
