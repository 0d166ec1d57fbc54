// Server side: what an export query selects from a Chio store (chio-format.md §11.1): the SQL
// filter over its tool receipts, and the shapes StoreEvidence (./evidence.ts) hands to the export
// (./export.ts): the plan, a checked tool receipt, a checkpoint's batch.
import type { EvidenceQuery } from '../../lib/query/evidence-query';
import type { CheckpointRow } from '../../lib/sources/sqlite-rows';
import type { CoverageOrder } from '../../lib/sources/store';
import type { ChildReceiptScope } from '../../lib/verify/package-query';
import type { CheckedRow } from '../stored-row';

export type ChildScope = ChildReceiptScope;

/** WHERE clause (over table alias `t`) and parameters selecting the query's tool receipts. */
export function toolFilter(q: EvidenceQuery, withLineage: boolean): { where: string; params: (string | number)[] } {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (q.capabilityId !== undefined) {
    clauses.push('t.capability_id = ?');
    params.push(q.capabilityId);
  }
  if (q.agentSubject !== undefined) {
    const viaLineage = withLineage ? ' OR t.capability_id IN (SELECT capability_id FROM capability_lineage WHERE subject_key = ?)' : '';
    clauses.push(`(t.subject_key = ?${viaLineage})`);
    params.push(q.agentSubject, ...(viaLineage ? [q.agentSubject] : []));
  }
  if (q.since !== undefined) {
    clauses.push('t.timestamp >= ?');
    params.push(q.since);
  }
  if (q.until !== undefined) {
    clauses.push('t.timestamp <= ?');
    params.push(q.until);
  }
  if (q.tenant !== undefined) {
    clauses.push('t.tenant_id = ?');
    params.push(q.tenant);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export interface ExportPlan {
  query: EvidenceQuery;
  childScope: ChildScope;
  /** How receipts are numbered: by tool seq, or by the claim log's entry_seq (its checkpoints cover that). */
  order: CoverageOrder;
  note?: string;
}

/** A tool receipt of the query: `seq` is its number in the export (tool seq, or entry_seq), `toolSeq` its row's. */
export interface ExportReceipt {
  seq: number;
  toolSeq: number;
  receiptId: string;
  row: CheckedRow;
}

/** A checkpoint's batch as stored: its rows checked, and proofs when their leaves reproduce its root. */
export interface Batch {
  cp: CheckpointRow;
  /** Checked rows by export seq (tool receipts; in claim-log order also children). */
  rows: Map<number, CheckedRow>;
  /** ReceiptInclusionProof JSON by export seq; null when the stored rows do not reproduce the root. */
  proofs: Map<number, string> | null;
}
