// The query of an evidence package or export bundle (chio-format.md §11.1,
// chio-format-v2.md §16.8.2): its filters, its read boundary, the child-receipt
// scope it implies, and the disclosure notice a tenant-scoped package must
// carry (§16.8.3). Attacker-controlled input: every malformed field is a reason,
// never a throw. Values are plain data (bigint, strings), so a bundle's query
// survives a structured clone from a verify worker. Pure.
import { canonicalize } from '../json/canonicalize';
import { type JsonObject, type JsonValue, isJsonNumber, isJsonObject, jsonTypeName } from '../json/value';

/** `ReceiptReadBoundary` (upstream `receipt_query.rs`), internally tagged by `kind`. */
export type ReadBoundary = { kind: 'admin_all' } | { kind: 'tenant_scoped'; tenant: string };

export type ChildReceiptScope = 'full_query_window' | 'time_window_context_only' | 'omitted_no_join_path';
export const CHILD_RECEIPT_SCOPES: readonly ChildReceiptScope[] = ['full_query_window', 'time_window_context_only', 'omitted_no_join_path'];

/** `EvidenceExportQuery`. An explicit `null` reads as absent, as serde reads `Option`. */
export interface PackageQuery {
  capabilityId?: string;
  agentSubject?: string;
  /** Inclusive Unix seconds. */
  since?: bigint;
  until?: bigint;
  tenant?: string;
  /**
   * One kernel of a fleet: not an upstream field, written by this project's fleet export
   * (`lib/query/evidence-query.ts`). Receipts must be signed by it.
   */
  kernelKey?: string;
  readBoundary?: ReadBoundary;
  /** `readBoundary` is present but not one of the two well-formed shapes: why. */
  readBoundaryError?: string;
}

export type QueryParse = { ok: true; query: PackageQuery } | { ok: false; error: string };

const STRING_FIELDS = ['capabilityId', 'agentSubject', 'tenant', 'kernelKey'] as const;

/** Reads a query object. Unknown keys are ignored (serde does); a wrong type is an error. */
export function parsePackageQuery(v: JsonValue | undefined): QueryParse {
  if (!isJsonObject(v)) return { ok: false, error: `the query is ${jsonTypeName(v)}, not an object` };
  const query: PackageQuery = {};
  for (const name of STRING_FIELDS) {
    const f = v.get(name);
    if (f === undefined || f === null) continue;
    if (typeof f !== 'string') return { ok: false, error: `query.${name} is ${jsonTypeName(f)}, not a string` };
    query[name] = f;
  }
  for (const name of ['since', 'until'] as const) {
    const f = v.get(name);
    if (f === undefined || f === null) continue;
    const n = isJsonNumber(f) ? f.toBigInt() : null;
    if (n === null || n < 0n || n >= 2n ** 64n) return { ok: false, error: `query.${name} is not an unsigned 64-bit integer` };
    query[name] = n;
  }
  const boundary = v.get('readBoundary');
  if (boundary !== undefined && boundary !== null) {
    const read = readBoundaryOf(boundary);
    if (typeof read === 'string') query.readBoundaryError = read;
    else query.readBoundary = read;
  }
  return { ok: true, query };
}

function readBoundaryOf(v: JsonValue): ReadBoundary | string {
  if (!isJsonObject(v)) return `readBoundary is ${jsonTypeName(v)}, not an object`;
  const kind = v.get('kind');
  if (kind === 'admin_all') return { kind };
  if (kind === 'tenant_scoped') {
    const tenant = v.get('tenant');
    if (typeof tenant !== 'string') return `readBoundary tenant_scoped has no tenant string (${jsonTypeName(tenant)})`;
    return { kind, tenant };
  }
  return typeof kind === 'string' ? `readBoundary kind ${JSON.stringify(kind)} is not admin_all or tenant_scoped` : 'readBoundary has no kind';
}

/**
 * The §16.8.2 rules on a present boundary: `tenant_scoped` needs a non-empty tenant, and
 * `query.tenant`, if present, must equal it; `admin_all` with a tenant filter needs a non-empty
 * tenant. Returns the broken rule, or null.
 */
export function readBoundaryRuleError(q: PackageQuery): string | null {
  if (q.readBoundaryError !== undefined) return q.readBoundaryError;
  const b = q.readBoundary;
  if (!b) return null;
  if (b.kind === 'tenant_scoped') {
    if (b.tenant.trim() === '') return 'readBoundary tenant_scoped has an empty tenant';
    if (q.tenant !== undefined && q.tenant !== b.tenant)
      return `query.tenant ${JSON.stringify(q.tenant)} differs from readBoundary tenant ${JSON.stringify(b.tenant)}`;
  } else if (q.tenant !== undefined && q.tenant.trim() === '') return 'readBoundary admin_all with an empty query.tenant filter';
  return null;
}

/** The tenant every tool receipt must carry: the boundary's, else a non-empty `query.tenant` (trimmed, as upstream). */
export function tenantInScope(q: PackageQuery): string | undefined {
  if (q.readBoundary?.kind === 'tenant_scoped') return q.readBoundary.tenant;
  const t = q.tenant?.trim();
  return t ? t : undefined;
}

/**
 * `childReceiptScope` as derived from the query (§16.8.2): child receipts have no join path to a
 * tenant, capability or agent, so such a filter omits them, unless a capability or agent filter
 * comes with a time window (then they are time-window context). `kernelKey` does not count.
 */
export function childReceiptScopeOf(q: PackageQuery): ChildReceiptScope {
  if (tenantInScope(q) !== undefined) return 'omitted_no_join_path';
  if (q.capabilityId !== undefined || q.agentSubject !== undefined) {
    return q.since !== undefined || q.until !== undefined ? 'time_window_context_only' : 'omitted_no_join_path';
  }
  return 'full_query_window';
}

/**
 * The canonical notice of a tenant-scoped package (§16.8.3), as upstream `chio evidence export`
 * builds it (`tenant_scoped_disclosure_notice`, read in two stored versions of the CLI's
 * evidence-export module, identical; no real tenant-scoped package exists to confirm it). The
 * manifest's notice must equal it exactly (compared as RFC 8785 bytes).
 */
export const TENANT_SCOPED_DISCLOSURE_NOTICE = {
  schema: 'chio.evidence_export_disclosure_notice.v1',
  summary:
    'Kernel-signed checkpoint bodies and their derived publication records cover the full per-batch Merkle tree shared across tenants. Tenant-scoped exports therefore reveal aggregate batch metadata for receipts they do not contain. This disclosure is unavoidable without protocol-level per-tenant subtree proofs.',
  disclosedCheckpointBodyFields: ['batch_start_seq', 'batch_end_seq', 'tree_size', 'merkle_root', 'checkpoint_seq', 'issued_at', 'previous_checkpoint_sha256'],
  disclosedPublicationFields: ['entry_start_seq', 'entry_end_seq', 'log_tree_size'],
  narrowedMetadata: ['retention.liveDbSizeBytes is omitted (admin-all only)', 'retention.oldestLiveReceiptTimestamp is restricted to the requesting tenant'],
  protocolReference: 'docs/release/COMPLIANCE_EVIDENCE_EXPORT_PLAN.md#tenant-scoped-disclosure',
} as const;

function noticeTree(): JsonObject {
  return new Map<string, JsonValue>(Object.entries(TENANT_SCOPED_DISCLOSURE_NOTICE).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]]));
}

/**
 * `disclosureNotice` is present exactly when the manifest query's boundary is `tenant_scoped`,
 * and then equals the canonical notice. Returns what is wrong, or null.
 */
export function disclosureNoticeError(manifestQuery: PackageQuery | null, notice: JsonValue | undefined): string | null {
  const tenantScoped = manifestQuery?.readBoundary?.kind === 'tenant_scoped';
  if (!tenantScoped) {
    return notice === undefined
      ? null
      : 'manifest.json carries a disclosureNotice, but its query is not tenant_scoped (only a tenant-scoped package carries one)';
  }
  if (notice === undefined) return 'manifest.json has no disclosureNotice, which a tenant_scoped package must carry';
  const want = canonicalize(noticeTree());
  const got = canonicalize(notice);
  if (got === want) return null;
  const field = isJsonObject(notice) ? firstDifference(notice) : null;
  return `manifest.json disclosureNotice differs from the canonical tenant-scoped notice${field ? ` (${field})` : ''}`;
}

function firstDifference(notice: JsonObject): string | null {
  const want = noticeTree();
  for (const [k, v] of want) {
    const got = notice.get(k);
    if (got === undefined) return `${k} is missing`;
    if (canonicalize(got) !== canonicalize(v)) return `${k} is ${clip(canonicalize(got))}, expected ${clip(canonicalize(v))}`;
  }
  for (const k of notice.keys()) if (!want.has(k)) return `unknown field ${k}`;
  return null;
}

/** A value for a message: at most 120 characters. */
export function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
