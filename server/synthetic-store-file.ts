// Test and benchmark support: writes a synthetic store (synthetic-store.ts) of `count` tool
// receipts to a file with better-sqlite3 and the real Chio schema, 50,000 rows a transaction, and
// leaves it in WAL mode with no -wal, as a kernel that stopped leaves its store.
import Database from 'better-sqlite3';
import { CHIO_STORE_SCHEMA_SQL } from '../lib/sources/chio-store-schema';
import { INSERT_TOOL } from '../lib/sources/sqlite-store-writer';
import { syntheticLineage, syntheticReceipt } from './synthetic-store';

export function writeSyntheticStore(file: string, count: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(CHIO_STORE_SCHEMA_SQL);
  const lineage = db.prepare('INSERT INTO capability_lineage VALUES (?, ?, ?, ?, ?, ?, ?, NULL)');
  db.transaction(() => {
    for (const l of syntheticLineage()) lineage.run(l.capabilityId, l.subjectKey, l.issuerKey, l.issuedAt, l.expiresAt, l.grantsJson, l.delegationDepth);
  })();
  const insert = db.prepare(INSERT_TOOL);
  const batch = db.transaction((from: number, to: number) => {
    for (let seq = from; seq <= to; seq++) {
      const r = syntheticReceipt(seq);
      insert.run(
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
      );
    }
  });
  for (let from = 1; from <= count; from += 50_000) batch(from, Math.min(from + 49_999, count));
  db.pragma('journal_mode = WAL'); // as a kernel leaves it; closing removes the empty -wal
  db.close();
}
