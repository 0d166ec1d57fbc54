// Chio receipt store schema: the four core tables (chio_tool_receipts, chio_child_receipts,
// claim_receipt_log_entries, kernel_checkpoints), their indexes and triggers, and the three
// projections the kernel_checkpoints trigger fills (checkpoint_tree_heads,
// checkpoint_predecessor_witnesses, checkpoint_publication_metadata). Spec: chio-format.md §10.
//
// Not invented: every statement below is the `sql` column of sqlite_master, verbatim and in
// rowid (creation) order, read from the real store
// ../shared/vectors/chio/showcase/sqlite/operator-receipts.sqlite3 (made by a released Chio
// binary; upstream crates/chio-store-sqlite/src/receipt_store/bootstrap.rs). The odd
// "\n            , tenant_id TEXT)" is how SQLite records the later ALTER TABLE ADD COLUMN.
// Also capability_lineage (agent subjects behind capabilities; exported as capability-lineage.ndjson).
// Left out: checkpoint_publication_trust_anchor_bindings (no trigger fills it), the other lineage,
// economic and liability tables, and sqlite_sequence (SQLite creates it for AUTOINCREMENT).
// Chio opens the store with PRAGMA journal_mode=WAL, synchronous=FULL, foreign_keys=ON.
// A TypeScript constant because lib/ cannot read files: it runs unbundled in Node, browsers
// and workers. A test compares it with the real store's sqlite_master.
// Over 400 lines because it is one verbatim SQL text, compared whole with the real store's
// schema: split, it would no longer read as the sqlite_master it copies.

export const CHIO_STORE_SCHEMA_SQL = `CREATE TABLE chio_tool_receipts (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                receipt_id TEXT NOT NULL UNIQUE,
                timestamp INTEGER NOT NULL,
                capability_id TEXT NOT NULL,
                subject_key TEXT,
                issuer_key TEXT,
                grant_index INTEGER,
                tool_server TEXT NOT NULL,
                tool_name TEXT NOT NULL,
                decision_kind TEXT NOT NULL,
                policy_hash TEXT NOT NULL,
                content_hash TEXT NOT NULL,
                raw_json TEXT NOT NULL
            , tenant_id TEXT);

CREATE INDEX idx_chio_tool_receipts_timestamp
                ON chio_tool_receipts(timestamp);

CREATE INDEX idx_chio_tool_receipts_capability
                ON chio_tool_receipts(capability_id);

CREATE INDEX idx_chio_tool_receipts_subject
                ON chio_tool_receipts(subject_key);

CREATE INDEX idx_chio_tool_receipts_grant
                ON chio_tool_receipts(capability_id, grant_index);

CREATE INDEX idx_chio_tool_receipts_tool
                ON chio_tool_receipts(tool_server, tool_name);

CREATE INDEX idx_chio_tool_receipts_decision
                ON chio_tool_receipts(decision_kind);

CREATE TABLE chio_child_receipts (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                receipt_id TEXT NOT NULL UNIQUE,
                timestamp INTEGER NOT NULL,
                session_id TEXT NOT NULL,
                parent_request_id TEXT NOT NULL,
                request_id TEXT NOT NULL,
                operation_kind TEXT NOT NULL,
                terminal_state TEXT NOT NULL,
                policy_hash TEXT NOT NULL,
                outcome_hash TEXT NOT NULL,
                raw_json TEXT NOT NULL
            );

CREATE INDEX idx_chio_child_receipts_timestamp
                ON chio_child_receipts(timestamp);

CREATE INDEX idx_chio_child_receipts_session
                ON chio_child_receipts(session_id);

CREATE INDEX idx_chio_child_receipts_parent
                ON chio_child_receipts(parent_request_id);

CREATE INDEX idx_chio_child_receipts_request
                ON chio_child_receipts(request_id);

CREATE TABLE claim_receipt_log_entries (
                entry_seq INTEGER PRIMARY KEY AUTOINCREMENT,
                receipt_id TEXT NOT NULL UNIQUE,
                receipt_kind TEXT NOT NULL,
                source_seq INTEGER NOT NULL,
                timestamp INTEGER NOT NULL,
                capability_id TEXT,
                session_id TEXT,
                parent_request_id TEXT,
                request_id TEXT,
                subject_key TEXT,
                issuer_key TEXT,
                tool_server TEXT,
                tool_name TEXT,
                raw_json TEXT NOT NULL,
                CHECK (receipt_kind IN ('tool_receipt', 'child_receipt')),
                CHECK (
                    (receipt_kind = 'tool_receipt'
                        AND capability_id IS NOT NULL
                        AND session_id IS NULL
                        AND parent_request_id IS NULL
                        AND request_id IS NULL
                        AND tool_server IS NOT NULL
                        AND tool_name IS NOT NULL)
                    OR
                    (receipt_kind = 'child_receipt'
                        AND capability_id IS NULL
                        AND session_id IS NOT NULL
                        AND parent_request_id IS NOT NULL
                        AND request_id IS NOT NULL
                        AND tool_server IS NULL
                        AND tool_name IS NULL)
                )
            );

CREATE UNIQUE INDEX idx_claim_receipt_log_kind_source
                ON claim_receipt_log_entries(receipt_kind, source_seq);

CREATE INDEX idx_claim_receipt_log_timestamp
                ON claim_receipt_log_entries(timestamp, entry_seq);

CREATE INDEX idx_claim_receipt_log_tool
                ON claim_receipt_log_entries(tool_server, tool_name, timestamp)
                WHERE receipt_kind = 'tool_receipt';

CREATE INDEX idx_claim_receipt_log_child_request
                ON claim_receipt_log_entries(session_id, request_id, timestamp)
                WHERE receipt_kind = 'child_receipt';

CREATE TRIGGER chio_tool_receipts_project_claim_log_entry
            AFTER INSERT ON chio_tool_receipts
            BEGIN
                INSERT OR IGNORE INTO claim_receipt_log_entries (
                    receipt_id,
                    receipt_kind,
                    source_seq,
                    timestamp,
                    capability_id,
                    session_id,
                    parent_request_id,
                    request_id,
                    subject_key,
                    issuer_key,
                    tool_server,
                    tool_name,
                    raw_json
                ) VALUES (
                    NEW.receipt_id,
                    'tool_receipt',
                    NEW.seq,
                    NEW.timestamp,
                    NEW.capability_id,
                    NULL,
                    NULL,
                    NULL,
                    NEW.subject_key,
                    NEW.issuer_key,
                    NEW.tool_server,
                    NEW.tool_name,
                    NEW.raw_json
                );
            END;

CREATE TRIGGER chio_child_receipts_project_claim_log_entry
            AFTER INSERT ON chio_child_receipts
            BEGIN
                INSERT OR IGNORE INTO claim_receipt_log_entries (
                    receipt_id,
                    receipt_kind,
                    source_seq,
                    timestamp,
                    capability_id,
                    session_id,
                    parent_request_id,
                    request_id,
                    subject_key,
                    issuer_key,
                    tool_server,
                    tool_name,
                    raw_json
                ) VALUES (
                    NEW.receipt_id,
                    'child_receipt',
                    NEW.seq,
                    NEW.timestamp,
                    NULL,
                    NEW.session_id,
                    NEW.parent_request_id,
                    NEW.request_id,
                    NULL,
                    NULL,
                    NULL,
                    NULL,
                    NEW.raw_json
                );
            END;

CREATE TABLE kernel_checkpoints (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                checkpoint_seq INTEGER NOT NULL UNIQUE,
                batch_start_seq INTEGER NOT NULL,
                batch_end_seq INTEGER NOT NULL,
                tree_size INTEGER NOT NULL,
                merkle_root TEXT NOT NULL,
                issued_at INTEGER NOT NULL,
                statement_json TEXT NOT NULL,
                signature TEXT NOT NULL,
                kernel_key TEXT NOT NULL
            );

CREATE INDEX idx_kernel_checkpoints_batch_end
                ON kernel_checkpoints(batch_end_seq);

CREATE TABLE checkpoint_tree_heads (
                checkpoint_seq INTEGER PRIMARY KEY
                    REFERENCES kernel_checkpoints(checkpoint_seq) ON DELETE CASCADE,
                batch_start_seq INTEGER NOT NULL,
                batch_end_seq INTEGER NOT NULL,
                tree_size INTEGER NOT NULL,
                merkle_root TEXT NOT NULL,
                issued_at INTEGER NOT NULL,
                kernel_key TEXT NOT NULL,
                previous_checkpoint_sha256 TEXT,
                statement_json TEXT NOT NULL,
                signature TEXT NOT NULL
            );

CREATE INDEX idx_checkpoint_tree_heads_tree_size
                ON checkpoint_tree_heads(tree_size);

CREATE INDEX idx_checkpoint_tree_heads_previous
                ON checkpoint_tree_heads(previous_checkpoint_sha256);

CREATE TABLE checkpoint_predecessor_witnesses (
                predecessor_checkpoint_seq INTEGER NOT NULL
                    REFERENCES checkpoint_tree_heads(checkpoint_seq) ON DELETE CASCADE,
                witness_checkpoint_seq INTEGER PRIMARY KEY
                    REFERENCES checkpoint_tree_heads(checkpoint_seq) ON DELETE CASCADE,
                previous_checkpoint_sha256 TEXT NOT NULL,
                witnessed_at INTEGER NOT NULL,
                witness_statement_json TEXT NOT NULL
            );

CREATE INDEX idx_checkpoint_predecessor_witnesses_predecessor
                ON checkpoint_predecessor_witnesses(predecessor_checkpoint_seq);

CREATE INDEX idx_checkpoint_predecessor_witnesses_previous
                ON checkpoint_predecessor_witnesses(previous_checkpoint_sha256);

CREATE TABLE checkpoint_publication_metadata (
                checkpoint_seq INTEGER PRIMARY KEY
                    REFERENCES kernel_checkpoints(checkpoint_seq) ON DELETE CASCADE,
                publication_schema TEXT NOT NULL,
                merkle_root TEXT NOT NULL,
                published_at INTEGER NOT NULL,
                kernel_key TEXT NOT NULL,
                log_tree_size INTEGER NOT NULL,
                entry_start_seq INTEGER NOT NULL,
                entry_end_seq INTEGER NOT NULL,
                previous_checkpoint_sha256 TEXT
            );

CREATE INDEX idx_checkpoint_publication_metadata_published_at
                ON checkpoint_publication_metadata(published_at);

CREATE INDEX idx_checkpoint_publication_metadata_log_tree_size
                ON checkpoint_publication_metadata(log_tree_size);

CREATE INDEX idx_checkpoint_publication_metadata_previous
                ON checkpoint_publication_metadata(previous_checkpoint_sha256);

CREATE TRIGGER kernel_checkpoints_project_tree_head
            AFTER INSERT ON kernel_checkpoints
            BEGIN
                INSERT OR IGNORE INTO checkpoint_tree_heads (
                    checkpoint_seq,
                    batch_start_seq,
                    batch_end_seq,
                    tree_size,
                    merkle_root,
                    issued_at,
                    kernel_key,
                    previous_checkpoint_sha256,
                    statement_json,
                    signature
                ) VALUES (
                    NEW.checkpoint_seq,
                    NEW.batch_start_seq,
                    NEW.batch_end_seq,
                    NEW.tree_size,
                    NEW.merkle_root,
                    NEW.issued_at,
                    NEW.kernel_key,
                    CAST(json_extract(NEW.statement_json, '$.previous_checkpoint_sha256') AS TEXT),
                    NEW.statement_json,
                    NEW.signature
                );

                INSERT OR IGNORE INTO checkpoint_predecessor_witnesses (
                    predecessor_checkpoint_seq,
                    witness_checkpoint_seq,
                    previous_checkpoint_sha256,
                    witnessed_at,
                    witness_statement_json
                )
                SELECT
                    NEW.checkpoint_seq - 1,
                    NEW.checkpoint_seq,
                    CAST(json_extract(NEW.statement_json, '$.previous_checkpoint_sha256') AS TEXT),
                    NEW.issued_at,
                    NEW.statement_json
                WHERE json_extract(NEW.statement_json, '$.previous_checkpoint_sha256') IS NOT NULL;

                INSERT OR IGNORE INTO checkpoint_publication_metadata (
                    checkpoint_seq,
                    publication_schema,
                    merkle_root,
                    published_at,
                    kernel_key,
                    log_tree_size,
                    entry_start_seq,
                    entry_end_seq,
                    previous_checkpoint_sha256
                ) VALUES (
                    NEW.checkpoint_seq,
                    'chio.checkpoint_publication.v1',
                    NEW.merkle_root,
                    NEW.issued_at,
                    NEW.kernel_key,
                    NEW.batch_end_seq,
                    NEW.batch_start_seq,
                    NEW.batch_end_seq,
                    CAST(json_extract(NEW.statement_json, '$.previous_checkpoint_sha256') AS TEXT)
                );
            END;

CREATE TABLE capability_lineage (
                capability_id        TEXT PRIMARY KEY,
                subject_key          TEXT NOT NULL,
                issuer_key           TEXT NOT NULL,
                issued_at            INTEGER NOT NULL,
                expires_at           INTEGER NOT NULL,
                grants_json          TEXT NOT NULL,
                delegation_depth     INTEGER NOT NULL DEFAULT 0,
                parent_capability_id TEXT REFERENCES capability_lineage(capability_id)
            );

CREATE INDEX idx_capability_lineage_subject
                ON capability_lineage(subject_key);

CREATE INDEX idx_capability_lineage_issuer
                ON capability_lineage(issuer_key);

CREATE INDEX idx_capability_lineage_issued_at
                ON capability_lineage(issued_at);

CREATE INDEX idx_capability_lineage_parent
                ON capability_lineage(parent_capability_id);

CREATE INDEX idx_chio_tool_receipts_tenant ON chio_tool_receipts(tenant_id);

CREATE TRIGGER claim_receipt_log_entries_reject_update
BEFORE UPDATE ON claim_receipt_log_entries
BEGIN
    SELECT RAISE(ABORT, 'claim receipt log entries are immutable');
END;

CREATE TRIGGER claim_receipt_log_entries_reject_delete
BEFORE DELETE ON claim_receipt_log_entries
BEGIN
    SELECT RAISE(ABORT, 'claim receipt log entries are immutable');
END;

CREATE TRIGGER checkpoint_tree_heads_reject_update
BEFORE UPDATE ON checkpoint_tree_heads
BEGIN
    SELECT RAISE(ABORT, 'checkpoint tree heads are immutable');
END;

CREATE TRIGGER checkpoint_tree_heads_reject_delete
BEFORE DELETE ON checkpoint_tree_heads
BEGIN
    SELECT RAISE(ABORT, 'checkpoint tree heads are immutable');
END;

CREATE TRIGGER checkpoint_predecessor_witnesses_reject_update
BEFORE UPDATE ON checkpoint_predecessor_witnesses
BEGIN
    SELECT RAISE(ABORT, 'checkpoint predecessor witnesses are immutable');
END;

CREATE TRIGGER checkpoint_predecessor_witnesses_reject_delete
BEFORE DELETE ON checkpoint_predecessor_witnesses
BEGIN
    SELECT RAISE(ABORT, 'checkpoint predecessor witnesses are immutable');
END;

CREATE TRIGGER checkpoint_publication_metadata_reject_update
BEFORE UPDATE ON checkpoint_publication_metadata
BEGIN
    SELECT RAISE(ABORT, 'checkpoint publication metadata is immutable');
END;

CREATE TRIGGER checkpoint_publication_metadata_reject_delete
BEFORE DELETE ON checkpoint_publication_metadata
BEGIN
    SELECT RAISE(ABORT, 'checkpoint publication metadata is immutable');
END;
`;
