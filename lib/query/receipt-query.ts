// The filter set of Chio's receipt query, `GET /v1/receipts/query` (chio-format.md §11.2), and
// its URL codec: `parseReceiptQuery` for the server, `toSearchParams` for clients, and
// `toFilterKey` for caches that must not depend on the page (cursor, limit).
//
// Every parameter is attacker-controlled. Parsing is strict and never throws: unknown or repeated
// parameters, empty values, and numbers that do not round-trip exactly (`1e3`, `+5`, ` 5`, `007`)
// are issues naming the parameter, and all issues are reported, not just the first.
// Deliberate policies where Chio's spec is silent:
// - u64 parameters (cursor, since, until, minCost, maxCost) are bigints in 0..2^64-1, like
//   Chio's `Option<u64>`; the store layer maps values beyond SQLite's i64 exactly.
// - Strings are non-empty and at most MAX_STRING_LENGTH UTF-16 units (URLSearchParams already
//   holds well-formed Unicode: bad percent-escapes and lone surrogates become U+FFFD).
// - since ≤ until and minCost ≤ maxCost, or the query is rejected (an empty window is a mistake).

export const RECEIPT_OUTCOMES = ['allow', 'deny', 'cancelled', 'incomplete'] as const;
export type ReceiptOutcome = (typeof RECEIPT_OUTCOMES)[number];

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
export const U64_MAX = (1n << 64n) - 1n;
export const MAX_STRING_LENGTH = 1024;
/** Issues listed before the rest are summarized (a hostile URL may carry thousands). */
export const MAX_ISSUES = 20;

export interface ReceiptQuery {
  capabilityId?: string;
  toolServer?: string;
  toolName?: string;
  outcome?: ReceiptOutcome;
  /** Inclusive Unix seconds. */
  since?: bigint;
  /** Inclusive Unix seconds. */
  until?: bigint;
  /** Inclusive, minor units of metadata.financial.cost_charged. */
  minCost?: bigint;
  /** Inclusive, minor units of metadata.financial.cost_charged. */
  maxCost?: bigint;
  /** Exclusive seq: the page starts after it. */
  cursor?: bigint;
  /** 1..MAX_LIMIT. */
  limit: number;
  agentSubject?: string;
  /**
   * The kernel whose log the receipts are in (64 lowercase hex digits). A fleet served from
   * ClickHouse filters on it; a server of one store refuses it.
   */
  kernelKey?: string;
}

export interface ReceiptQueryIssue {
  param: string;
  message: string;
}

export type ReceiptQueryParse = { ok: true; query: ReceiptQuery } | { ok: false; issues: ReceiptQueryIssue[] };

type StringParam = 'capabilityId' | 'toolServer' | 'toolName' | 'agentSubject';
type U64Param = 'since' | 'until' | 'minCost' | 'maxCost' | 'cursor';

const STRING_PARAMS: readonly StringParam[] = ['capabilityId', 'toolServer', 'toolName', 'agentSubject'];
const U64_PARAMS: readonly U64Param[] = ['since', 'until', 'minCost', 'maxCost', 'cursor'];
/** Also the order `toSearchParams` writes them in. */
const FILTER_PARAMS = ['capabilityId', 'toolServer', 'toolName', 'outcome', 'since', 'until', 'minCost', 'maxCost', 'agentSubject', 'kernelKey'] as const;
const KERNEL_KEY = /^[0-9a-f]{64}$/;
const KNOWN_PARAMS: ReadonlySet<string> = new Set<string>([...FILTER_PARAMS, 'cursor', 'limit']);

const PLAIN_DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const INTEGER_RULE = 'digits only: no sign, exponent, spaces or leading zeros';

/** A parameter name as it may appear in a message: attacker-controlled, so bounded. */
function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}

function unknownMessage(name: string): string {
  const folded = name.replace(/[_-]/g, '').toLowerCase();
  const near = [...KNOWN_PARAMS].find((k) => k.toLowerCase() === folded);
  return near ? `unknown parameter; did you mean ${near}?` : 'unknown parameter';
}

function parseU64(value: string): bigint | string {
  if (value.length > 20 || !PLAIN_DECIMAL.test(value)) return `must be a plain decimal integer (${INTEGER_RULE})`;
  const n = BigInt(value);
  return n > U64_MAX ? 'must be at most 18446744073709551615 (u64)' : n;
}

function parseLimit(value: string): number | string {
  if (!PLAIN_DECIMAL.test(value)) return `must be a plain decimal integer (${INTEGER_RULE})`;
  const n = value.length > 3 ? Infinity : Number(value);
  return n >= 1 && n <= MAX_LIMIT ? n : `must be between 1 and ${MAX_LIMIT}`;
}

function stringProblem(value: string): string | null {
  if (value === '') return 'must not be empty (omit the parameter instead)';
  if (value.length > MAX_STRING_LENGTH) return `must be at most ${MAX_STRING_LENGTH} characters`;
  return null;
}

function isOutcome(value: string): value is ReceiptOutcome {
  return (RECEIPT_OUTCOMES as readonly string[]).includes(value);
}

/** One value per known name; unknown and repeated names become issues. */
function collect(params: URLSearchParams, issues: ReceiptQueryIssue[]): Map<string, string> {
  const values = new Map<string, string>();
  const repeated = new Set<string>();
  for (const [name, value] of params) {
    if (!KNOWN_PARAMS.has(name)) issues.push({ param: shown(name), message: unknownMessage(name) });
    else if (values.has(name)) repeated.add(name);
    else values.set(name, value);
  }
  for (const name of repeated) issues.push({ param: name, message: 'given more than once' });
  return values;
}

function readValues(values: Map<string, string>, issues: ReceiptQueryIssue[]): ReceiptQuery {
  const query: ReceiptQuery = { limit: DEFAULT_LIMIT };
  for (const name of STRING_PARAMS) {
    const v = values.get(name);
    if (v === undefined) continue;
    const problem = stringProblem(v);
    if (problem) issues.push({ param: name, message: problem });
    else query[name] = v;
  }
  for (const name of U64_PARAMS) {
    const v = values.get(name);
    if (v === undefined) continue;
    const n = parseU64(v);
    if (typeof n === 'string') issues.push({ param: name, message: n });
    else query[name] = n;
  }
  const outcome = values.get('outcome');
  if (outcome !== undefined) {
    if (isOutcome(outcome)) query.outcome = outcome;
    else issues.push({ param: 'outcome', message: `must be one of ${RECEIPT_OUTCOMES.join(', ')}` });
  }
  const kernelKey = values.get('kernelKey');
  if (kernelKey !== undefined) {
    if (KERNEL_KEY.test(kernelKey)) query.kernelKey = kernelKey;
    else issues.push({ param: 'kernelKey', message: 'must be a kernel key: 64 lowercase hex digits' });
  }
  const limit = values.get('limit');
  if (limit !== undefined) {
    const n = parseLimit(limit);
    if (typeof n === 'string') issues.push({ param: 'limit', message: n });
    else query.limit = n;
  }
  return query;
}

function checkRanges(q: ReceiptQuery, issues: ReceiptQueryIssue[]): void {
  if (q.since !== undefined && q.until !== undefined && q.since > q.until) {
    issues.push({ param: 'since', message: 'must not be after until' });
  }
  if (q.minCost !== undefined && q.maxCost !== undefined && q.minCost > q.maxCost) {
    issues.push({ param: 'minCost', message: 'must not be greater than maxCost' });
  }
}

/** Strict parse of the query string of `GET /v1/receipts/query`. Never throws. */
export function parseReceiptQuery(params: URLSearchParams): ReceiptQueryParse {
  const issues: ReceiptQueryIssue[] = [];
  const query = readValues(collect(params, issues), issues);
  checkRanges(query, issues);
  if (issues.length === 0) return { ok: true, query };
  if (issues.length <= MAX_ISSUES) return { ok: false, issues };
  const more = issues.length - MAX_ISSUES;
  return { ok: false, issues: [...issues.slice(0, MAX_ISSUES), { param: '…', message: `${more} more problem(s) not listed` }] };
}

function append(out: URLSearchParams, q: ReceiptQuery, name: (typeof FILTER_PARAMS)[number] | 'cursor'): void {
  const v = q[name];
  if (v !== undefined) out.append(name, String(v));
}

/** The inverse of `parseReceiptQuery` (a valid query round-trips); `limit` only when not the default. */
export function toSearchParams(query: ReceiptQuery): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of FILTER_PARAMS) append(out, query, name);
  append(out, query, 'cursor');
  if (query.limit !== DEFAULT_LIMIT) out.append('limit', String(query.limit));
  return out;
}

/** The filter set alone (no cursor, no limit) as a canonical string: a key for counts and caches. */
export function toFilterKey(query: ReceiptQuery): string {
  const out = new URLSearchParams();
  for (const name of FILTER_PARAMS) append(out, query, name);
  return out.toString();
}
