// One `capability-lineage.ndjson` row (chio-format-v2.md §16.9; upstream
// `CapabilitySnapshot`), decoded as serde would: required fields typed
// strictly (u64 integers as written, never through a float), `provenance`
// absent = `legacy_projection`, an unknown `provenance` refused, `null` read as
// absent for the optional fields, unknown keys ignored (they carry no
// authority: a row's authority is its signed token). A row of the local store
// (`capability_lineage` table) carries its token as `signed_capability_json`
// text, parsed here losslessly. Attacker-controlled input; never throws.
import { parseJson } from '../json/parse';
import { type JsonObject, type JsonValue, isJsonNumber, isJsonObject, jsonTypeName, pathKey } from '../json/value';
import { U64_MAX, type ShapeIssue } from './fields';

export const PROVENANCES = ['signed_token', 'synthetic_anchor', 'legacy_projection'] as const;
export type Provenance = (typeof PROVENANCES)[number];

export interface DecodedLineageRow {
  capabilityId: string;
  subjectKey: string;
  issuerKey: string;
  issuedAt: bigint;
  expiresAt: bigint;
  grantsJson: string;
  delegationDepth: bigint;
  parentCapabilityId: string | null;
  federatedParentCapabilityId?: string;
  /** As written, or `legacy_projection` when absent (`provenanceWritten` false). */
  provenance: Provenance;
  provenanceWritten: boolean;
  /** The token as found (any JSON: its decoder judges it); absent when the row has none. */
  token?: JsonValue;
  /** The store's `signed_capability_json` is not JSON: why (the row carries a token, and it is unreadable). */
  tokenUnreadable?: string;
}

export type LineageRowDecode = { ok: true; row: DecodedLineageRow } | { ok: false; issues: ShapeIssue[] };

/** Reads typed fields of one row, collecting issues with their paths (one per row: no closures per call). */
class FieldReader {
  readonly issues: ShapeIssue[] = [];
  constructor(
    private readonly v: JsonObject,
    private readonly path: string,
  ) {}

  at(key: string): string {
    return pathKey(this.path, key);
  }

  str(key: string): string {
    const x = this.v.get(key);
    if (typeof x === 'string') return x;
    this.issues.push({ path: this.at(key), message: `expected a string, found ${jsonTypeName(x)}` });
    return '';
  }

  u64(key: string): bigint {
    const x = this.v.get(key);
    if (isJsonNumber(x) && x.isIntegerLiteral) {
      const n = BigInt(x.raw);
      if (n >= 0n && n <= U64_MAX) return n;
    }
    this.issues.push({
      path: this.at(key),
      message: `expected an unsigned 64-bit integer, found ${isJsonNumber(x) ? `the number ${x.raw}` : jsonTypeName(x)}`,
    });
    return 0n;
  }

  /** `Option<String>`: absent and null are None. */
  optStr(key: string): string | null {
    const x = this.v.get(key);
    if (x === undefined || x === null || typeof x === 'string') return x ?? null;
    this.issues.push({ path: this.at(key), message: `expected a string or null, found ${jsonTypeName(x)}` });
    return null;
  }
}

/** `local`: a row of the local store, whose token is the `signed_capability_json` column. */
export function decodeLineageRow(v: JsonValue, path: string, local = false): LineageRowDecode {
  if (!isJsonObject(v)) return { ok: false, issues: [{ path, message: `expected a capability lineage row (an object), found ${jsonTypeName(v)}` }] };
  const f = new FieldReader(v, path);
  const row: DecodedLineageRow = {
    capabilityId: f.str('capability_id'),
    subjectKey: f.str('subject_key'),
    issuerKey: f.str('issuer_key'),
    issuedAt: f.u64('issued_at'),
    expiresAt: f.u64('expires_at'),
    grantsJson: f.str('grants_json'),
    delegationDepth: f.u64('delegation_depth'),
    parentCapabilityId: f.optStr('parent_capability_id'),
    provenance: 'legacy_projection',
    provenanceWritten: false,
  };
  if (!v.has('parent_capability_id')) f.issues.push({ path: f.at('parent_capability_id'), message: 'missing (Chio writes it, null for a root capability)' });
  const federated = f.optStr('federated_parent_capability_id');
  if (federated !== null) row.federatedParentCapabilityId = federated;
  readProvenance(v, f.at('provenance'), row, f.issues);
  readToken(v, local, row);
  return f.issues.length > 0 ? { ok: false, issues: f.issues } : { ok: true, row };
}

function readProvenance(v: JsonObject, path: string, row: DecodedLineageRow, issues: ShapeIssue[]): void {
  const p = v.get('provenance');
  if (p === undefined) return;
  if (typeof p === 'string' && (PROVENANCES as readonly string[]).includes(p)) {
    row.provenance = p as Provenance;
    row.provenanceWritten = true;
    return;
  }
  issues.push({ path, message: `expected one of ${PROVENANCES.join(', ')}, found ${typeof p === 'string' ? JSON.stringify(p) : jsonTypeName(p)}` });
}

function readToken(v: JsonObject, local: boolean, row: DecodedLineageRow): void {
  const token = v.get('signed_capability');
  if (token !== undefined && token !== null) {
    row.token = token;
    return;
  }
  const text = local ? v.get('signed_capability_json') : undefined;
  if (text === undefined || text === null) return;
  if (typeof text !== 'string') {
    row.token = text;
    return;
  }
  const parsed = parseJson(text);
  if (parsed.ok) row.token = parsed.value;
  else row.tokenUnreadable = `signed_capability_json is not valid JSON (${parsed.issue.message} at ${parsed.issue.path})`;
}
