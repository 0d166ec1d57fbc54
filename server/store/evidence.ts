// Server side: selects the evidence of a Chio store for an export query
// (chio-format.md §11.1–§11.2) and computes what the store does not keep:
// inclusion proofs, rebuilt from each checkpoint's batch, and the derived
// transparency records. Stored JSON is passed through as text, never
// re-serialized, so u64 amounts survive. The server is not trusted: the page
// re-verifies everything this produces.
// Over 400 lines because StoreEvidence is one lazily read object whose methods share its
// checkpoint index, current batch and chain leaves; its shapes and filter are in ./export-plan.ts.
//
// Policies (issue 20):
// - Every checkpoint the store holds is exported, whatever the query and whatever happened to
//   its receipts: leaving one out turned the receipts it covers into an uncheckpointed tail that
//   nothing checks (contract part 2 §12).
// - A batch gets proofs only when the leaves rebuilt from the stored rows reproduce its signed
//   root. Otherwise its receipts go out without proofs, so the verifier recomputes the batch and
//   fails their `inclusion`, naming the seqs that are missing or changed.
// - The claim log's order (tool and child receipts interleaved, numbered by entry_seq) is used
//   only when it reproduces a checkpoint's root; then receipts are numbered by entry_seq, the
//   numbers the checkpoints and proofs use. Otherwise tool seq, the kernel trigger's order.
// - Every stored JSON text is checked (../stored-row.ts) before it is spliced; a bad row becomes a
//   RowProblem and every other row still goes out.
import type { Statement } from 'better-sqlite3';
import { chainLeafHash, checkpointSha256, decodeCheckpoint } from '../../lib/chio/checkpoint';
import { decodeChildReceipt } from '../../lib/chio/child-receipt';
import { buildConsistencyRecordV2 } from '../../lib/chio/consistency-proof';
import { decodeToolReceipt } from '../../lib/chio/tool-receipt';
import { bytesEqual, toHex } from '../../lib/bytes/hex';
import { canonicalBytes, canonicalize } from '../../lib/json/canonicalize';
import { parseJson } from '../../lib/json/parse';
import { compactJson } from '../../lib/json/pretty';
import { type JsonObject, isJsonObject } from '../../lib/json/value';
import { leafHash } from '../../lib/merkle';
import { type EvidenceQuery, exportChildScope } from '../../lib/query/evidence-query';
import type { ClaimLogRow, CheckpointRow, ReceiptRow } from '../../lib/sources/sqlite-rows';
import { type CoverageOrder, coverageOrder, COVERAGE_TRIALS } from '../../lib/sources/store';
import type { CheckpointEntry } from '../../lib/verify/entries';
import { expectedPublication, expectedWitness } from '../../lib/verify/transparency';
import { batchPaths } from './batch-proofs';
import { type Batch, type ExportPlan, type ExportReceipt, toolFilter } from './export-plan';
import type { StoreDb } from './db';
import { type CheckedRow, type RowProblem, checkStoredRow } from '../stored-row';

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

const leafOf = (value: JsonObject, kind: 'tool' | 'child'): Uint8Array | null => {
  const d = kind === 'tool' ? decodeToolReceipt(value) : decodeChildReceipt(value);
  return d.ok ? leafHash(canonicalBytes(d.value.fullTyped)) : null;
};

const isSafeInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The evidence of one store for one query, read lazily. */
export class StoreEvidence {
  private readonly tables: Set<string>;
  /** Checkpoints whose row can be exported, in checkpoint_seq order, with their record text. */
  readonly checkpoints: { row: CheckpointRow; text: string }[] = [];
  /** Checkpoint rows that cannot be exported (kernel_checkpoints, by checkpoint_seq). */
  readonly checkpointProblems: RowProblem[] = [];
  /** The checkpoints covering the export's seqs, sorted by batch start. */
  private readonly byStart: CheckpointRow[];
  private readonly filter: { where: string; params: (string | number)[] };
  private readonly entries = new Map<number, CheckpointEntry>();
  private chainLeafCache: Uint8Array[] | undefined;
  private rowsBySeq: Map<number, CheckpointRow> | undefined;
  readonly plan: ExportPlan;

  constructor(
    private readonly db: StoreDb,
    query: EvidenceQuery,
  ) {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    this.tables = new Set(names);
    this.filter = toolFilter(query, this.tables.has('capability_lineage'));
    if (this.tables.has('kernel_checkpoints')) this.readCheckpoints();
    this.byStart = this.checkpoints.map((c) => c.row).sort((a, b) => a.batchStartSeq - b.batchStartSeq || a.checkpointSeq - b.checkpointSeq);
    const order = this.coverage();
    this.plan = {
      query,
      // Time-window context when a capability or agent filter has a window; none for other filters.
      childScope: exportChildScope(query),
      order,
      ...(order === 'claim-log'
        ? {
            note: "The store's checkpoints cover its claim log, which interleaves child receipts: receipts are numbered here by the claim log's entry_seq, the positions its checkpoints and proofs use.",
          }
        : {}),
    };
  }

  private readCheckpoints(): void {
    const rows = this.db
      .prepare(
        'SELECT checkpoint_seq, batch_start_seq, batch_end_seq, tree_size, merkle_root, issued_at, typeof(statement_json), CAST(statement_json AS BLOB), signature, kernel_key FROM kernel_checkpoints ORDER BY checkpoint_seq',
      )
      .raw(true)
      .all() as unknown[][];
    for (const [seq, start, end, size, root, issued, type, raw, signature, key] of rows) {
      const where = isSafeInt(seq) ? seq : -1;
      const bad = (column: string, why: string) =>
        this.checkpointProblems.push({
          table: 'kernel_checkpoints',
          seq: where,
          code: 'invalid_column',
          message: `kernel_checkpoints seq ${String(seq)}: ${column} ${why}`,
        });
      if (!isSafeInt(seq) || !isSafeInt(start) || !isSafeInt(end) || !isSafeInt(size)) {
        bad('checkpoint_seq, batch_start_seq, batch_end_seq or tree_size', 'is not an integer');
        continue;
      }
      if (typeof root !== 'string' || typeof signature !== 'string' || typeof key !== 'string') {
        bad('merkle_root, signature or kernel_key', 'is not text');
        continue;
      }
      const statement = checkStoredRow('kernel_checkpoints', seq, 'statement_json', String(type), raw as Buffer | null);
      if (!statement.ok) {
        this.checkpointProblems.push(statement.problem);
        continue;
      }
      const row: CheckpointRow = {
        checkpointSeq: seq,
        batchStartSeq: start,
        batchEndSeq: end,
        treeSize: size,
        merkleRoot: root,
        issuedAt: Number(issued),
        statementJson: statement.text,
        signature,
        kernelKey: key,
      };
      this.checkpoints.push({ row, text: `{"body":${statement.text},"signature":${JSON.stringify(signature)}}` });
    }
  }

  /**
   * Which order the checkpoints cover (lib/sources/store.ts coverageOrder): the claim log only
   * when it interleaves child receipts within the checkpointed range and its order reproduces a
   * checkpoint's root. Only the claim log up to the batches tried is read.
   */
  private coverage(): CoverageOrder {
    if (this.checkpoints.length === 0 || !this.tables.has('claim_receipt_log_entries')) return 'tool-seq';
    const parts = (
      this.db.prepare("SELECT MIN(entry_seq) AS seq FROM claim_receipt_log_entries WHERE receipt_kind != 'tool_receipt' OR source_seq != entry_seq").get() as {
        seq: number | null;
      }
    ).seq;
    if (parts === null) return 'tool-seq';
    const trials = this.checkpoints
      .map((c) => c.row)
      .filter((c) => c.batchEndSeq >= parts)
      .slice(0, COVERAGE_TRIALS);
    // The orders part only after the last checkpointed batch: each batch reads alike, number by tool seq.
    if (trials.length === 0) return 'tool-seq';
    const upTo = Math.max(...trials.map((c) => c.batchEndSeq));
    const claimLog = this.db
      .prepare(
        'SELECT entry_seq AS entrySeq, receipt_id AS receiptId, receipt_kind AS receiptKind, source_seq AS sourceSeq FROM claim_receipt_log_entries WHERE entry_seq <= ? ORDER BY entry_seq',
      )
      .all(upTo) as ClaimLogRow[];
    const rows = (table: string) => () =>
      this.db.prepare(`SELECT seq, receipt_id AS receiptId, raw_json AS rawJson FROM ${table} ORDER BY seq`).iterate() as Generator<ReceiptRow>;
    const reader = {
      toolReceipts: rows('chio_tool_receipts'),
      childReceipts: this.tables.has('chio_child_receipts') ? rows('chio_child_receipts') : function* () {},
    };
    return coverageOrder(reader, claimLog, trials);
  }

  /** Tool receipts of the query, in tool seq order, each checked (a row that fails is a problem to report). */
  *toolReceipts(): Generator<ExportReceipt | { problem: RowProblem }> {
    const { where, params } = this.filter;
    const claimLog = this.plan.order === 'claim-log';
    const seqColumn = claimLog ? 'e.entry_seq' : 't.seq';
    const join = claimLog ? "LEFT JOIN claim_receipt_log_entries e ON e.receipt_kind = 'tool_receipt' AND e.source_seq = t.seq" : '';
    const stmt: Statement = this.db
      .prepare(
        `SELECT ${seqColumn}, t.seq, t.receipt_id, typeof(t.raw_json), CAST(t.raw_json AS BLOB) FROM chio_tool_receipts t ${join} ${where} ORDER BY t.seq`,
      )
      .raw(true);
    for (const [seq, toolSeq, receiptId, type, raw] of stmt.iterate(...params) as Iterable<[number | null, number, string, string, Buffer | null]>) {
      if (seq === null) {
        const message = `chio_tool_receipts seq ${toolSeq}: the receipt has no claim-log entry, so it has no place in the log this store's checkpoints cover`;
        yield { problem: { table: 'chio_tool_receipts', seq: toolSeq, code: 'not_in_claim_log', message } };
        continue;
      }
      yield { seq, toolSeq, receiptId: String(receiptId), row: this.batchRow(seq) ?? checkStoredRow('chio_tool_receipts', toolSeq, 'raw_json', type, raw) };
    }
  }

  /** Child receipts in the query's time window (unless the query has no truthful join path to them), checked. */
  *childReceipts(): Generator<{ seq: number; row: CheckedRow }> {
    if (this.plan.childScope === 'omitted_no_join_path' || !this.tables.has('chio_child_receipts')) return;
    const { since, until } = this.plan.query;
    const clauses = [since !== undefined ? 'timestamp >= ?' : '', until !== undefined ? 'timestamp <= ?' : ''].filter(Boolean);
    const stmt = this.db
      .prepare(
        `SELECT seq, typeof(raw_json), CAST(raw_json AS BLOB) FROM chio_child_receipts ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} ORDER BY seq`,
      )
      .raw(true);
    for (const [seq, type, raw] of stmt.iterate(...[since, until].filter((v) => v !== undefined)) as Iterable<[number, string, Buffer | null]>) {
      yield { seq, row: checkStoredRow('chio_child_receipts', seq, 'raw_json', type, raw) };
    }
  }

  /** The checkpoint whose batch holds export seq `seq`: the last to start at or before it (batches do not overlap in a sane store). */
  checkpointFor(seq: number): CheckpointRow | undefined {
    let lo = 0;
    let hi = this.byStart.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.byStart[mid]!.batchStartSeq <= seq) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const c = last >= 0 ? this.byStart[last] : undefined;
    return c && seq <= c.batchEndSeq ? c : undefined;
  }

  private current: Batch | undefined;

  /** The stored row at export seq `seq` when the current batch already read it (read and checked once). */
  private batchRow(seq: number): CheckedRow | undefined {
    return this.current && seq >= this.current.cp.batchStartSeq && seq <= this.current.cp.batchEndSeq ? this.current.rows.get(seq) : undefined;
  }

  /**
   * The batch of checkpoint `cp` as stored, read in the coverage order, with a proof for every
   * receipt when its leaves reproduce the signed root (and none otherwise). Remembered until the
   * next batch is asked for, so walking receipts in order reads each batch once.
   */
  batch(cp: CheckpointRow): Batch {
    if (this.current?.cp === cp) return this.current;
    const rows = new Map<number, CheckedRow>();
    const leaves: (Uint8Array | null)[] = [];
    for (const [seq, kind, table, sourceSeq, type, raw] of this.batchRows(cp)) {
      const checked = checkStoredRow(table, sourceSeq, 'raw_json', type, raw);
      if (kind === 'tool') rows.set(seq, checked);
      leaves.push(checked.ok ? leafOf(checked.value, kind) : null);
    }
    this.current = { cp, rows, proofs: this.proofs(cp, leaves, rows) };
    return this.current;
  }

  private batchRows(cp: CheckpointRow): Iterable<[seq: number, kind: 'tool' | 'child', table: string, sourceSeq: number, type: string, raw: Buffer | null]> {
    if (this.plan.order === 'tool-seq') {
      const rows = this.db
        .prepare('SELECT seq, typeof(raw_json), CAST(raw_json AS BLOB) FROM chio_tool_receipts WHERE seq BETWEEN ? AND ? ORDER BY seq')
        .raw(true)
        .all(cp.batchStartSeq, cp.batchEndSeq) as [number, string, Buffer | null][];
      return rows.map(([seq, type, raw]) => [seq, 'tool', 'chio_tool_receipts', seq, type, raw]);
    }
    const child = this.tables.has('chio_child_receipts');
    const rows = this.db
      .prepare(
        `SELECT e.entry_seq, e.receipt_kind, e.source_seq,
           CASE WHEN e.receipt_kind = 'tool_receipt' THEN typeof(t.raw_json) ELSE ${child ? 'typeof(c.raw_json)' : "'null'"} END,
           CASE WHEN e.receipt_kind = 'tool_receipt' THEN CAST(t.raw_json AS BLOB) ELSE ${child ? 'CAST(c.raw_json AS BLOB)' : 'NULL'} END
         FROM claim_receipt_log_entries e
         LEFT JOIN chio_tool_receipts t ON e.receipt_kind = 'tool_receipt' AND t.seq = e.source_seq
         ${child ? "LEFT JOIN chio_child_receipts c ON e.receipt_kind != 'tool_receipt' AND c.seq = e.source_seq" : ''}
         WHERE e.entry_seq BETWEEN ? AND ? ORDER BY e.entry_seq`,
      )
      .raw(true)
      .all(cp.batchStartSeq, cp.batchEndSeq) as [number, string, number, string, Buffer | null][];
    return rows.map(([seq, kind, sourceSeq, type, raw]) => {
      const tool = kind === 'tool_receipt';
      return [seq, tool ? 'tool' : 'child', tool ? 'chio_tool_receipts' : 'chio_child_receipts', sourceSeq, type, raw];
    });
  }

  /**
   * Proofs for the tool receipts (`tools`, by export seq) of a batch whose stored leaves reproduce
   * its signed root; null otherwise. In claim-log order child receipts are leaves too, but a
   * package numbers them in their own table, so they get no proof.
   */
  private proofs(cp: CheckpointRow, leaves: (Uint8Array | null)[], tools: Map<number, CheckedRow>): Map<number, string> | null {
    if (leaves.length !== cp.treeSize || leaves.length !== cp.batchEndSeq - cp.batchStartSeq + 1 || leaves.some((l) => l === null)) return null;
    const rootHex = cp.merkleRoot.replace(/^0x/, '').toLowerCase();
    const { root, paths } = batchPaths(leaves as Uint8Array[]);
    if (!bytesEqual(root, hexBytes(rootHex))) return null;
    const proofs = new Map<number, string>();
    paths.forEach((path, index) => {
      const seq = cp.batchStartSeq + index;
      if (!tools.has(seq)) return;
      const audit = path.map((h) => `"0x${toHex(h)}"`).join(',');
      proofs.set(
        seq,
        `{"checkpoint_seq":${cp.checkpointSeq},"receipt_seq":${seq},"leaf_index":${index},"merkle_root":"0x${cp.merkleRoot.replace(/^0x/, '')}","proof":{"tree_size":${cp.treeSize},"leaf_index":${index},"audit_path":[${audit}]}}`,
      );
    });
    return proofs;
  }

  /**
   * Publications for `seqs`, and witness/consistency records between consecutive ones, as
   * NDJSON-ready text. A v2 consistency record rebuilds the chain's trees (about 5n hashes at
   * checkpoint n), so `pause` is awaited between checkpoints: the caller's turn to yield.
   */
  async transparency(
    seqs: number[],
    pause: () => Promise<void>,
    maxBytes = Infinity,
  ): Promise<{ publications: string[]; witnesses: string[]; consistency: string[] } | null> {
    const out = { publications: [] as string[], witnesses: [] as string[], consistency: [] as string[] };
    let bytes = 0;
    const add = (list: string[], text: string) => {
      list.push(text);
      bytes += text.length + 1;
    };
    const want = new Set(seqs);
    const wanted = new Map<number, CheckpointRow>();
    for (const { row } of this.checkpoints) if (want.has(row.checkpointSeq)) wanted.set(row.checkpointSeq, row);
    for (const row of wanted.values()) {
      await pause();
      // Over the caller's budget (an export bundle's cap): stop, rather than build what is refused.
      if (bytes > maxBytes) return null;
      const entry = this.entry(row);
      if (!entry) continue;
      add(out.publications, canonicalize(expectedPublication(entry)));
      const prevRow = wanted.get(row.checkpointSeq - 1);
      const prev = prevRow ? this.entry(prevRow) : undefined;
      if (prev) {
        add(out.witnesses, canonicalize(expectedWitness(prev, entry)));
        // As the newest kernel derives them (chio-format.md §16.4): a v2 record for an adjacent pair
        // that both carry chain_root, and none for v1 or mixed pairs (a v1 record is not a proof,
        // and upstream's set comparison refuses a package that lists one).
        const record = prev.cp.chainRoot && entry.cp.chainRoot ? buildConsistencyRecordV2(prev, entry, this.chainLeaves(row.checkpointSeq)) : null;
        if (record) add(out.consistency, canonicalize(record));
      }
    }
    return bytes > maxBytes ? null : out;
  }

  /** The chain leaf hashes of checkpoints 1…`upTo` (§16.3), or fewer when the store's run breaks off. */
  private chainLeaves(upTo: number): Uint8Array[] {
    const leaves = (this.chainLeafCache ??= []);
    for (let seq = leaves.length + 1; seq <= upTo; seq++) {
      const row = (this.rowsBySeq ??= new Map(this.checkpoints.map((c) => [c.row.checkpointSeq, c.row]))).get(seq);
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
    const parsed = parseJson(`{"body":${row.statementJson},"signature":${JSON.stringify(row.signature)}}`);
    if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
    const d = decodeCheckpoint(parsed.value);
    if (!d.ok) return undefined;
    const e: CheckpointEntry = { file: '', line: 0, order: 0, space: '', cp: d.value, sha256: checkpointSha256(d.value), checks: {} };
    this.entries.set(row.checkpointSeq, e);
    return e;
  }

  /** The capabilities of the query's tool receipts. */
  capabilityIds(): Set<string> {
    const { where, params } = this.filter;
    const rows = this.db
      .prepare(`SELECT DISTINCT t.capability_id FROM chio_tool_receipts t ${where}`)
      .pluck()
      .all(...params) as unknown[];
    return new Set(rows.filter((r): r is string => typeof r === 'string'));
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

function hexBytes(hex: string): Uint8Array {
  if (!/^[0-9a-f]{64}$/.test(hex)) return new Uint8Array(0);
  return Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16));
}
