// Capability delegation lineage (chio-format.md §10 `capability_lineage`,
// §11.1 `capability-lineage.ndjson`): which capability was delegated from
// which, to whom and by whom, read leniently as context for the DAG view.
// Verifying a row (its signed token, format v2 §16.9) is not done here but in
// ../verify/lineage.ts, and the DAG takes each row's verdict from the report.
// Attacker-controlled input; a bad row is counted and skipped, never a throw. Pure.
import { parseJson } from '../json/parse';
import { type JsonObject, type JsonValue, isJsonArray, isJsonNumber, isJsonObject } from '../json/value';

export interface CapabilityLineage {
  capabilityId: string;
  parentCapabilityId: string | null;
  subjectKey?: string;
  issuerKey?: string;
  /** Unix seconds (absent when missing or beyond 2^53). */
  issuedAt?: number;
  expiresAt?: number;
  delegationDepth?: number;
  /** The grants as `server/tool` (from grants_json), at most MAX_GRANTS. */
  grants: string[];
  /** Where the row came from (file or store table). */
  source: string;
}

/** What the loader read: unsigned context, kept apart from the verified report. */
export interface LineageSet {
  entries: CapabilityLineage[];
  /** Rows that could not be read, and rows dropped past MAX_LINEAGE. */
  skipped: number;
}

export const MAX_LINEAGE = 200_000;
const MAX_GRANTS = 20;

const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 1024 ? v : undefined);
const int = (v: JsonValue | undefined): number | undefined => {
  if (!isJsonNumber(v) || !v.isIntegerLiteral) return undefined;
  const n = Number(v.raw);
  return Number.isSafeInteger(n) ? n : undefined;
};

/** `server/tool` of each grant in a grants_json text (`{"grants":[ToolGrant…]}` or a bare list). */
export function grantNames(grantsJson: string | undefined): string[] {
  if (grantsJson === undefined) return [];
  const parsed = parseJson(grantsJson);
  if (!parsed.ok) return [];
  const v = parsed.value;
  const list = isJsonArray(v) ? v : isJsonObject(v) && isJsonArray(v.get('grants')) ? (v.get('grants') as JsonValue[]) : [];
  const out: string[] = [];
  for (const g of list) {
    if (out.length >= MAX_GRANTS) break;
    if (!isJsonObject(g)) continue;
    const server = str(g.get('server_id')) ?? '*';
    const tool = str(g.get('tool_name')) ?? '*';
    out.push(`${server}/${tool}`);
  }
  return out;
}

/** A lineage row's fields, already read from a package line or a store row. */
export interface LineageFields {
  capabilityId: string;
  parentCapabilityId?: string | undefined;
  subjectKey?: string | undefined;
  issuerKey?: string | undefined;
  issuedAt?: number | undefined;
  expiresAt?: number | undefined;
  delegationDepth?: number | undefined;
  grantsJson?: string | undefined;
}

/** One lineage row: absent fields left out, grants named from grants_json. */
export function lineageRow(f: LineageFields, source: string): CapabilityLineage {
  const out: CapabilityLineage = { capabilityId: f.capabilityId, parentCapabilityId: f.parentCapabilityId ?? null, grants: grantNames(f.grantsJson), source };
  if (f.subjectKey !== undefined) out.subjectKey = f.subjectKey;
  if (f.issuerKey !== undefined) out.issuerKey = f.issuerKey;
  if (f.issuedAt !== undefined) out.issuedAt = f.issuedAt;
  if (f.expiresAt !== undefined) out.expiresAt = f.expiresAt;
  if (f.delegationDepth !== undefined) out.delegationDepth = f.delegationDepth;
  return out;
}

/** One lineage row from its fields (snake_case, as the store and the package name them); null when it has no capability id. */
export function lineageFromObject(o: JsonObject, source: string): CapabilityLineage | null {
  const capabilityId = str(o.get('capability_id'));
  if (capabilityId === undefined) return null;
  return lineageRow(
    {
      capabilityId,
      parentCapabilityId: str(o.get('parent_capability_id')),
      subjectKey: str(o.get('subject_key')),
      issuerKey: str(o.get('issuer_key')),
      issuedAt: int(o.get('issued_at')),
      expiresAt: int(o.get('expires_at')),
      delegationDepth: int(o.get('delegation_depth')),
      grantsJson: str(o.get('grants_json')),
    },
    source,
  );
}

/** Collects lineage rows from record texts (package lines) as a loader reads them. */
export class LineageCollector {
  private readonly entries: CapabilityLineage[] = [];
  private skipped = 0;

  /** One `capability-lineage.ndjson` record (a JSON object, or an array of them). */
  addText(text: string, source: string): void {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      this.skipped++;
      return;
    }
    for (const v of isJsonArray(parsed.value) ? parsed.value : [parsed.value]) {
      const row = isJsonObject(v) ? lineageFromObject(v, source) : null;
      if (row) this.add(row);
      else this.skipped++;
    }
  }

  add(row: CapabilityLineage): void {
    if (this.entries.length >= MAX_LINEAGE) this.skipped++;
    else this.entries.push(row);
  }

  /** Rows a store reader read (and the ones it skipped). */
  addSet(set: LineageSet): void {
    for (const row of set.entries) this.add(row);
    this.skipped += set.skipped;
  }

  result(): LineageSet {
    return { entries: this.entries, skipped: this.skipped };
  }
}
