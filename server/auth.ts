// Server side only: bearer-token auth for every /v1 request (chio-format.md §11.2: "All
// endpoints use Authorization: Bearer <service token>"). When RECEIPT_API_TOKEN is unset or
// empty the API is open, as in the local demo; when it is set, a request without the exact
// token gets 401, `WWW-Authenticate: Bearer` (RFC 6750) and no data. Tokens are compared as
// SHA-256 digests with timingSafeEqual, so the time taken says nothing about the token or its
// length.
import { createHash, timingSafeEqual } from 'node:crypto';
import { errorResponse } from './http';

const REALM = 'receipt-audit';
const BEARER = /^Bearer +([^\s]+) *$/i;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The presented token: scheme case-insensitive (RFC 7235), exactly one token after it. */
export function bearerToken(header: string): string | null {
  return BEARER.exec(header)?.[1] ?? null;
}

export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Null when the request may proceed; otherwise the 401 to send (RFC 6750 §3 challenge). */
export function checkBearer(request: Request, expected: string | undefined): Response | null {
  if (expected === undefined || expected === '') return null;
  const header = request.headers.get('authorization');
  const presented = header === null ? null : bearerToken(header);
  if (presented !== null && tokenMatches(presented, expected)) return null;
  const [error, message] =
    header === null
      ? [null, 'a bearer token is required']
      : presented === null
        ? ['invalid_request', 'the Authorization header is not "Bearer <token>"']
        : ['invalid_token', 'the bearer token is not valid'];
  const challenge = `Bearer realm="${REALM}"${error ? `, error="${error}"` : ''}`;
  return errorResponse(401, 'unauthorized', message, { headers: { 'www-authenticate': challenge } });
}
