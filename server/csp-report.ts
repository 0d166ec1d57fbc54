// Server side only: `POST /v1/csp-report`, where browsers report Content-Security-Policy
// violations (issue 7, deliverable 3). Accepts the legacy `application/csp-report` body
// (`{"csp-report": {…}}`, sent for `report-uri`) and the Reporting API's
// `application/reports+json` (an array of `{type: "csp-violation", body: {…}}`). Each report
// becomes one JSON line, the same shape for both formats, written to stderr after the prefix
// `csp-violation ` and, when RECEIPT_AUDIT_CSP_LOG names a file, appended to it (the e2e tests
// read it). No bearer token: a browser sends reports without one. The body is attacker-
// controlled: capped at 64 KiB, and only known fields are kept, as strings or numbers.
//
// Compact and rate-limited (issue 20): each field is clipped to MAX_FIELD_CHARS (a line is at
// most about 2 KB), at most MAX_REPORTS_PER_MINUTE violations are logged per minute per server
// process (anyone can post here), and the rest are answered 429 with Retry-After, counted, and
// summed up in one `csp-violation-dropped {"count":N}` line when the next minute's first report
// is logged.
import { appendFileSync } from 'node:fs';
import { readCapped } from '../lib/bytes/read-capped';
import { JSON_HEADERS, errorResponse, methodNotAllowed } from './http';

export const MAX_REPORT_BYTES = 64 * 1024;
/** Enough for a URL with a query, a directive, or a script sample's first line; 11 fields make ~2 KB. */
export const MAX_FIELD_CHARS = 160;
/** Violations logged per minute per process: a page with a broken policy reports a few per load. */
export const MAX_REPORTS_PER_MINUTE = 120;

export interface CspReportEnv {
  [name: string]: string | undefined;
  /** When set, each violation's JSON line is also appended to this file. */
  RECEIPT_AUDIT_CSP_LOG?: string | undefined;
}

/** One violation, whichever format it came in. */
export interface CspViolation {
  format: 'csp-report' | 'reports+json';
  documentUri: string;
  blockedUri: string;
  effectiveDirective: string;
  violatedDirective: string;
  disposition: string;
  sourceFile: string;
  lineNumber: number | null;
  columnNumber: number | null;
  sample: string;
  statusCode: number | null;
}

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Fields, ...keys: string[]): string => {
  for (const k of keys) if (typeof o[k] === 'string') return (o[k] as string).slice(0, MAX_FIELD_CHARS);
  return '';
};
const num = (o: Fields, ...keys: string[]): number | null => {
  for (const k of keys) if (typeof o[k] === 'number' && Number.isFinite(o[k])) return o[k] as number;
  return null;
};

/** `{"csp-report": {…}}` (CSP2 report-uri, kebab-case fields). */
function fromCspReport(body: Fields): CspViolation | null {
  const r = body['csp-report'];
  if (!isObject(r)) return null;
  return {
    format: 'csp-report',
    documentUri: str(r, 'document-uri'),
    blockedUri: str(r, 'blocked-uri'),
    effectiveDirective: str(r, 'effective-directive'),
    violatedDirective: str(r, 'violated-directive'),
    disposition: str(r, 'disposition'),
    sourceFile: str(r, 'source-file'),
    lineNumber: num(r, 'line-number'),
    columnNumber: num(r, 'column-number'),
    sample: str(r, 'script-sample'),
    statusCode: num(r, 'status-code'),
  };
}

/** One Reporting API report of type csp-violation (camelCase fields). */
function fromReportingApi(item: unknown): CspViolation | null {
  if (!isObject(item) || item.type !== 'csp-violation' || !isObject(item.body)) return null;
  const b = item.body;
  return {
    format: 'reports+json',
    documentUri: str(b, 'documentURL'),
    blockedUri: str(b, 'blockedURL'),
    effectiveDirective: str(b, 'effectiveDirective'),
    violatedDirective: str(b, 'effectiveDirective'),
    disposition: str(b, 'disposition'),
    sourceFile: str(b, 'sourceFile'),
    lineNumber: num(b, 'lineNumber'),
    columnNumber: num(b, 'columnNumber'),
    sample: str(b, 'sample'),
    statusCode: num(b, 'statusCode'),
  };
}

/** The violations in a parsed body of the given media type; null when the body is not one. */
export function parseCspReports(mediaType: string, body: unknown): CspViolation[] | null {
  if (mediaType === 'application/csp-report') {
    const one = isObject(body) ? fromCspReport(body) : null;
    return one ? [one] : null;
  }
  if (mediaType === 'application/reports+json') {
    if (!Array.isArray(body)) return null;
    return body.map(fromReportingApi).filter((v): v is CspViolation => v !== null);
  }
  return null;
}

/** The body, or null when it is (or says it is) longer than `max` bytes. */
function readBody(request: Request, max: number): Promise<Uint8Array | null> {
  if (Number(request.headers.get('content-length') ?? '0') > max) return Promise.resolve(null);
  return request.body ? readCapped(request.body, max) : Promise.resolve(new Uint8Array(0));
}

/** Where each violation goes: stderr always, the env's log file when set. */
export function writeViolation(v: CspViolation, env: CspReportEnv): void {
  const line = JSON.stringify(v);
  process.stderr.write(`csp-violation ${line}\n`);
  if (env.RECEIPT_AUDIT_CSP_LOG) appendFileSync(env.RECEIPT_AUDIT_CSP_LOG, `${line}\n`);
}

/** A fixed one-minute window: how many violations were logged in it, and how many dropped. */
const window = { start: 0, logged: 0, dropped: 0 };

/** Takes room for `n` violations in this minute's budget: how many may be logged (the rest are dropped). */
export function admitViolations(n: number, now = Date.now()): number {
  if (now - window.start >= 60_000) {
    if (window.dropped > 0)
      process.stderr.write(`csp-violation-dropped ${JSON.stringify({ count: window.dropped, windowStart: new Date(window.start).toISOString() })}\n`);
    Object.assign(window, { start: now, logged: 0, dropped: 0 });
  }
  const room = Math.max(0, Math.min(n, MAX_REPORTS_PER_MINUTE - window.logged));
  window.logged += room;
  window.dropped += n - room;
  return room;
}

/** Starts a fresh window (tests: each starts with the whole budget). */
export function resetCspRateLimit(): void {
  Object.assign(window, { start: 0, logged: 0, dropped: 0 });
}

export async function handleCspReport(request: Request, env: CspReportEnv): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/csp-report' && mediaType !== 'application/reports+json') {
    return errorResponse(415, 'invalid_parameter', 'content-type must be application/csp-report or application/reports+json', { param: 'content-type' });
  }
  const bytes = await readBody(request, MAX_REPORT_BYTES);
  if (bytes === null) return errorResponse(413, 'invalid_parameter', `the body must be at most ${MAX_REPORT_BYTES} bytes`, { param: 'body' });
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return errorResponse(400, 'invalid_parameter', 'the body is not UTF-8 JSON', { param: 'body' });
  }
  const violations = parseCspReports(mediaType, body);
  if (violations === null) return errorResponse(400, 'invalid_parameter', `the body is not a ${mediaType} report`, { param: 'body' });
  const room = admitViolations(violations.length);
  for (const v of violations.slice(0, room)) writeViolation(v, env);
  if (room < violations.length) {
    const retry = String(Math.max(1, Math.ceil((window.start + 60_000 - Date.now()) / 1000)));
    return errorResponse(
      429,
      'rate_limited',
      `at most ${MAX_REPORTS_PER_MINUTE} CSP violations are logged a minute; ${violations.length - room} of this report were not`,
      { headers: { 'retry-after': retry } },
    );
  }
  return new Response(null, { status: 204, headers: { 'cache-control': JSON_HEADERS['cache-control']! } });
}
