// Feeds a Chio SQLite receipt store (chio-format.md §10) into the verifier:
// kernel checkpoints from `kernel_checkpoints` (statement_json + signature),
// tool and child receipts from their `raw_json` (the source of truth), and HTTP
// sidecar receipts from `http_receipts`.
//
// Which sequence do checkpoints cover? §10 says the claim log's `entry_seq`
// (tool and child receipts interleaved); §9.6 notes the kernel's trigger
// counts `chio_tool_receipts.seq`, and exports number proofs by tool seq. The
// two agree until a child receipt is logged. So, as §9.6 advises, the store is
// probed by content: the first checkpoint's root is recomputed both ways and
// the order that reproduces it decides how every receipt is placed.
import { rootFromLeafHashes } from '../merkle';
import { bytesEqual } from '../bytes/hex';
import { parseHash } from '../chio/checkpoint';
import { receiptLeafHash } from '../chio/leaf';
import type { LogSink } from '../verify/log-sink';
import { makeProblem } from '../verify/problems';
import { type CheckpointRow, type ChioStoreReader, type ClaimLogRow, type RowError, isRowError } from './sqlite-store';

export type CoverageOrder = 'claim-log' | 'tool-seq';

export const COVERAGE_LABEL: Record<CoverageOrder, string> = {
  'claim-log': 'checkpoints cover the claim log (tool and child receipts by entry_seq)',
  'tool-seq': 'checkpoints cover tool receipts by chio_tool_receipts.seq (child receipts are not checkpointed)',
};

/** A `kernel_checkpoints` row as the checkpoint record `{"body","signature"}` (the statement's bytes kept as stored). */
export function checkpointRecordText(row: CheckpointRow): string {
  return `{"body":${row.statementJson},"signature":${JSON.stringify(row.signature)}}`;
}

export async function loadStore(store: ChioStoreReader, name: string, verifier: LogSink, space: string): Promise<void> {
  const rowProblem = (e: RowError) => {
    const file = `${name}#${e.table}`;
    const line = e.rowid !== null && /^\d+$/.test(e.rowid) && Number.isSafeInteger(Number(e.rowid)) ? Number(e.rowid) : undefined;
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

/**
 * Claim-log order unless the claim log interleaves child receipts into the
 * first checkpoint's range and only tool-seq order reproduces that checkpoint's
 * root. Reads only the rows of the first batch.
 */
export function coverageOrder(store: Pick<ChioStoreReader, 'toolReceipts' | 'childReceipts'>, claimLog: ClaimLogRow[], checkpoints: CheckpointRow[]): CoverageOrder {
  const first = checkpoints.reduce<CheckpointRow | undefined>((m, c) => (m === undefined || c.checkpointSeq < m.checkpointSeq ? c : m), undefined);
  if (!first) return 'claim-log';
  const interleaved = claimLog.some((e) => e.entrySeq <= first.batchEndSeq && (e.receiptKind !== 'tool_receipt' || e.sourceSeq !== e.entrySeq));
  if (!interleaved) return 'claim-log';
  const root = parseHash(first.merkleRoot);
  if (!root) return 'claim-log';
  const inRange = (n: number) => n >= first.batchStartSeq && n <= first.batchEndSeq;
  const wantedTool = new Set<number>();
  const wantedChild = new Set<number>();
  for (const e of claimLog) if (inRange(e.entrySeq)) (e.receiptKind === 'tool_receipt' ? wantedTool : wantedChild).add(e.sourceSeq);
  const maxTool = Math.max(first.batchEndSeq, ...wantedTool);
  const toolLeaves = new Map<number, Uint8Array>();
  for (const row of store.toolReceipts()) {
    if (isRowError(row)) continue;
    if (row.seq > maxTool) break;
    if (inRange(row.seq) || wantedTool.has(row.seq)) {
      const leaf = receiptLeafHash(row.rawJson, 'tool');
      if (leaf) toolLeaves.set(row.seq, leaf);
    }
  }
  const childLeaves = new Map<number, Uint8Array>();
  if (wantedChild.size > 0) {
    const maxChild = Math.max(...wantedChild);
    for (const row of store.childReceipts()) {
      if (isRowError(row)) continue;
      if (row.seq > maxChild) break;
      if (wantedChild.has(row.seq)) {
        const leaf = receiptLeafHash(row.rawJson, 'child');
        if (leaf) childLeaves.set(row.seq, leaf);
      }
    }
  }
  const byEntry = claimLog
    .filter((e) => inRange(e.entrySeq))
    .sort((a, b) => a.entrySeq - b.entrySeq)
    .map((e) => (e.receiptKind === 'tool_receipt' ? toolLeaves : childLeaves).get(e.sourceSeq));
  const byTool = [...toolLeaves.entries()].filter(([seq]) => inRange(seq)).sort((a, b) => a[0] - b[0]).map(([, l]) => l);
  const matches = (leaves: (Uint8Array | undefined)[]) => {
    if (leaves.some((l) => l === undefined)) return false;
    const r = rootFromLeafHashes(leaves as Uint8Array[]);
    return r !== null && bytesEqual(r, root);
  };
  if (matches(byEntry)) return 'claim-log';
  return matches(byTool) ? 'tool-seq' : 'claim-log';
}
