// Feeds a Chio SQLite receipt store (chio-format.md §10) into the verifier:
// kernel checkpoints from `kernel_checkpoints` (statement_json + signature),
// tool and child receipts from their `raw_json` (the source of truth), HTTP
// sidecar receipts from `http_receipts`, and the `capability_lineage` rows that
// claim a signed token or a federation anchor (sqlite-lineage.ts).
//
// Which sequence do checkpoints cover? §10 says the claim log's `entry_seq`
// (tool and child receipts interleaved); §9.6 notes the kernel's trigger
// counts `chio_tool_receipts.seq`, and exports number proofs by tool seq. The
// two agree until a child receipt is logged. So, as §9.6 advises, the store is
// probed by content: the first checkpoint's root is recomputed both ways and
// the order that reproduces it decides how every receipt is placed.
import { inclusionProofFor, rootFromLeafHashes } from '../merkle';
import { bytesEqual, toHex } from '../bytes/hex';
import { parseHash } from '../chio/checkpoint';
import { receiptLeafHash } from '../chio/leaf';
import type { LogSink } from '../verify/log-sink';
import { makeProblem } from '../verdict/problems';
import { type CheckpointRow, type ChioStoreReader, type ClaimLogRow, type RowError, isRowError } from './sqlite-rows';

export type CoverageOrder = 'claim-log' | 'tool-seq';

export const COVERAGE_LABEL: Record<CoverageOrder, string> = {
  'claim-log': 'checkpoints cover the claim log (tool and child receipts by entry_seq)',
  'tool-seq': 'checkpoints cover tool receipts by chio_tool_receipts.seq (child receipts are not checkpointed)',
};

/** A `kernel_checkpoints` row as the checkpoint record `{"body","signature"}` (the statement's bytes kept as stored). */
export function checkpointRecordText(row: CheckpointRow): string {
  return `{"body":${row.statementJson},"signature":${JSON.stringify(row.signature)}}`;
}

/** A rowid as a line number, when it is a safe integer. */
function rowLine(rowid: string | null): number | undefined {
  return rowid !== null && /^\d+$/.test(rowid) && Number.isSafeInteger(Number(rowid)) ? Number(rowid) : undefined;
}

export async function loadStore(store: ChioStoreReader, name: string, verifier: LogSink, space: string): Promise<void> {
  const rowProblem = (e: RowError) => {
    const file = `${name}#${e.table}`;
    const line = rowLine(e.rowid);
    verifier.addProblem(makeProblem('parse_error', `${file} row ${e.rowid ?? '?'}: ${e.error}`, line !== undefined ? { file, line } : { file }));
  };
  if (store.wal?.walIgnored) {
    verifier.addProblem(makeProblem('parse_error', `${name}-wal was not applied: ${store.wal.walIgnored}`, { file: `${name}-wal` }));
  }

  const claimLog: ClaimLogRow[] = [];
  for (const row of store.claimLog()) {
    if (isRowError(row)) rowProblem(row);
    else claimLog.push(row);
  }
  const entrySeqOf = new Map<string, bigint>(claimLog.map((r) => [`${r.receiptKind}:${r.receiptId}`, BigInt(r.entrySeq)]));

  const checkpoints: CheckpointRow[] = [];
  for (const row of store.checkpoints()) {
    if (isRowError(row)) {
      rowProblem(row);
      continue;
    }
    checkpoints.push(row);
    await verifier.addRecord(checkpointRecordText(row), { file: `${name}#kernel_checkpoints`, line: row.checkpointSeq, role: 'checkpoint', space });
  }

  const order = coverageOrder(store, claimLog, checkpoints);
  if (checkpoints.length > 0) verifier.setSpaceNote(space, COVERAGE_LABEL[order]);

  const tables = [
    ['chio_tool_receipts', 'tool', 'tool_receipt', store.toolReceipts()],
    ['chio_child_receipts', 'child', 'child_receipt', store.childReceipts()],
  ] as const;
  for (const [table, role, claimKind, rows] of tables) {
    for (const row of rows) {
      if (isRowError(row)) {
        rowProblem(row);
        continue;
      }
      const logSeq = order === 'tool-seq' ? (role === 'tool' ? BigInt(row.seq) : undefined) : entrySeqOf.get(`${claimKind}:${row.receiptId}`);
      await verifier.addRecord(row.rawJson, {
        file: `${name}#${table}`,
        line: row.seq,
        role,
        space,
        seq: BigInt(row.seq),
        ...(logSeq !== undefined ? { logSeq } : {}),
      });
    }
  }

  // Lineage rows that claim a signed token or a federation anchor (legacy rows stay unsigned context).
  const lineageFile = `${name}#capability_lineage`;
  for (const row of store.signedLineage()) {
    const line = rowLine(row.rowid);
    if ('error' in row)
      verifier.addProblem(
        makeProblem(
          'parse_error',
          `${lineageFile} row ${row.rowid ?? '?'}: ${row.error}`,
          line !== undefined ? { file: lineageFile, line } : { file: lineageFile },
        ),
      );
    else await verifier.addRecord(row.text, { file: lineageFile, line: line ?? 0, role: 'lineage', space, localStore: true });
  }

  let index = 0;
  for (const row of store.httpReceipts()) {
    index++;
    if (isRowError(row)) {
      rowProblem(row);
      continue;
    }
    await verifier.addRecord(row.receiptJson, { file: `${name}#http_receipts`, line: index, role: 'http', space });
  }
}

/** Checkpoints tried, from the first whose batch the two orders read differently, before giving up on reproducing a root. */
export const COVERAGE_TRIALS = 8;

/**
 * Which order the checkpoints cover. Both orders read alike until the claim log parts from tool
 * seq order (a child receipt, or a tool receipt out of step); when no checkpointed batch reaches
 * that point, 'claim-log'. Otherwise the checkpoints from there on are tried in turn (at most
 * COVERAGE_TRIALS): the first whose root one order reproduces decides. When none does (their
 * receipts deleted or changed), 'tool-seq': the order the kernel's trigger counts (§9.6), so the
 * batches nobody touched still verify and the touched ones fail `inclusion`. (Falling back to the
 * claim log instead failed every batch of a store whose checkpoints cover tool seq, and made the
 * server leave every checkpoint out.) Reads only the rows up to the batches it tries.
 */
export function coverageOrder(
  store: Pick<ChioStoreReader, 'toolReceipts' | 'childReceipts'>,
  claimLog: ClaimLogRow[],
  checkpoints: CheckpointRow[],
): CoverageOrder {
  // The first claim-log entry where the orders part: a child receipt, or a tool receipt out of step.
  let parts = Infinity;
  for (const e of claimLog) if ((e.receiptKind !== 'tool_receipt' || e.sourceSeq !== e.entrySeq) && e.entrySeq < parts) parts = e.entrySeq;
  const trials = checkpoints
    .filter((c) => c.batchEndSeq >= parts)
    .sort((a, b) => a.checkpointSeq - b.checkpointSeq)
    .slice(0, COVERAGE_TRIALS);
  // No checkpoint reaches the first difference: both orders read every batch alike.
  if (trials.length === 0) return 'claim-log';
  for (const cp of trials) {
    const root = parseHash(cp.merkleRoot);
    if (!root) continue;
    const matches = (leaves: (Uint8Array | undefined)[]) => {
      if (leaves.some((l) => l === undefined)) return false;
      const r = rootFromLeafHashes(leaves as Uint8Array[]);
      return r !== null && bytesEqual(r, root);
    };
    if (matches(batchLeaves(store, claimLog, cp, 'claim-log'))) return 'claim-log';
    if (matches(batchLeaves(store, claimLog, cp, 'tool-seq'))) return 'tool-seq';
  }
  return 'tool-seq';
}

/**
 * The leaf hashes of a checkpoint's batch in a coverage order: tool-seq, the
 * readable tool receipts of the range by seq; claim-log, one per claim-log
 * entry of the range (undefined where its receipt is missing or unreadable).
 * Rows are read in seq order only as far as the batch needs.
 */
export function batchLeaves(
  store: Pick<ChioStoreReader, 'toolReceipts' | 'childReceipts'>,
  claimLog: readonly ClaimLogRow[],
  cp: CheckpointRow,
  order: CoverageOrder,
): (Uint8Array | undefined)[] {
  const inRange = (n: number) => n >= cp.batchStartSeq && n <= cp.batchEndSeq;
  if (order === 'tool-seq') {
    const leaves: Uint8Array[] = [];
    for (const row of store.toolReceipts()) {
      if (isRowError(row)) continue;
      if (row.seq > cp.batchEndSeq) break;
      const leaf = inRange(row.seq) ? receiptLeafHash(row.rawJson, 'tool') : null;
      if (leaf) leaves.push(leaf);
    }
    return leaves;
  }
  const entries = claimLog.filter((e) => inRange(e.entrySeq)).sort((a, b) => a.entrySeq - b.entrySeq);
  const found = { tool: new Map<number, Uint8Array>(), child: new Map<number, Uint8Array>() };
  for (const kind of ['tool', 'child'] as const) {
    const wanted = new Set(entries.filter((e) => (e.receiptKind === 'tool_receipt') === (kind === 'tool')).map((e) => e.sourceSeq));
    if (wanted.size === 0) continue;
    let max = -Infinity;
    for (const seq of wanted) if (seq > max) max = seq;
    for (const row of kind === 'tool' ? store.toolReceipts() : store.childReceipts()) {
      if (isRowError(row)) continue;
      if (row.seq > max) break;
      const leaf = wanted.has(row.seq) ? receiptLeafHash(row.rawJson, kind) : null;
      if (leaf) found[kind].set(row.seq, leaf);
    }
  }
  return entries.map((e) => found[e.receiptKind === 'tool_receipt' ? 'tool' : 'child'].get(e.sourceSeq));
}

/**
 * A ReceiptInclusionProof record for the leaf at `index` of a checkpoint's
 * complete batch, or null when the batch is incomplete (the exported proofs and
 * the receipt page's computed ones).
 */
export function inclusionProofText(c: CheckpointRow, receiptSeq: number, index: number, leaves: readonly (Uint8Array | null | undefined)[]): string | null {
  if (leaves.length !== c.treeSize || leaves.some((l) => !l)) return null;
  const path = inclusionProofFor(leaves as Uint8Array[], index);
  if (!path) return null;
  const root = `0x${c.merkleRoot.replace(/^0x/, '')}`;
  return `{"checkpoint_seq":${c.checkpointSeq},"receipt_seq":${receiptSeq},"leaf_index":${index},"merkle_root":${JSON.stringify(root)},"proof":{"tree_size":${c.treeSize},"leaf_index":${index},"audit_path":[${path.map((h) => `"0x${toHex(h)}"`).join(',')}]}}`;
}
