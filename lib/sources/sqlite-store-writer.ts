// Builds a Chio kernel receipt store (chio-format.md §10) as SQLite bytes with sql.js: runs the
// real schema (chio-store-schema.ts), then inserts rows so the real triggers fill
// claim_receipt_log_entries and the checkpoint projections. For tests and the demo generator.
//
// Inputs are the caller's own data, not attacker input: a misuse (a duplicate receipt_id, an
// unsafe integer, a checkpoint whose predecessor is missing under foreign_keys=ON, as in Chio)
// throws. raw_json / statement_json are stored exactly as given.
import type { BindParams, Database, SqlJsStatic } from 'sql.js';
import { CHIO_STORE_SCHEMA_SQL } from './chio-store-schema';
import type { CheckpointRow } from './sqlite-rows';

export { CHIO_STORE_SCHEMA_SQL };

export interface ToolReceiptInput {
  rawJson: string;
  receiptId: string;
  timestamp: number;
  capabilityId: string;
  toolServer: string;
  toolName: string;
  decisionKind: string;
  policyHash: string;
  contentHash: string;
  tenantId?: string;
  subjectKey?: string;
  issuerKey?: string;
  grantIndex?: number;
}
export interface ChildReceiptInput {
  rawJson: string;
  receiptId: string;
  timestamp: number;
  sessionId: string;
  parentRequestId: string;
  requestId: string;
  operationKind: string;
  terminalState: string;
  policyHash: string;
  outcomeHash: string;
}
/** A `capability_lineage` row (the schema's columns, camelCased). */
export interface CapabilityLineageInput {
  capabilityId: string;
  subjectKey: string;
  issuerKey: string;
  issuedAt: number;
  expiresAt: number;
  grantsJson: string;
  delegationDepth: number;
  parentCapabilityId?: string | null;
  /** Newer stores (CAPABILITY_LINEAGE_PROVENANCE_SQL): the row's provenance and its signed token's JSON. */
  provenance?: 'signed_token' | 'synthetic_anchor' | 'legacy_projection';
  signedCapabilityJson?: string | null;
}

/** A `chio_checkpoints` row as written: the same columns the reader reads back. */
export type CheckpointInput = CheckpointRow;
export interface ChioStoreInput {
  toolReceipts: ToolReceiptInput[];
  childReceipts?: ChildReceiptInput[];
  checkpoints?: CheckpointInput[];
}

export const INSERT_TOOL = `INSERT INTO chio_tool_receipts (receipt_id, timestamp, capability_id, subject_key, issuer_key,
  grant_index, tool_server, tool_name, decision_kind, policy_hash, content_hash, raw_json, tenant_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?)`;
export const INSERT_CHILD = `INSERT INTO chio_child_receipts (receipt_id, timestamp, session_id, parent_request_id,
  request_id, operation_kind, terminal_state, policy_hash, outcome_hash, raw_json)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT))`;
/**
 * The columns newer Chio stores add to capability_lineage for signed lineage (format v2 §16.9; upstream
 * chio-store-sqlite's capability_lineage): absent from the older real store CHIO_STORE_SCHEMA_SQL was
 * read from, so they are added as a migration adds them.
 */
export const CAPABILITY_LINEAGE_PROVENANCE_SQL = `ALTER TABLE capability_lineage ADD COLUMN federated_parent_capability_id TEXT;
ALTER TABLE capability_lineage ADD COLUMN provenance TEXT NOT NULL DEFAULT 'legacy_projection'
    CHECK (provenance IN ('signed_token', 'synthetic_anchor', 'legacy_projection'));
ALTER TABLE capability_lineage ADD COLUMN signed_capability_json TEXT;`;
/** A capability_lineage row with its provenance and token (after CAPABILITY_LINEAGE_PROVENANCE_SQL). */
export const INSERT_LINEAGE = `INSERT INTO capability_lineage (capability_id, subject_key, issuer_key, issued_at, expires_at,
  grants_json, delegation_depth, parent_capability_id, provenance, signed_capability_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
export const INSERT_CHECKPOINT = `INSERT INTO kernel_checkpoints (checkpoint_seq, batch_start_seq, batch_end_seq,
  tree_size, merkle_root, issued_at, statement_json, signature, kernel_key)
  VALUES (?, ?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?)`;

function int(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`createChioStore: ${field} ${value} is not a safe integer`);
  return value;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The signed JSON texts go in as UTF-8 bytes cast to TEXT: sql.js binds strings NUL-terminated,
 * which would cut a text at U+0000. A lone surrogate has no UTF-8 form, so it is refused.
 */
function exactText(text: string, field: string): Uint8Array {
  if (LONE_SURROGATE.test(text)) throw new RangeError(`createChioStore: ${field} has a lone surrogate, not storable as UTF-8`);
  return new TextEncoder().encode(text);
}

function toolParams(r: ToolReceiptInput): BindParams {
  return [
    r.receiptId,
    int(r.timestamp, 'timestamp'),
    r.capabilityId,
    r.subjectKey ?? null,
    r.issuerKey ?? null,
    r.grantIndex === undefined ? null : int(r.grantIndex, 'grantIndex'),
    r.toolServer,
    r.toolName,
    r.decisionKind,
    r.policyHash,
    r.contentHash,
    exactText(r.rawJson, 'rawJson'),
    r.tenantId ?? null,
  ];
}

function childParams(r: ChildReceiptInput): BindParams {
  return [
    r.receiptId,
    int(r.timestamp, 'timestamp'),
    r.sessionId,
    r.parentRequestId,
    r.requestId,
    r.operationKind,
    r.terminalState,
    r.policyHash,
    r.outcomeHash,
    exactText(r.rawJson, 'rawJson'),
  ];
}

function checkpointParams(c: CheckpointInput): BindParams {
  return [
    int(c.checkpointSeq, 'checkpointSeq'),
    int(c.batchStartSeq, 'batchStartSeq'),
    int(c.batchEndSeq, 'batchEndSeq'),
    int(c.treeSize, 'treeSize'),
    c.merkleRoot,
    int(c.issuedAt, 'issuedAt'),
    exactText(c.statementJson, 'statementJson'),
    c.signature,
    c.kernelKey,
  ];
}

/**
 * Receipts go in as the kernel logs them, by time: the two lists are merged by timestamp (each
 * keeps its own order; a tie goes to the tool receipt), so the claim log interleaves them.
 */
function insertReceipts(db: Database, tools: ToolReceiptInput[], children: ChildReceiptInput[]): void {
  const tool = db.prepare(INSERT_TOOL);
  const child = db.prepare(INSERT_CHILD);
  try {
    let t = 0;
    let c = 0;
    while (t < tools.length || c < children.length) {
      const nextTool = tools[t];
      const nextChild = children[c];
      if (nextTool !== undefined && (nextChild === undefined || nextTool.timestamp <= nextChild.timestamp)) {
        tool.run(toolParams(nextTool));
        t++;
      } else if (nextChild !== undefined) {
        child.run(childParams(nextChild));
        c++;
      }
    }
  } finally {
    tool.free();
    child.free();
  }
}

/** A new kernel store holding `input`, as SQLite database bytes (rollback-journal mode). */
export function createChioStore(SQL: SqlJsStatic, input: ChioStoreInput): Uint8Array {
  const db = new SQL.Database();
  try {
    db.exec('PRAGMA foreign_keys = ON');
    db.exec(CHIO_STORE_SCHEMA_SQL);
    db.exec('BEGIN');
    insertReceipts(db, input.toolReceipts, input.childReceipts ?? []);
    const insert = db.prepare(INSERT_CHECKPOINT);
    try {
      for (const cp of input.checkpoints ?? []) insert.run(checkpointParams(cp));
    } finally {
      insert.free();
    }
    db.exec('COMMIT');
    return db.export();
  } finally {
    db.close();
  }
}
