// Reader for Chio SQLite receipt stores (chio-format.md §10; real stores in §13): kernel stores
// (chio_tool_receipts, chio_child_receipts, claim_receipt_log_entries, kernel_checkpoints) and
// HTTP sidecar stores (http_receipts), optionally with their -wal file applied (sqlite-wal.ts).
//
// The file is attacker-controlled. Nothing here throws on it: opening returns {ok: false,
// message}; a bad row becomes a RowError naming table and rowid and iteration goes on. Rows are
// stepped one at a time from prepared statements, never loaded as a whole table. Integers are
// read through their decimal text so a value beyond 2^53 is reported, never rounded; TEXT is
// read as its stored bytes and decoded strictly, so raw_json reaches the verifier byte-exact
// (sql.js's own string path would cut at NUL and replace invalid UTF-8).
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { applyWal, readDbPageSize } from './sqlite-wal';
import { resumeKey } from './sqlite-skip';
import { type CapabilityLineage, MAX_LINEAGE, lineageRow } from './lineage';
import { type LineageRecordRow, type LineageRowError, signedLineageRows } from './sqlite-lineage';
import {
  type CheckpointRow,
  type ChioStoreReader,
  type ChioTable,
  type ClaimLogRow,
  type ReceiptRow,
  type RowError,
  type StoreKind,
  type StoreOpenResult,
  type TableCounts,
  type WalInfo,
  isRowError,
} from './sqlite-rows';

type ColumnType = 'int' | 'text';
type Row = Record<string, number | string>;
const RECEIPT_COLUMNS = { seq: 'int', receipt_id: 'text', raw_json: 'text' } as const;
/** `order`: the column rows are read by; when it is the rowid (alias), a damaged page is skipped by seeking past it. */
const TABLES: Record<ChioTable, { order: string; columns: Record<string, ColumnType>; orderIsRowid?: true }> = {
  chio_tool_receipts: { order: 'seq', columns: RECEIPT_COLUMNS, orderIsRowid: true },
  chio_child_receipts: { order: 'seq', columns: RECEIPT_COLUMNS, orderIsRowid: true },
  claim_receipt_log_entries: {
    order: 'entry_seq',
    orderIsRowid: true,
    columns: { entry_seq: 'int', receipt_id: 'text', receipt_kind: 'text', source_seq: 'int' },
  },
  kernel_checkpoints: {
    order: 'checkpoint_seq',
    columns: {
      checkpoint_seq: 'int',
      batch_start_seq: 'int',
      batch_end_seq: 'int',
      tree_size: 'int',
      merkle_root: 'text',
      issued_at: 'int',
      statement_json: 'text',
      signature: 'text',
      kernel_key: 'text',
    },
  },
  http_receipts: { order: 'rowid', columns: { id: 'text', receipt_json: 'text' }, orderIsRowid: true },
};
const KNOWN = Object.keys(TABLES) as ChioTable[];
const DECODERS: Record<string, string> = { 'UTF-8': 'utf-8', 'UTF-16le': 'utf-16le', 'UTF-16be': 'utf-16be' };

interface Ctx {
  db: Database;
  decoder: TextDecoder;
  tables: Set<ChioTable>;
  closed: boolean;
  open: Set<Statement>;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function closeQuietly(x: Database | Statement): void {
  try {
    if ('free' in x) x.free();
    else x.close();
  } catch {
    // freeing twice, or a store already closed: nothing left to release
  }
}

/** Rowid, each column's type and value, and last the order key (for resuming); from a key on when `from`. */
function selectSql(table: ChioTable, from: boolean): string {
  const spec = TABLES[table];
  const cols = Object.entries(spec.columns).map(([c, t]) => `typeof("${c}"), CAST("${c}" AS ${t === 'int' ? 'TEXT' : 'BLOB'})`);
  const where = from ? ` WHERE "${spec.order}" >= ?` : '';
  return `SELECT CAST(rowid AS TEXT), ${cols.join(', ')}, "${spec.order}" FROM "${table}"${where} ORDER BY "${spec.order}"`;
}

/** Damaged regions skipped per table before reading it gives up. */
const MAX_SKIPS = 64;

interface Problem {
  problem: string;
}

/** One value: an INTEGER that is a safe JS integer, or TEXT whose bytes decode strictly. */
function decodeValue(ctx: Ctx, col: string, type: ColumnType, sqlType: SqlValue, value: SqlValue): number | string | Problem {
  if (type === 'int') {
    if (sqlType !== 'integer') return { problem: `${col} is ${sqlType}, expected integer` };
    const n = Number(value);
    if (typeof value !== 'string' || !Number.isSafeInteger(n)) return { problem: `${col} ${String(value)} is beyond 2^53, not rounded` };
    return n;
  }
  if (sqlType !== 'text') return { problem: sqlType === 'null' ? `${col} is NULL` : `${col} is ${sqlType}, expected text` };
  if (!(value instanceof Uint8Array)) return { problem: `${col} could not be read as bytes` };
  try {
    return ctx.decoder.decode(value);
  } catch {
    return { problem: `${col} is not valid ${ctx.decoder.encoding}` };
  }
}

function decodeRow(ctx: Ctx, table: ChioTable, values: SqlValue[]): Row | RowError {
  const rowid = typeof values[0] === 'string' ? values[0] : null;
  const row: Row = {};
  const problems: string[] = [];
  Object.entries(TABLES[table].columns).forEach(([col, type], i) => {
    const v = decodeValue(ctx, col, type, values[1 + 2 * i] ?? null, values[2 + 2 * i] ?? null);
    if (typeof v === 'object') problems.push(v.problem);
    else row[col] = v;
  });
  return problems.length > 0 ? { error: problems.join('; '), table, rowid } : row;
}

function* readTable<T>(ctx: Ctx, table: ChioTable, build: (r: Row) => T | string): Generator<T | RowError> {
  if (ctx.closed) {
    yield { error: 'the store is closed', table, rowid: null };
    return;
  }
  if (!ctx.tables.has(table)) return;
  const { order, orderIsRowid } = TABLES[table];
  let from: number | null = null;
  let lastKey: number | null = null;
  for (let skips = 0; ; skips++) {
    let stmt: Statement;
    try {
      stmt = ctx.db.prepare(selectSql(table, from !== null));
      if (from !== null) stmt.bind([from]);
    } catch (e) {
      yield { error: `cannot read ${table}: ${messageOf(e)}`, table, rowid: null };
      return;
    }
    ctx.open.add(stmt);
    let failure: string | null = null;
    try {
      for (;;) {
        let values: SqlValue[];
        try {
          if (!stmt.step()) break;
          values = stmt.get();
        } catch (e) {
          // A damaged b-tree page (or a closed store): this cursor cannot move on.
          failure = messageOf(e);
          break;
        }
        const key = values[values.length - 1];
        if (typeof key === 'number') lastKey = key;
        const row = decodeRow(ctx, table, values);
        if (isRowError(row)) yield row;
        else {
          const built = build(row);
          const rowid = values[0] as string;
          yield typeof built === 'string' ? { error: built, table, rowid } : built;
        }
      }
    } finally {
      ctx.open.delete(stmt);
      closeQuietly(stmt);
    }
    if (failure === null) return;
    const next: number | null = orderIsRowid && !ctx.closed && skips < MAX_SKIPS ? resumeKey(ctx.db, table, order, lastKey) : null;
    const first = lastKey === null ? null : lastKey + 1;
    const rowid = first === null ? null : String(first);
    if (next === null) {
      const after = lastKey === null ? 'before its first row' : `after ${order} ${lastKey}`;
      yield { error: `reading ${table} stopped ${after}: ${failure}`, table, rowid };
      return;
    }
    const range = first === null ? `${order} up to ${next - 1}` : `${order} ${first} to ${next - 1}`;
    yield { error: `${range} could not be read (${failure}); reading went on at ${order} ${next}`, table, rowid };
    from = next;
    lastKey = next - 1;
  }
}

const receipt = (r: Row): ReceiptRow => ({ seq: r.seq as number, receiptId: r.receipt_id as string, rawJson: r.raw_json as string });

function claimLogEntry(r: Row): ClaimLogRow | string {
  const kind = r.receipt_kind;
  if (kind !== 'tool_receipt' && kind !== 'child_receipt') return `receipt_kind ${JSON.stringify(kind)} is neither tool_receipt nor child_receipt`;
  return { entrySeq: r.entry_seq as number, receiptId: r.receipt_id as string, receiptKind: kind, sourceSeq: r.source_seq as number };
}

const checkpoint = (r: Row): CheckpointRow => ({
  checkpointSeq: r.checkpoint_seq as number,
  batchStartSeq: r.batch_start_seq as number,
  batchEndSeq: r.batch_end_seq as number,
  treeSize: r.tree_size as number,
  merkleRoot: r.merkle_root as string,
  issuedAt: r.issued_at as number,
  statementJson: r.statement_json as string,
  signature: r.signature as string,
  kernelKey: r.kernel_key as string,
});

function counts(ctx: Ctx): TableCounts {
  const result: TableCounts = { rows: {}, errors: [] };
  for (const table of ctx.tables) {
    try {
      const value = ctx.closed ? 'the store is closed' : ctx.db.exec(`SELECT count(*) FROM "${table}"`)[0]?.values[0]?.[0];
      if (typeof value === 'number') result.rows[table] = value;
      else result.errors.push({ error: `cannot count ${table}: ${String(value)}`, table, rowid: null });
    } catch (e) {
      result.errors.push({ error: `cannot count ${table}: ${messageOf(e)}`, table, rowid: null });
    }
  }
  return result;
}

/** The size the header promises must be there: catches truncated copies before SQLite does. */
function checkImage(image: Uint8Array): string | null {
  const header = readDbPageSize(image);
  if (!header.ok) return header.message;
  const ps = header.pageSize;
  if (image.length % ps !== 0) return `truncated SQLite database: ${image.length} bytes is not a whole number of ${ps}-byte pages`;
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const pages = view.getUint32(28);
  const headerSizeValid = pages > 0 && view.getUint32(24) === view.getUint32(92);
  if (headerSizeValid && image.length < pages * ps) {
    return `truncated SQLite database: its header says ${pages} pages of ${ps} bytes, the file has ${image.length} bytes`;
  }
  return null;
}

/** Pragmas, encoding and the known tables with their columns; a string says why it is not a store. */
function inspect(db: Database, walHint: string): { decoder: TextDecoder; tables: Set<ChioTable> } | string {
  db.exec('PRAGMA query_only = 1; PRAGMA trusted_schema = 0; PRAGMA cell_size_check = 1');
  const encoding = String(db.exec('PRAGMA encoding')[0]?.values[0]?.[0]);
  const decoder = new TextDecoder(DECODERS[encoding] ?? 'utf-8', { fatal: true, ignoreBOM: true });
  const names = (db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? []).map((v) => String(v[0]));
  const tables = new Set(KNOWN.filter((t) => names.some((n) => n.toLowerCase() === t)));
  if (!tables.has('chio_tool_receipts') && !tables.has('http_receipts')) {
    const listed = names
      .slice(0, 5)
      .map((n) => n.slice(0, 64))
      .join(', ');
    const found = names.length === 0 ? 'it has no tables' : `it has ${names.length} table(s): ${listed}${names.length > 5 ? ', …' : ''}`;
    return `no Chio tables: found neither chio_tool_receipts (kernel store) nor http_receipts (sidecar store); ${found}${walHint}`;
  }
  for (const table of tables) {
    const have = new Set((db.exec(`SELECT lower(name) FROM pragma_table_info('${table}')`)[0]?.values ?? []).map((v) => String(v[0])));
    const missing = Object.keys(TABLES[table].columns).filter((c) => !have.has(c));
    if (missing.length > 0) return `${table} lacks column(s) ${missing.join(', ')}: not a Chio store this reader understands`;
  }
  return { decoder, tables };
}

function walHintFor(db: Uint8Array, wal: WalInfo | null, walGiven: boolean): string {
  if (wal?.walIgnored) return ` (${wal.walIgnored})`;
  if (!walGiven && db[18] === 2) return ' (the file is in WAL mode: its rows may be only in its -wal file; open it together with that file)';
  return '';
}

const LINEAGE_COLUMNS = ['capability_id', 'subject_key', 'issuer_key', 'issued_at', 'expires_at', 'grants_json', 'delegation_depth', 'parent_capability_id'];

function* readSignedLineage(ctx: Ctx): Generator<LineageRecordRow | LineageRowError> {
  if (ctx.closed) yield { rowid: null, error: 'the store is closed' };
  else yield* signedLineageRows(ctx.db, ctx.decoder, ctx.open);
}

/** capability_lineage, read leniently: it is context, so a missing column is left out and a bad row skipped. */
function readLineage(ctx: Ctx, name: string): { entries: CapabilityLineage[]; skipped: number } {
  const entries: CapabilityLineage[] = [];
  let skipped = 0;
  if (ctx.closed) return { entries, skipped };
  let stmt: Statement | null = null;
  try {
    const names = (ctx.db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND lower(name) = 'capability_lineage'")[0]?.values ?? []).map((v) =>
      String(v[0]),
    );
    if (names.length === 0) return { entries, skipped };
    const have = new Set((ctx.db.exec(`SELECT lower(name) FROM pragma_table_info('capability_lineage')`)[0]?.values ?? []).map((v) => String(v[0])));
    if (!have.has('capability_id')) return { entries, skipped };
    const cols = LINEAGE_COLUMNS.map((c) => (have.has(c) ? `CAST("${c}" AS TEXT)` : 'NULL'));
    stmt = ctx.db.prepare(`SELECT ${cols.join(', ')} FROM capability_lineage ORDER BY rowid`);
    ctx.open.add(stmt);
    const text = (v: SqlValue | undefined) => (typeof v === 'string' && v.length > 0 && v.length <= 1024 ? v : undefined);
    const int = (v: SqlValue | undefined) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : undefined);
    while (stmt.step()) {
      const v = stmt.get();
      const capabilityId = text(v[0]);
      if (capabilityId === undefined) {
        skipped++;
        continue;
      }
      if (entries.length >= MAX_LINEAGE) {
        skipped++;
        continue;
      }
      entries.push(
        lineageRow(
          {
            capabilityId,
            parentCapabilityId: text(v[7]),
            subjectKey: text(v[1]),
            issuerKey: text(v[2]),
            issuedAt: int(v[3]),
            expiresAt: int(v[4]),
            delegationDepth: int(v[6]),
            grantsJson: typeof v[5] === 'string' ? v[5] : undefined,
          },
          `${name}#capability_lineage`,
        ),
      );
    }
  } catch {
    // A corrupt table: what was read so far stands; the receipts are unaffected.
    skipped++;
  } finally {
    if (stmt) {
      ctx.open.delete(stmt);
      closeQuietly(stmt);
    }
  }
  return { entries, skipped };
}

/** Opens a Chio store image, applying `wal` first when given. Never throws on the bytes. */
export function openChioStore(SQL: SqlJsStatic, db: Uint8Array, wal?: Uint8Array): StoreOpenResult {
  let image = db;
  let walInfo: WalInfo | null = null;
  if (wal !== undefined) {
    const applied = applyWal(db, wal);
    if (!applied.ok) return applied;
    image = applied.bytes;
    walInfo = { framesApplied: applied.framesApplied };
    if (applied.walIgnored !== undefined) walInfo.walIgnored = applied.walIgnored;
    if (applied.tailIgnored !== undefined) walInfo.tailIgnored = applied.tailIgnored;
  }
  const problem = checkImage(image);
  if (problem !== null) return { ok: false, message: problem };
  let sdb: Database;
  try {
    sdb = new SQL.Database(image);
  } catch (e) {
    return { ok: false, message: `sql.js could not open the database: ${messageOf(e)}` };
  }
  let found: ReturnType<typeof inspect>;
  try {
    found = inspect(sdb, walHintFor(db, walInfo, wal !== undefined));
  } catch (e) {
    found = `malformed SQLite database: ${messageOf(e)}`;
  }
  if (typeof found === 'string') {
    closeQuietly(sdb);
    return { ok: false, message: found };
  }
  const ctx: Ctx = { db: sdb, decoder: found.decoder, tables: found.tables, closed: false, open: new Set() };
  const has = (t: ChioTable) => ctx.tables.has(t);
  const kind: StoreKind = has('chio_tool_receipts') ? (has('http_receipts') ? 'kernel+sidecar' : 'kernel') : 'sidecar';
  const store: ChioStoreReader = {
    kind,
    tables: KNOWN.filter(has),
    wal: walInfo,
    counts: () => counts(ctx),
    toolReceipts: () => readTable(ctx, 'chio_tool_receipts', receipt),
    childReceipts: () => readTable(ctx, 'chio_child_receipts', receipt),
    claimLog: () => readTable(ctx, 'claim_receipt_log_entries', claimLogEntry),
    checkpoints: () => readTable(ctx, 'kernel_checkpoints', checkpoint),
    httpReceipts: () => readTable(ctx, 'http_receipts', (r) => ({ id: r.id as string, receiptJson: r.receipt_json as string })),
    capabilityLineage: (name) => readLineage(ctx, name),
    signedLineage: () => readSignedLineage(ctx),
    close() {
      if (ctx.closed) return;
      ctx.closed = true;
      for (const stmt of ctx.open) closeQuietly(stmt);
      ctx.open.clear();
      closeQuietly(sdb);
    },
  };
  return { ok: true, store };
}
