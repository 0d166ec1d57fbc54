// Turns one record's text into typed log items (contract §2 "accepted record
// shapes"): a bare receipt, the package wrapper `{"seq","receipt"}`, a receipt
// store row (`raw_json` / `receipt_json`), a JSON array of any of these, an
// evidence-export bundle (with its transparency records), a page of Chio's
// receipt API, checkpoints, inclusion proofs and transparency records, and
// (part 2 §2) receipts inside envelopes: bridge outcomes, MCP tool results,
// Claude Code and Codex transcript lines (envelope-intake.ts). Other runtimes'
// records are recognised by the receipt families the caller reads the log with
// (lib/verdict/family.ts), before any Chio shape, and set aside for them.
// Attacker-controlled input; every failure is a located issue, never a throw.
import { type JsonIssue, parseJson } from '../json/parse';
import { type JsonObject, type JsonValue, isJsonObject, isJsonNumber, jsonTypeName } from '../json/value';
import { chioFamily } from '../chio/family';
import { looksLikeChildReceipt } from '../chio/child-receipt';
import { looksLikeHttpReceipt } from '../chio/http-receipt';
import type { AuditedFamily, FamilyRecord } from '../verdict/family';
import { type Envelope, type RecordIssue, readEnvelopes } from './envelope-intake';

/** What a file's name says its records are; `auto` classifies each record by shape. */
export type RecordRole =
  | 'auto'
  | 'tool'
  | 'child'
  | 'http'
  | 'checkpoint'
  | 'proof'
  | 'publication'
  | 'witness'
  | 'consistency'
  | 'equivocation'
  | 'lineage'
  /**
   * A row the server that exported the log could not export (`receipt-audit.export_problem.v1`:
   * an evidence package's export-problems.ndjson, a bundle's `exportProblems`, a receipt page's
   * `problems`), named by its table and seq.
   */
  | 'export-problem'
  /** A text file (`.txt`, `.log`, `.md`): a reply, a transcript or a terminal log, read for ZeroClaw receipts. */
  | 'text'
  | 'ignore';

/**
 * `bundle`: an export bundle's own claims (`query`, `childReceiptScope`, `uncheckpointedReceipts`); its lists are the items after it.
 * `family`: a record of another runtime's family (`family`, `familyKind`), audited together once the whole log is in.
 */
export type ItemKind = Exclude<RecordRole, 'auto' | 'ignore' | 'text'> | 'family' | 'bundle';

export interface LogItem {
  kind: ItemKind;
  value: JsonObject;
  /** `family`: the family's name and its kind of record. */
  family?: string;
  familyKind?: string;
  /** A family's text record: the text itself (`value` is then empty). */
  text?: string;
  /** `seq` of the package wrapper or store row, when the record has one. */
  seq?: bigint;
  /** `bundle`: how many of the items right after it are the bundle's own. */
  items?: number;
  /** Field path of `value` within the record, for messages. */
  path: string;
  /** The envelopes the receipt arrived in (contract part 2 §5.4), when it was read out of any. */
  envelopes?: Envelope[];
}

export type IntakeResult =
  /** `issues`: problems of the record beside its items (a text part of a transcript line that does not parse, say). */
  | { ok: true; items: LogItem[]; issues?: RecordIssue[] }
  | { ok: false; issue: JsonIssue | { code: 'parse_error'; message: string; path: string; line: number; column: number } };

/** The schema of a server's record of a row it could not export (server/stored-row.ts). */
export const EXPORT_PROBLEM_SCHEMA = 'receipt-audit.export_problem.v1';

// A Map, not an object: `schema` is attacker-controlled, and "constructor" or "__proto__" would
// find an object's inherited properties.
const TRANSPARENCY_SCHEMAS: ReadonlyMap<string, ItemKind> = new Map([
  [EXPORT_PROBLEM_SCHEMA, 'export-problem'],
  ['chio.checkpoint_publication.v1', 'publication'],
  ['chio.checkpoint_witness.v1', 'witness'],
  ['chio.checkpoint_consistency_proof.v1', 'consistency'],
  ['chio.checkpoint_consistency_proof.v2', 'consistency'],
  ['chio.checkpoint_equivocation.v1', 'equivocation'],
]);

function shapeError(message: string, path = '$'): IntakeResult {
  return { ok: false, issue: { code: 'parse_error', message, path, line: 1, column: 1 } };
}

/**
 * Parses and classifies one record. Line numbers in issues are relative to the record. `families`:
 * the other runtimes' receipt families the log is read with (none: Chio's records only).
 */
export function intakeRecord(text: string, role: RecordRole, families: readonly AuditedFamily[] = []): IntakeResult {
  if (role === 'text') return { ok: true, items: families.flatMap((f) => (f.readText?.(text) ?? []).map((r) => familyItem(f, r))) };
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, issue: parsed.issue };
  const out: Collected = { items: [], issues: [], families };
  const error = collect(parsed.value, role, '$', out, 0);
  if (error) return error;
  return out.issues.length > 0 ? { ok: true, items: out.items, issues: out.issues } : { ok: true, items: out.items };
}

interface Collected {
  items: LogItem[];
  issues: RecordIssue[];
  families: readonly AuditedFamily[];
}

function familyItem(f: AuditedFamily, r: FamilyRecord): LogItem {
  const item: LogItem = { kind: 'family', family: f.name, familyKind: r.kind, value: r.value, path: r.path };
  if (r.text !== undefined) item.text = r.text;
  return item;
}

/** A record of one of the families (a document of several, or one record), or null when none claims it. */
function collectFamily(v: JsonObject, path: string, out: Collected, depth: number): LogItem[] | null {
  for (const f of out.families) {
    const records = f.unwrap(v, path, depth);
    if (records) return records.map((r) => familyItem(f, r));
  }
  for (const f of out.families) {
    const kind = f.recognise(v);
    if (kind !== null) return [familyItem(f, { kind, value: v, path })];
  }
  return null;
}

function collect(v: JsonValue, role: RecordRole, path: string, out: Collected, depth: number): IntakeResult | null {
  if (Array.isArray(v)) {
    if (depth > 0) return shapeError('nested arrays are not a record shape', path);
    for (let i = 0; i < v.length; i++) {
      const err = collect(v[i]!, role, `${path}[${i}]`, out, depth + 1);
      if (err) return err;
    }
    return null;
  }
  if (!isJsonObject(v)) return shapeError(`expected a JSON object, found ${jsonTypeName(v)}`, path);
  // A lineage file holds lineage rows only: its keys never make a row read as a receipt or a store row.
  if (role === 'lineage' || role === 'export-problem') {
    out.items.push({ kind: role, value: v, path });
    return null;
  }

  if (role === 'auto') {
    // Another runtime's record (or a document of them), before any of Chio's shapes.
    const family = collectFamily(v, path, out, depth);
    if (family) {
      for (const item of family) out.items.push(item);
      return null;
    }
    // A host transcript line or an envelope: the receipts it carries (none for an init line, a tool call, a plain result).
    const enveloped = readEnvelopes(v, path);
    if (enveloped) {
      for (const r of enveloped.receipts) out.items.push({ kind: 'tool', value: r.value, path: r.path, envelopes: r.envelopes });
      for (const issue of enveloped.issues) out.issues.push(issue);
      return null;
    }
  }
  // Evidence-export bundle (`POST /v1/evidence/export`, chio-bridge's exportEvidence): expand its lists.
  const bundle = v.get('bundle');
  if (role === 'auto' && isJsonObject(bundle) && bundle.has('toolReceipts')) {
    return collectBundle(bundle, `${path}.bundle`, out) ?? collectTransparency(v.get('transparency'), `${path}.transparency`, out);
  }
  // A page of Chio's receipt API (`/v1/receipts/query` {totalCount, nextCursor, receipts},
  // `/v1/receipts/tools` {…, count, receipts}): expand its receipts.
  const page = v.get('receipts');
  if (role === 'auto' && depth === 0 && Array.isArray(page) && (v.has('totalCount') || v.has('count'))) {
    for (let i = 0; i < page.length; i++) {
      const err = collect(page[i]!, 'auto', `${path}.receipts[${i}]`, out, 1);
      if (err) return err;
    }
    // Rows the server left out of the page, each named by table and seq.
    return collectLists(v, [['problems', 'export-problem']], path, out);
  }

  // Store row exported as JSON: `raw_json` (tool/child tables) or `receipt_json` (sidecar).
  for (const col of ['raw_json', 'receipt_json'] as const) {
    const raw = v.get(col);
    if (raw === undefined) continue;
    if (typeof raw !== 'string') return shapeError(`${col} must be a string, found ${jsonTypeName(raw)}`, `${path}.${col}`);
    const inner = parseJson(raw);
    if (!inner.ok) {
      return { ok: false, issue: { ...inner.issue, path: `${path}.${col}→${inner.issue.path}`, line: 1, column: 1 } };
    }
    if (!isJsonObject(inner.value)) return shapeError(`${col} must hold a JSON object`, `${path}.${col}`);
    const seq = readSeq(v.get('seq'));
    const kind = col === 'receipt_json' ? 'http' : classifyReceipt(inner.value, role);
    if (typeof kind !== 'string') return kind;
    out.items.push({ kind, value: inner.value, path: `${path}.${col}`, ...(seq !== undefined ? { seq } : {}) });
    return null;
  }

  // Package wrapper `{"seq": n, "receipt": {…}}`.
  const wrapped = v.get('receipt');
  if (wrapped !== undefined && v.has('seq')) {
    if (!isJsonObject(wrapped)) return shapeError(`receipt must be an object, found ${jsonTypeName(wrapped)}`, `${path}.receipt`);
    const seq = readSeq(v.get('seq'));
    if (seq === undefined) return shapeError('seq must be a non-negative integer', `${path}.seq`);
    const kind = classifyReceipt(wrapped, role);
    if (typeof kind !== 'string') return kind;
    out.items.push({ kind, value: wrapped, seq, path: `${path}.receipt` });
    return null;
  }

  const kind = classify(v, role, path);
  if (typeof kind !== 'string') return kind;
  out.items.push({ kind, value: v, path });
  return null;
}

const BUNDLE_LISTS: [string, RecordRole][] = [
  ['toolReceipts', 'tool'],
  ['childReceipts', 'child'],
  ['checkpoints', 'checkpoint'],
  ['inclusionProofs', 'proof'],
  ['capabilityLineage', 'lineage'],
  ['exportProblems', 'export-problem'],
];

/** The export's `transparency` keeps the kernel's snake_case keys (chio-format-v2.md §16.10.3). */
const TRANSPARENCY_LISTS: [string, RecordRole][] = [
  ['publications', 'publication'],
  ['witnesses', 'witness'],
  ['consistency_proofs', 'consistency'],
  ['equivocations', 'equivocation'],
];

function collectBundle(bundle: JsonObject, path: string, out: Collected): IntakeResult | null {
  // The bundle itself first, then its lists: the `items` after it are its own.
  const self: LogItem = { kind: 'bundle', value: bundle, path, items: 0 };
  out.items.push(self);
  const start = out.items.length;
  const err = collectLists(bundle, BUNDLE_LISTS, path, out);
  self.items = out.items.length - start;
  return err;
}

function collectTransparency(transparency: JsonValue | undefined, path: string, out: Collected): IntakeResult | null {
  if (transparency === undefined || transparency === null) return null;
  if (!isJsonObject(transparency)) return shapeError(`transparency must be an object, found ${jsonTypeName(transparency)}`, path);
  return collectLists(transparency, TRANSPARENCY_LISTS, path, out);
}

function collectLists(holder: JsonObject, lists: [string, RecordRole][], path: string, out: Collected): IntakeResult | null {
  for (const [key, role] of lists) {
    const list = holder.get(key);
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) return shapeError(`${key} must be an array`, `${path}.${key}`);
    for (let i = 0; i < list.length; i++) {
      const err = collect(list[i]!, role, `${path}.${key}[${i}]`, out, 1);
      if (err) return err;
    }
  }
  return null;
}

function readSeq(v: JsonValue | undefined): bigint | undefined {
  if (!isJsonNumber(v) || !v.isIntegerLiteral) return undefined;
  const n = BigInt(v.raw);
  return n >= 0n ? n : undefined;
}

function classifyReceipt(o: JsonObject, role: RecordRole): ItemKind | IntakeResult {
  if (role === 'tool' || role === 'child' || role === 'http') return role;
  if (looksLikeChildReceipt(o)) return 'child';
  if (looksLikeHttpReceipt(o)) return 'http';
  return 'tool';
}

function classify(o: JsonObject, role: RecordRole, path: string): ItemKind | IntakeResult {
  if (role !== 'auto' && role !== 'ignore' && role !== 'text') return role;
  const schema = o.get('schema');
  const kind = typeof schema === 'string' ? TRANSPARENCY_SCHEMAS.get(schema) : undefined;
  if (kind) return kind;
  return chioFamily.recognise(o) ?? shapeError('not a Chio receipt, checkpoint or proof, nor a ZeroClaw or CodeWhale record (no recognizable fields)', path);
}
