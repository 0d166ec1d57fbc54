// Server side only: every stored JSON text (a receipt's raw_json, a checkpoint's statement_json)
// is checked before its bytes are spliced into a response (issue 20). The store is not trusted:
// a row that is not TEXT, not UTF-8, over MAX_ROW_BYTES, not one JSON text by our lossless
// parser (lib/json: duplicate keys, lone surrogates, NaN, depth > 512 refused) or not an object
// is never spliced. It becomes a RowProblem naming its table and seq, which the response carries
// in its own list (export-problems.ndjson, `exportProblems`, `problems`), and every other row
// still goes out.
//
// A good row is spliced as stored, byte for byte, so u64 amounts and key order survive. The one
// exception: raw CR or LF (whitespace between tokens: inside a string JSON forbids them) would
// split an NDJSON line, so such a row is written compactly from its lossless parse, which keeps
// every key, string and number as written.
import { parseJson } from '../lib/json/parse';
import { compactJson } from '../lib/json/pretty';
import { type JsonObject, isJsonObject, jsonTypeName } from '../lib/json/value';
import { EXPORT_PROBLEM_SCHEMA } from '../lib/verify/intake';

/**
 * The largest stored JSON text spliced into a response: 4 MiB. A Chio receipt is about 1–2 KB,
 * a large one (big tool parameters) tens of KB; 4 MiB is 2,000 times a typical receipt and a
 * quarter of the 16 MiB record the verifier reads (lib/sources/records.ts), so a response of a
 * few such rows still reads. A larger row is a problem, never a truncated receipt.
 */
export const MAX_ROW_BYTES = 4 * 1024 * 1024;

/** Why a stored row was not spliced into a response. */
export type RowProblemCode =
  | 'not_text'
  | 'invalid_utf8'
  | 'too_large'
  | 'invalid_json'
  | 'duplicate_key'
  | 'not_an_object'
  | 'invalid_column'
  | 'not_in_claim_log';

/** A stored row the server could not export, by its table and seq (a store row's own key). */
export interface RowProblem {
  table: string;
  seq: number;
  code: RowProblemCode;
  message: string;
}

export type CheckedRow = { ok: true; text: string; value: JsonObject } | { ok: false; problem: RowProblem };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Checks one stored JSON text. `sqlType` is SQLite's typeof() of the column and `raw` its bytes
 * (CAST(column AS BLOB)), so nothing was decoded on the way: invalid UTF-8 is seen, not replaced.
 */
export function checkStoredRow(table: string, seq: number, column: string, sqlType: string, raw: Uint8Array | null): CheckedRow {
  const problem = (code: RowProblemCode, why: string): CheckedRow => ({
    ok: false,
    problem: { table, seq, code, message: `${table} seq ${seq}: ${column} ${why}` },
  });
  if (sqlType !== 'text' || raw === null)
    return problem('not_text', `is ${sqlType === 'null' || raw === null ? 'NULL' : `a ${sqlType.toUpperCase()}`}, not TEXT`);
  if (raw.length > MAX_ROW_BYTES) return problem('too_large', `is ${raw.length} bytes, over the ${MAX_ROW_BYTES}-byte limit for one stored row`);
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return problem('invalid_utf8', `is not valid UTF-8 (byte ${firstInvalidUtf8(raw)})`);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { issue } = parsed;
    return problem(
      issue.code === 'duplicate_key' ? 'duplicate_key' : 'invalid_json',
      `is not one JSON text: ${issue.message} at line ${issue.line} column ${issue.column} (${issue.path})`,
    );
  }
  if (!isJsonObject(parsed.value)) return problem('not_an_object', `is a JSON ${jsonTypeName(parsed.value)}, not an object`);
  return { ok: true, text: /[\r\n]/.test(text) ? compactJson(parsed.value) : text, value: parsed.value };
}

/**
 * The same check for a row read as text from somewhere that already decoded it (the fleet's
 * ClickHouse answers): its size in UTF-8 bytes, our lossless parser, an object.
 */
export function checkStoredText(table: string, seq: number, column: string, text: string): CheckedRow {
  return checkStoredRow(table, seq, column, 'text', Buffer.from(text, 'utf8'));
}

/** Offset of the first byte that starts no valid UTF-8 sequence (for the message). */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > b.length) return i;
    try {
      utf8.decode(b.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return b.length;
}

/** A problem as one JSON line (export-problems.ndjson) or list item; lib/verify/intake.ts reads it by its schema. */
export function rowProblemJson(p: RowProblem): string {
  return JSON.stringify({ schema: EXPORT_PROBLEM_SCHEMA, table: p.table, seq: p.seq, code: p.code, message: p.message });
}
