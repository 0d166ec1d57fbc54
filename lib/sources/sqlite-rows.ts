// What the Chio SQLite store reader (./sqlite-store.ts; chio-format.md §10) hands out: the
// tables it knows, the row shapes it builds, RowError for a row it could not read, and the
// ChioStoreReader interface itself. Rows come from an attacker-controlled file. Pure.
import type { CapabilityLineage } from './lineage';
import type { LineageRecordRow, LineageRowError } from './sqlite-lineage';

export type ChioTable = 'chio_tool_receipts' | 'chio_child_receipts' | 'claim_receipt_log_entries' | 'kernel_checkpoints' | 'http_receipts';
/** 'kernel': has chio_tool_receipts; 'sidecar': has http_receipts; both if it has both. */
export type StoreKind = 'kernel' | 'sidecar' | 'kernel+sidecar';

/** A row that could not be read. `error` says what is wrong, without repeating table and rowid;
 * rowid is SQLite's exact decimal text (it may exceed 2^53), null when no row could be reached. */
export interface RowError {
  error: string;
  table: ChioTable;
  rowid: string | null;
}
export interface ReceiptRow {
  seq: number;
  receiptId: string;
  rawJson: string;
}
export interface ClaimLogRow {
  entrySeq: number;
  receiptId: string;
  receiptKind: 'tool_receipt' | 'child_receipt';
  sourceSeq: number;
}
export interface CheckpointRow {
  checkpointSeq: number;
  batchStartSeq: number;
  batchEndSeq: number;
  treeSize: number;
  /** Hex without 0x, as Chio stores it (the statement_json has the 0x form). */
  merkleRoot: string;
  issuedAt: number;
  statementJson: string;
  signature: string;
  kernelKey: string;
}
export interface HttpReceiptRow {
  id: string;
  receiptJson: string;
}
export interface TableCounts {
  rows: Partial<Record<ChioTable, number>>;
  errors: RowError[];
}
export interface WalInfo {
  framesApplied: number;
  walIgnored?: string;
  tailIgnored?: string;
}

export interface ChioStoreReader {
  kind: StoreKind;
  /** The known tables present; iterators over absent tables yield nothing. */
  tables: ChioTable[];
  /** What happened to the -wal file; null when none was given. */
  wal: WalInfo | null;
  counts(): TableCounts;
  toolReceipts(): Generator<ReceiptRow | RowError>;
  childReceipts(): Generator<ReceiptRow | RowError>;
  claimLog(): Generator<ClaimLogRow | RowError>;
  checkpoints(): Generator<CheckpointRow | RowError>;
  httpReceipts(): Generator<HttpReceiptRow | RowError>;
  /**
   * The `capability_lineage` rows (unsigned context, not receipts), at most
   * MAX_LINEAGE; `skipped` counts unreadable rows. Empty when the table is absent.
   */
  capabilityLineage(name: string): { entries: CapabilityLineage[]; skipped: number };
  /** The `capability_lineage` rows the verifier judges: those with a token or a provenance other than legacy_projection (sqlite-lineage.ts). */
  signedLineage(): Generator<LineageRecordRow | LineageRowError>;
  /** Frees the database and any statement still open. Iterating afterwards yields one RowError. */
  close(): void;
}
export type StoreOpenResult = { ok: true; store: ChioStoreReader } | { ok: false; message: string };

export function isRowError(row: object): row is RowError {
  return 'error' in row;
}
