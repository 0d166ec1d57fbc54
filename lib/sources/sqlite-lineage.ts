// The `capability_lineage` rows of a local Chio store that the verifier judges
// (chio-format-v2.md §16.9): newer stores add `federated_parent_capability_id`,
// `provenance` (NOT NULL DEFAULT 'legacy_projection') and `signed_capability_json`.
// The local store is the one place `legacy_projection` is allowed, so a row
// with that provenance and no token stays unsigned context and is not read
// here (the DAG's lenient reader in sqlite-store.ts shows it). A row that
// claims more (another provenance) or carries a token is written out as one
// lineage record, its token column kept as text for the row decoder. The file
// is attacker-controlled: a row that cannot be read is an error naming its
// rowid, and the next row still comes out. Never throws.
import type { Database, SqlValue, Statement } from 'sql.js';

export interface LineageRecordRow {
  /** SQLite's rowid, exact decimal text. */
  rowid: string;
  /** The row as one JSON object, for `decodeLineageRow(…, local = true)`. */
  text: string;
}
export interface LineageRowError {
  rowid: string | null;
  error: string;
}

type Kind = 'int' | 'text';
const COLUMNS: [string, Kind][] = [
  ['capability_id', 'text'],
  ['subject_key', 'text'],
  ['issuer_key', 'text'],
  ['issued_at', 'int'],
  ['expires_at', 'int'],
  ['grants_json', 'text'],
  ['delegation_depth', 'int'],
  ['parent_capability_id', 'text'],
  ['federated_parent_capability_id', 'text'],
  ['provenance', 'text'],
  ['signed_capability_json', 'text'],
];
/** Left out of the record when the store does not have them (an older schema). */
const OPTIONAL = new Set(['federated_parent_capability_id', 'provenance', 'signed_capability_json']);

/** One column's value as JSON text; an error string when its bytes are not text in the store's encoding. */
function jsonOf(kind: Kind, type: SqlValue, value: SqlValue, decoder: TextDecoder): string | { error: string } {
  if (type === 'null') return 'null';
  if (kind === 'int') {
    if (type === 'integer' && typeof value === 'string') return value; // exact digits, never through a float
    return { error: `is ${String(type)}, expected integer` };
  }
  if (type === 'blob') return { error: 'is a blob' };
  if (!(value instanceof Uint8Array)) return { error: 'could not be read as bytes' };
  try {
    return JSON.stringify(decoder.decode(value)); // a number stored in a text column stays a string: the decoder names it
  } catch {
    return { error: `is not valid ${decoder.encoding}` };
  }
}

/** The rows to verify, in rowid order. Yields nothing for a store without `capability_lineage` or without the newer columns. */
export function* signedLineageRows(db: Database, decoder: TextDecoder, open: Set<Statement>): Generator<LineageRecordRow | LineageRowError> {
  let stmt: Statement | null = null;
  try {
    const tables = (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND lower(name) = 'capability_lineage'")[0]?.values ?? []).length;
    if (tables === 0) return;
    const have = new Set((db.exec(`SELECT lower(name) FROM pragma_table_info('capability_lineage')`)[0]?.values ?? []).map((v) => String(v[0])));
    const claims: string[] = [];
    if (have.has('provenance')) claims.push(`("provenance" IS NOT NULL AND "provenance" IS NOT 'legacy_projection')`);
    if (have.has('signed_capability_json')) claims.push(`"signed_capability_json" IS NOT NULL`);
    if (claims.length === 0) return;
    const cols = COLUMNS.filter(([c]) => have.has(c) || !OPTIONAL.has(c));
    const select = cols.map(([c, k]) => (have.has(c) ? `typeof("${c}"), CAST("${c}" AS ${k === 'int' ? 'TEXT' : 'BLOB'})` : `'null', NULL`));
    stmt = db.prepare(`SELECT CAST(rowid AS TEXT), ${select.join(', ')} FROM capability_lineage WHERE ${claims.join(' OR ')} ORDER BY rowid`);
    open.add(stmt);
    for (;;) {
      let values: SqlValue[];
      try {
        if (!stmt.step()) break;
        values = stmt.get();
      } catch (e) {
        yield { rowid: null, error: `reading capability_lineage stopped: ${e instanceof Error ? e.message : String(e)}` };
        return;
      }
      const rowid = String(values[0]);
      const fields: string[] = [];
      const errors: string[] = [];
      cols.forEach(([c, k], i) => {
        if (!have.has(c)) return;
        const json = jsonOf(k, values[1 + 2 * i] ?? null, values[2 + 2 * i] ?? null, decoder);
        if (typeof json === 'string') fields.push(`${JSON.stringify(c)}:${json}`);
        else errors.push(`${c} ${json.error}`);
      });
      yield errors.length > 0 ? { rowid, error: errors.join('; ') } : { rowid, text: `{${fields.join(',')}}` };
    }
  } catch (e) {
    yield { rowid: null, error: `cannot read capability_lineage: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    if (stmt) {
      open.delete(stmt);
      try {
        stmt.free();
      } catch {
        // already freed with the store
      }
    }
  }
}
