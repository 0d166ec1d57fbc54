// Server side only: the JSON responses of the /v1 API. Errors are `{error: {code, message,
// param?, issues?}}` with a fixed code per kind; messages never carry file paths, SQL or stack
// traces (those go to the server log). Every response is `cache-control: no-store`: receipts
// and counts change as the store grows, and a bearer-protected answer must not sit in caches.
// Every response also carries the security headers and the no-nonce CSP itself (proxy.ts sets the
// same ones under Next), so an answer sent before or without the proxy has them too.
import { SECURITY_HEADERS, contentSecurityPolicy } from './security-headers';

/** Every error code the /v1 API answers with (a closed list; clients may switch on it). */
export type ApiErrorCode =
  | 'invalid_parameter'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'store_unavailable'
  | 'proofs_unavailable'
  | 'result_too_large'
  | 'rate_limited'
  | 'internal_error';

export interface ApiIssue {
  param: string;
  message: string;
}

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; param?: string; issues?: ApiIssue[] };
}

/**
 * An error before it is a response: what a backend (backend.ts) returns in `{ok: false, error}`.
 * apiErrorResponse is the one place it becomes HTTP.
 */
export interface ApiError {
  status: number;
  code: ApiErrorCode;
  message: string;
  param?: string;
  issues?: ApiIssue[];
}

export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  ...SECURITY_HEADERS,
  'content-security-policy': contentSecurityPolicy(null),
};

/**
 * Whether `url`'s path or query holds malformed percent-encoding: a `%` not followed by two hex
 * digits, or escapes that do not decode to UTF-8. URL parsers pass such bytes on as they are, and
 * two readers would then disagree on what was asked; the API answers 400 instead.
 */
export function malformedPercentEncoding(url: string): boolean {
  const at = url.indexOf('#');
  const raw = at < 0 ? url : url.slice(0, at);
  if (/%(?![0-9a-fA-F]{2})/.test(raw)) return true;
  // Each run of escapes must decode as UTF-8 (a lone %FF, an overlong or a surrogate does not).
  for (const run of raw.match(/(?:%[0-9a-fA-F]{2})+/g) ?? []) {
    try {
      decodeURIComponent(run);
    } catch {
      return true;
    }
  }
  return false;
}

export function malformedUrl(): Response {
  return errorResponse(
    400,
    'invalid_parameter',
    'the URL holds malformed percent-encoding (a % not followed by two hex digits, or escapes that are not UTF-8)',
    { param: 'url' },
  );
}

/** A 200 with a body that is already JSON bytes (e.g. the receipt page, spliced from raw_json). */
export function jsonBytes(body: Uint8Array, status = 200): Response {
  return new Response(body as BodyInit, { status, headers: JSON_HEADERS });
}

export function errorResponse(
  status: number,
  code: ApiErrorCode,
  message: string,
  extra: { param?: string; issues?: ApiIssue[]; headers?: Record<string, string> } = {},
): Response {
  const error: ApiErrorBody['error'] = { code, message };
  if (extra.param !== undefined) error.param = extra.param;
  if (extra.issues !== undefined) error.issues = extra.issues;
  return new Response(JSON.stringify({ error } satisfies ApiErrorBody), { status, headers: { ...JSON_HEADERS, ...extra.headers } });
}

/** The response of an ApiError: `{error: {code, message, param?, issues?}}` with its status. */
export function apiErrorResponse(e: ApiError): Response {
  return errorResponse(e.status, e.code, e.message, { param: e.param, issues: e.issues });
}

/** 400 naming the first bad parameter, with every issue listed. */
export function invalidParameters(issues: ApiIssue[]): ApiError {
  const first = issues[0] ?? { param: '', message: 'invalid query' };
  return { status: 400, code: 'invalid_parameter', message: `${first.param}: ${first.message}`, param: first.param, issues };
}

/** One bad parameter (see invalidParameters). */
export function invalidParameter(param: string, message: string): ApiError {
  return invalidParameters([{ param, message }]);
}

export function badParameters(issues: ApiIssue[]): Response {
  return apiErrorResponse(invalidParameters(issues));
}

export function methodNotAllowed(allow: string): Response {
  return errorResponse(405, 'method_not_allowed', `use ${allow}`, { headers: { allow } });
}

export function notFound(): Response {
  return errorResponse(404, 'not_found', 'no such endpoint');
}

/** The store is missing or is not a Chio receipt store; the message does not say where it is. */
export function storeUnavailable(detail: string): ApiError {
  return { status: 503, code: 'store_unavailable', message: `receipt store unavailable: ${detail}` };
}

export function internalError(): Response {
  return errorResponse(500, 'internal_error', 'internal error');
}
