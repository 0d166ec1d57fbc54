// Writes a Chio-schema SQLite receipt store with better-sqlite3: real schema and triggers, prepared inserts, ~10k rows per transaction, rollback journal.
//
// The file is left in journal_mode=DELETE, so a reader needs no -wal or -shm file, and the
// schema's AFTER INSERT triggers fill claim_receipt_log_entries and the checkpoint projections as
// in a live kernel. The INSERT statements are the ones lib/sources/sqlite-store-writer.ts uses.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import {
  CAPABILITY_LINEAGE_PROVENANCE_SQL,
  CHIO_STORE_SCHEMA_SQL,
  type CheckpointInput,
  type ChildReceiptInput,
  INSERT_CHECKPOINT,
  INSERT_CHILD,
  INSERT_LINEAGE,
  INSERT_TOOL,
  type ToolReceiptInput,
} from '../../lib/sources/sqlite-store-writer';
import type { LineageRow } from './actors';

export const ROWS_PER_TRANSACTION = 10_000;
/** SQLite page cache while writing (KiB): fixed, so memory stays flat at any count. */
const CACHE_KIB = 64 * 1024;

export class StoreWriter {
  private readonly db: Database.Database;
  private readonly tool: Database.Statement;
  private readonly child: Database.Statement;
  private readonly checkpoint: Database.Statement;
  private readonly lineage: Database.Statement;
  private rowsInTransaction = 0;

  /** Creates `file` afresh (an older store and its journal files are removed first). */
  constructor(file: string) {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = DELETE');
    this.db.pragma('synchronous = OFF'); // a half-written demo store is simply made again
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.db.pragma('foreign_keys = ON'); // as Chio opens its store
    this.db.exec(CHIO_STORE_SCHEMA_SQL);
    // Signed lineage (format v2 §16.9): each capability_lineage row keeps its signed token.
    this.db.exec(CAPABILITY_LINEAGE_PROVENANCE_SQL);
    this.tool = this.db.prepare(INSERT_TOOL);
    this.child = this.db.prepare(INSERT_CHILD);
    this.checkpoint = this.db.prepare(INSERT_CHECKPOINT);
    this.lineage = this.db.prepare(INSERT_LINEAGE);
  }

  addTool(r: ToolReceiptInput): void {
    this.run(this.tool, [
      r.receiptId,
      r.timestamp,
      r.capabilityId,
      r.subjectKey ?? null,
      r.issuerKey ?? null,
      r.grantIndex ?? null,
      r.toolServer,
      r.toolName,
      r.decisionKind,
      r.policyHash,
      r.contentHash,
      r.rawJson,
      r.tenantId ?? null,
    ]);
  }

  addChild(r: ChildReceiptInput): void {
    this.run(this.child, [
      r.receiptId,
      r.timestamp,
      r.sessionId,
      r.parentRequestId,
      r.requestId,
      r.operationKind,
      r.terminalState,
      r.policyHash,
      r.outcomeHash,
      r.rawJson,
    ]);
  }

  addCheckpoint(c: CheckpointInput): void {
    this.run(this.checkpoint, [
      c.checkpointSeq,
      c.batchStartSeq,
      c.batchEndSeq,
      c.treeSize,
      c.merkleRoot,
      c.issuedAt,
      c.statementJson,
      c.signature,
      c.kernelKey,
    ]);
  }

  addLineage(l: LineageRow): void {
    this.run(this.lineage, [
      l.capabilityId,
      l.subjectKey,
      l.issuerKey,
      l.issuedAt,
      l.expiresAt,
      l.grantsJson,
      l.delegationDepth,
      l.parentCapabilityId,
      l.provenance,
      l.signedCapabilityJson,
    ]);
  }

  /** Commits the last transaction and closes the file. */
  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }

  private run(statement: Database.Statement, params: unknown[]): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    statement.run(...params);
    if (++this.rowsInTransaction >= ROWS_PER_TRANSACTION) {
      this.db.exec('COMMIT');
      this.rowsInTransaction = 0;
    }
  }
}
