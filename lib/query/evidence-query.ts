// The query of an evidence export (chio-format.md §11.1 `query.json`, §11.2
// `POST /v1/evidence/export` body): which receipts a package covers. Pure;
// strict on hostile input: unknown keys and wrong types are named, never ignored.
import { type ChildReceiptScope, childReceiptScopeOf } from '../verify/package-query';

export interface EvidenceQuery {
  capabilityId?: string;
  agentSubject?: string;
  /** Inclusive Unix seconds. */
  since?: number;
  until?: number;
  tenant?: string;
  /** One kernel of a fleet (64 lowercase hex digits); a server of one store refuses it. */
  kernelKey?: string;
}

/**
 * The query as an export writes it (query.json, manifest.json, the bundle): the request's filters
 * and the read boundary the export was made under (chio-format-v2.md §16.8.2). This project's
 * servers read the whole store or fleet index with one bearer token: `admin_all` (a `tenant`
 * filter stays a filter under it).
 */
export function exportedQuery(q: EvidenceQuery): EvidenceQuery & { readBoundary: { kind: 'admin_all' } } {
  return { ...q, readBoundary: { kind: 'admin_all' } };
}

/** The childReceiptScope an export of `q` states: the value the verifier derives from the query (§16.8.2). */
export function exportChildScope(q: EvidenceQuery): ChildReceiptScope {
  return childReceiptScopeOf({
    ...(q.capabilityId !== undefined ? { capabilityId: q.capabilityId } : {}),
    ...(q.agentSubject !== undefined ? { agentSubject: q.agentSubject } : {}),
    ...(q.tenant !== undefined ? { tenant: q.tenant } : {}),
    ...(q.since !== undefined ? { since: BigInt(q.since) } : {}),
    ...(q.until !== undefined ? { until: BigInt(q.until) } : {}),
  });
}

export interface QueryIssue {
  param: string;
  message: string;
}

export interface ExportRequest {
  query: EvidenceQuery;
  requireProofs: boolean;
}

const STRING_KEYS = ['capabilityId', 'agentSubject', 'tenant'] as const;
const TIME_KEYS = ['since', 'until'] as const;

/** Validates an export query object (as found in a request body or query.json). */
export function parseEvidenceQuery(value: unknown, at = 'query'): { ok: true; query: EvidenceQuery } | { ok: false; issues: QueryIssue[] } {
  if (value === undefined || value === null) return { ok: true, query: {} };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, issues: [{ param: at, message: 'must be an object' }] };
  const issues: QueryIssue[] = [];
  const query: EvidenceQuery = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const param = `${at}.${key}`;
    if ((STRING_KEYS as readonly string[]).includes(key)) {
      if (typeof v !== 'string' || v.length === 0 || v.length > 512) issues.push({ param, message: 'must be a non-empty string of at most 512 characters' });
      else query[key as (typeof STRING_KEYS)[number]] = v;
    } else if (key === 'kernelKey') {
      if (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v)) issues.push({ param, message: 'must be a kernel key: 64 lowercase hex digits' });
      else query.kernelKey = v;
    } else if ((TIME_KEYS as readonly string[]).includes(key)) {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) issues.push({ param, message: 'must be a non-negative integer (Unix seconds)' });
      else query[key as (typeof TIME_KEYS)[number]] = v;
    } else {
      issues.push({ param, message: 'is not a known query field (capabilityId, agentSubject, since, until, tenant, kernelKey)' });
    }
  }
  if (query.since !== undefined && query.until !== undefined && query.since > query.until) {
    issues.push({ param: `${at}.since`, message: 'must not be after until' });
  }
  return issues.length ? { ok: false, issues } : { ok: true, query };
}

/** Validates a `POST /v1/evidence/export` body: `{query?, requireProofs?, federationPolicy?}`. */
export function parseExportRequest(body: unknown): { ok: true; request: ExportRequest } | { ok: false; issues: QueryIssue[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, issues: [{ param: 'body', message: 'must be a JSON object' }] };
  const b = body as Record<string, unknown>;
  const issues: QueryIssue[] = [];
  for (const key of Object.keys(b)) {
    if (!['query', 'requireProofs', 'federationPolicy'].includes(key))
      issues.push({ param: key, message: 'is not a known field (query, requireProofs, federationPolicy)' });
  }
  const q = parseEvidenceQuery(b.query);
  if (!q.ok) issues.push(...q.issues);
  if (b.requireProofs !== undefined && typeof b.requireProofs !== 'boolean') issues.push({ param: 'requireProofs', message: 'must be true or false' });
  if (issues.length || !q.ok) return { ok: false, issues };
  return { ok: true, request: { query: q.query, requireProofs: b.requireProofs === true } };
}
