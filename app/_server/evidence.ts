// Server side: selects the evidence of a Chio store for an export query
// (chio-format.md §11.1–§11.2) and computes what the store does not keep:
// inclusion proofs, rebuilt from each checkpoint's batch, and the derived
// transparency records. Stored JSON is passed through as text, never
// re-serialized, so u64 amounts survive. The server is not trusted: the page
// re-verifies everything this produces.
import type { Statement } from 'better-sqlite3';
import { chainLeafHash, checkpointSha256, decodeCheckpoint } from '../../lib/chio/checkpoint';
import { buildConsistencyRecordV2 } from '../../lib/chio/consistency-proof';
import { receiptLeafHash } from '../../lib/chio/leaf';
import { canonicalize } from '../../lib/json/canonicalize';
import { parseJson } from '../../lib/json/parse';
import { compactJson } from '../../lib/json/pretty';
import { isJsonObject } from '../../lib/json/value';
import { type EvidenceQuery, exportChildScope } from '../../lib/query/evidence-query';
import { type ClaimLogRow, type CheckpointRow, type ReceiptRow } from '../../lib/sources/sqlite-store';
import { checkpointRecordText, coverageOrder, inclusionProofText } from '../../lib/sources/store';
import type { CheckpointEntry } from '../../lib/verify/entries';
import type { ChildReceiptScope } from '../../lib/verify/package-query';
import { expectedPublication, expectedWitness } from '../../lib/verify/transparency';
import type { StoreDb } from './db';

/** One exported lineage row, in CapabilitySnapshot's field order. */
function lineageLine(row: Record<string, unknown>): string {
  const { federated_parent_capability_id: federated, provenance, signed_capability_json: token, ...projection } = row;
  let line = JSON.stringify(projection).slice(0, -1);
  if (typeof federated === 'string') line += `,"federated_parent_capability_id":${JSON.stringify(federated)}`;
  line += `,"provenance":${JSON.stringify(provenance)}`;
  if (typeof token === 'string') {
    const parsed = parseJson(token);
    line += `,"signed_capability":${parsed.ok && isJsonObject(parsed.value) ? compactJson(parsed.value) : 'null'}`;
  }
  return `${line}}`;
}

export type ChildScope = ChildReceiptScope;

/** WHERE clause and parameters selecting the query's tool receipts. */
function toolFilter(q: EvidenceQuery, withLineage: boolean): { where: string; params: (string | number)[] } {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (q.capabilityId !== undefined) {
    clauses.push('capability_id = ?');
    params.push(q.capabilityId);
  }
  if (q.agentSubject !== undefined) {
    const viaLineage = withLineage ? ' OR capability_id IN (SELECT capability_id FROM capability_lineage WHERE subject_key = ?)' : '';
    clauses.push(`(subject_key = ?${viaLineage})`);
    params.push(q.agentSubject, ...(viaLineage ? [q.agentSubject] : []));
  }
  if (q.since !== undefined) {
    clauses.push('timestamp >= ?');
    params.push(q.since);
  }
  if (q.until !== undefined) {
    clauses.push('timestamp <= ?');
    params.push(q.until);
  }
  if (q.tenant !== undefined) {
    clauses.push('tenant_id = ?');
    params.push(q.tenant);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export interface ExportPlan {
  query: EvidenceQuery;
  childScope: ChildScope;
  /** Checkpoints carry proofs only when they cover tool receipts by tool seq (see lib/sources/store.ts). */
  proofsPossible: boolean;
  note?: string;
}

/** The evidence of one store for one query, read lazily. */
export class StoreEvidence {
  private readonly tables: Set<string>;
  private readonly checkpointRows: CheckpointRow[];
  private readonly filter: { where: string; params: (string | number)[] };
  private readonly entries = new Map<number, CheckpointEntry>();
  private chainLeafCache: Uint8Array[] | undefined;
  private rowsBySeq: Map<number, CheckpointRow> | undefined;
  readonly plan: ExportPlan;

  constructor(
    private readonly db: StoreDb,
    query: EvidenceQuery,
  ) {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    this.tables = new Set(names.map((t) => t.name));
    this.filter = toolFilter(query, this.tables.has('capability_lineage'));
    this.checkpointRows = this.tables.has('kernel_checkpoints')
      ? (db.prepare('SELECT checkpoint_seq AS checkpointSeq, batch_start_seq AS batchStartSeq, batch_end_seq AS batchEndSeq, tree_size AS treeSize, merkle_root AS merkleRoot, issued_at AS issuedAt, statement_json AS statementJson, signature, kernel_key AS kernelKey FROM kernel_checkpoints ORDER BY checkpoint_seq').all() as CheckpointRow[])
      : [];
    const order = this.coverage();
    this.plan = {
      query,
      // Time-window context when a capability or agent filter has a window; none for other filters.
      childScope: exportChildScope(query),
      proofsPossible: order !== 'claim-log-interleaved',
      ...(order === 'claim-log-interleaved'
        ? { note: 'The store checkpoints its claim log, which interleaves child receipts; this export format numbers receipts by tool seq, so it carries no checkpoints or proofs.' }
        : {}),
    };
  }

  /**
   * Which order the checkpoints cover, decided on the first checkpoint whose batch the two orders
   * read differently (lib/sources/store.ts coverageOrder); only the claim log up to it is read.
   */
  private coverage(): 'tool-seq' | 'claim-log' | 'claim-log-interleaved' {
    if (this.checkpointRows.length === 0 || !this.tables.has('claim_receipt_log_entries')) return 'tool-seq';
    const parts = (
      this.db.prepare("SELECT MIN(entry_seq) AS seq FROM claim_receipt_log_entries WHERE receipt_kind != 'tool_receipt' OR source_seq != entry_seq").get() as { seq: number | null }
    ).seq;
    // The orders never part, or part only after the last checkpointed batch: each batch reads alike.
    const deciding = parts === null ? undefined : this.checkpointRows.filter((c) => c.batchEndSeq >= parts).sort((a, b) => a.checkpointSeq - b.checkpointSeq)[0];
    if (!deciding) return 'claim-log';
    const claimLog = this.db
      .prepare('SELECT entry_seq AS entrySeq, receipt_id AS receiptId, receipt_kind AS receiptKind, source_seq AS sourceSeq FROM claim_receipt_log_entries WHERE entry_seq <= ? ORDER BY entry_seq')
      .all(deciding.batchEndSeq) as ClaimLogRow[];
    const reader = {
      toolReceipts: () => this.db.prepare('SELECT seq, receipt_id AS receiptId, raw_json AS rawJson FROM chio_tool_receipts ORDER BY seq').iterate() as Generator<ReceiptRow>,
      childReceipts: () => this.db.prepare('SELECT seq, receipt_id AS receiptId, raw_json AS rawJson FROM chio_child_receipts ORDER BY seq').iterate() as Generator<ReceiptRow>,
    };
    return coverageOrder(reader, claimLog, [deciding]) === 'tool-seq' ? 'tool-seq' : 'claim-log-interleaved';
  }

  /** Tool receipts of the query, in seq order. */
  *toolReceipts(): Generator<{ seq: number; receiptId: string; rawJson: string }> {
    const { where, params } = this.filter;
    const stmt: Statement = this.db.prepare(`SELECT seq, receipt_id AS receiptId, raw_json AS rawJson FROM chio_tool_receipts ${where} ORDER BY seq`);
    yield* stmt.iterate(...params) as Generator<{ seq: number; receiptId: string; rawJson: string }>;
  }

  /** How many of the query's tool receipts no checkpoint covers (all of them when proofs are impossible). */
  uncheckpointedCount(): number {
    const { where, params } = this.filter;
    let n = 0;
    for (const r of this.db.prepare(`SELECT seq FROM chio_tool_receipts ${where}`).iterate(...params) as Iterable<{ seq: number }>) {
      if (this.checkpointFor(r.seq) === undefined) n++;
    }
    return n;
  }

  /** The capabilities of the query's tool receipts. */
  capabilityIds(): Set<string> {
    const { where, params } = this.filter;
    const rows = this.db.prepare(`SELECT DISTINCT capability_id AS id FROM chio_tool_receipts ${where}`).all(...params) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /** Child receipts in the query's time window, unless the query has no truthful join path to them. */
  *childReceipts(): Generator<{ seq: number; rawJson: string }> {
    if (this.plan.childScope === 'omitted_no_join_path' || !this.tables.has('chio_child_receipts')) return;
    const { since, until } = this.plan.query;
    const clauses = [since !== undefined ? 'timestamp >= ?' : '', until !== undefined ? 'timestamp <= ?' : ''].filter(Boolean);
    const stmt = this.db.prepare(`SELECT seq, raw_json AS rawJson FROM chio_child_receipts ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} ORDER BY seq`);
    yield* stmt.iterate(...[since, until].filter((v) => v !== undefined)) as Generator<{ seq: number; rawJson: string }>;
  }

  /** The checkpoint covering tool seq `seq`, when proofs are possible. */
  checkpointFor(seq: number): CheckpointRow | undefined {
    if (!this.plan.proofsPossible) return undefined;
    let lo = 0;
    let hi = this.checkpointRows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.checkpointRows[mid]!;
      if (seq < c.batchStartSeq) hi = mid - 1;
      else if (seq > c.batchEndSeq) lo = mid + 1;
      else return c;
    }
    return undefined;
  }

  /** Leaf hashes of a checkpoint's batch, read from the store in tool-seq order. */
  batchLeaves(c: CheckpointRow): (Uint8Array | null)[] {
    const rows = this.db.prepare('SELECT raw_json AS rawJson FROM chio_tool_receipts WHERE seq BETWEEN ? AND ? ORDER BY seq').all(c.batchStartSeq, c.batchEndSeq) as { rawJson: string }[];
    return rows.map((r) => receiptLeafHash(r.rawJson, 'tool'));
  }

  /** `ReceiptInclusionProof` JSON for the receipt at `seq`, or null when its batch cannot be rebuilt. */
  proofJson(c: CheckpointRow, seq: number, leaves: (Uint8Array | null)[]): string | null {
    return inclusionProofText(c, seq, seq - c.batchStartSeq, leaves);
  }

  /** Publications for `seqs`, and witness/consistency records between consecutive ones, as NDJSON-ready text. */
  transparency(seqs: number[]): { publications: string[]; witnesses: string[]; consistency: string[] } {
    const out = { publications: [] as string[], witnesses: [] as string[], consistency: [] as string[] };
    const want = new Set(seqs);
    const wanted = new Map<number, CheckpointRow>();
    for (const row of this.checkpointRows) if (want.has(row.checkpointSeq)) wanted.set(row.checkpointSeq, row);
    for (const row of wanted.values()) {
      const entry = this.entry(row);
      if (!entry) continue;
      out.publications.push(canonicalize(expectedPublication(entry)));
      const prevRow = wanted.get(row.checkpointSeq - 1);
      const prev = prevRow ? this.entry(prevRow) : undefined;
      if (prev) {
        out.witnesses.push(canonicalize(expectedWitness(prev, entry)));
        // As the newest kernel derives them (chio-format.md §16.4): a v2 record for an adjacent pair
        // that both carry chain_root, and none for v1 or mixed pairs (a v1 record is not a proof,
        // and upstream's set comparison refuses a package that lists one).
        const record = prev.cp.chainRoot && entry.cp.chainRoot ? buildConsistencyRecordV2(prev, entry, this.chainLeaves(row.checkpointSeq)) : null;
        if (record) out.consistency.push(canonicalize(record));
      }
    }
    return out;
  }

  /** The chain leaf hashes of checkpoints 1…`upTo` (§16.3), or fewer when the store's run breaks off. */
  private chainLeaves(upTo: number): Uint8Array[] {
    const leaves = (this.chainLeafCache ??= []);
    for (let seq = leaves.length + 1; seq <= upTo; seq++) {
      const row = (this.rowsBySeq ??= new Map(this.checkpointRows.map((r) => [r.checkpointSeq, r]))).get(seq);
      const e = row ? this.entry(row) : undefined;
      const leaf = e ? chainLeafHash(e.cp) : null;
      if (!leaf) break;
      leaves.push(leaf);
    }
    return leaves;
  }

  private entry(row: CheckpointRow): CheckpointEntry | undefined {
    const cached = this.entries.get(row.checkpointSeq);
    if (cached) return cached;
    const parsed = parseJson(checkpointRecordText(row));
    if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
    const d = decodeCheckpoint(parsed.value);
    if (!d.ok) return undefined;
    const e: CheckpointEntry = { file: '', line: 0, order: 0, space: '', cp: d.value, sha256: checkpointSha256(d.value), checks: {} };
    this.entries.set(row.checkpointSeq, e);
    return e;
  }

  /**
   * Lineage rows for `capabilityIds` and their ancestors, as JSON lines (format v2 §16.9). Only rows
   * that may cross a trust boundary are exported: a signed token or a federation anchor, with its
   * provenance and token. A legacy_projection row (every row of an older store, which has no
   * provenance column) is allowed only in the local store: in a package it is a downgrade
   * (contract part 2 §5.3.1), so it is left out. The token is exported as stored, compacted from
   * its lossless parse (one line, exact numbers); one that does not parse is exported as null, so
   * the verifier says the row has no token.
   */
  lineage(capabilityIds: Set<string>): string[] {
    if (!this.tables.has('capability_lineage')) return [];
    const columns = new Set((this.db.prepare("SELECT name FROM pragma_table_info('capability_lineage')").all() as { name: string }[]).map((c) => c.name));
    if (!columns.has('provenance')) return [];
    const extra = ['federated_parent_capability_id', 'signed_capability_json'].filter((c) => columns.has(c));
    const stmt = this.db.prepare(
      `SELECT capability_id, subject_key, issuer_key, issued_at, expires_at, grants_json, delegation_depth, parent_capability_id, provenance${extra.map((c) => `, ${c}`).join('')} FROM capability_lineage WHERE capability_id = ?`,
    );
    const seen = new Set<string>();
    const rows: Record<string, unknown>[] = [];
    const queue = [...capabilityIds];
    while (queue.length) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const row = stmt.get(id) as Record<string, unknown> | undefined;
      if (!row) continue;
      if (row.provenance === 'signed_token' || row.provenance === 'synthetic_anchor') rows.push(row);
      if (typeof row.parent_capability_id === 'string') queue.push(row.parent_capability_id);
    }
    return rows.sort((a, b) => String(a.capability_id).localeCompare(String(b.capability_id))).map(lineageLine);
  }
}
