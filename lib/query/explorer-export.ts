// The explorer's rows as a file: CSV (RFC 4180, through lib/text/csv.ts, so
// a receipt value a spreadsheet would run as a formula is neutralised) or
// NDJSON, one receipt a line. The rows given, in their order (the filtered
// view as sorted). Amounts are exact integers in minor units, written as
// decimal text (a JSON number loses digits past 2^53). Both come in pieces of
// at most CHUNK_ROWS rows: a million rows are more text than one string holds.
// Pure.
import { csvField } from '../text/csv';
import type { RowStore, StringColumn } from './row-store';

/** The fields of each exported row, in order: the CSV header and the NDJSON keys. */
export const EXPORT_FIELDS = [
  'id',
  'time_unix',
  'time_utc',
  'type',
  'generation',
  'tool_server',
  'tool_name',
  'decision',
  'guard',
  'reason',
  'cost_minor',
  'attempted_cost_minor',
  'currency',
  'settlement',
  'tenant',
  'capability_id',
  'grant_index',
  'policy_hash',
  'trust_level',
  'receipt_kind',
  'signer',
  'session_id',
  'request_id',
  'verdict',
  'problems',
  'source',
  'file',
  'line',
] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];

const FROM_COLUMN: Partial<Record<ExportField, StringColumn>> = {
  id: 'id',
  type: 'type',
  generation: 'generation',
  tool_server: 'toolServer',
  tool_name: 'toolName',
  decision: 'decision',
  guard: 'guard',
  reason: 'reason',
  attempted_cost_minor: 'attemptedCost',
  currency: 'currency',
  settlement: 'settlement',
  tenant: 'tenant',
  capability_id: 'capabilityId',
  grant_index: 'grantIndex',
  policy_hash: 'policyHash',
  trust_level: 'trustLevel',
  receipt_kind: 'receiptKind',
  signer: 'kernelKey',
  session_id: 'sessionId',
  request_id: 'requestId',
  source: 'source',
  file: 'file',
};

export const CHUNK_ROWS = 10_000;

/** `2026-01-01T00:00:03Z`, or null for a time a Date cannot hold. */
function isoUtc(unixSeconds: number): string | null {
  const d = new Date(unixSeconds * 1000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

/** One row's fields; absent values are null. */
export function exportRecord(store: RowStore, row: number): Record<ExportField, string | number | null> {
  const out = {} as Record<ExportField, string | number | null>;
  const time = store.time[row]!;
  const problems = store.problemCodes(row);
  for (const field of EXPORT_FIELDS) {
    const column = FROM_COLUMN[field];
    if (column) out[field] = store.str(column, row) ?? null;
    else if (field === 'time_unix') out[field] = Number.isFinite(time) ? time : null;
    else if (field === 'time_utc') out[field] = isoUtc(time);
    else if (field === 'cost_minor') out[field] = store.hasCost[row] ? store.cost[row]!.toString() : null;
    else if (field === 'verdict') out[field] = store.verdictOf(row);
    else if (field === 'problems') out[field] = problems.length ? problems.join(' ') : null;
    else if (field === 'line') out[field] = store.line[row]!;
  }
  return out;
}

/** The rows as CSV pieces (header first, CRLF after every record), as lib/text/csv.ts writes them. */
export function exportCsv(store: RowStore, rows: Uint32Array): string[] {
  const pieces = [`${EXPORT_FIELDS.join(',')}\r\n`];
  for (let from = 0; from < rows.length; from += CHUNK_ROWS) {
    let text = '';
    for (const row of rows.subarray(from, from + CHUNK_ROWS)) {
      const r = exportRecord(store, row);
      text += `${EXPORT_FIELDS.map((k) => csvField(r[k] === null ? '' : String(r[k]))).join(',')}\r\n`;
    }
    pieces.push(text);
  }
  return pieces;
}

/** The rows as NDJSON pieces: one JSON object a line, keys in EXPORT_FIELDS order. */
export function exportNdjson(store: RowStore, rows: Uint32Array): string[] {
  const pieces: string[] = [];
  for (let from = 0; from < rows.length; from += CHUNK_ROWS) {
    let text = '';
    for (const row of rows.subarray(from, from + CHUNK_ROWS)) text += `${JSON.stringify(exportRecord(store, row))}\n`;
    pieces.push(text);
  }
  return pieces;
}
