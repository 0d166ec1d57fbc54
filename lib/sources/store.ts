// Feeds a Chio SQLite receipt store (chio-format.md §10) into the verifier:
// kernel checkpoints from `kernel_checkpoints` (statement_json + signature),
// tool and child receipts from their `raw_json` (the source of truth), placed
// at their `claim_receipt_log_entries.entry_seq`, which is the sequence
// checkpoints cover; HTTP sidecar receipts from `http_receipts`.
import type { LogVerifier } from '../verify/log-verifier';
import { makeProblem } from '../verify/problems';
import { type ChioStoreReader, type RowError, isRowError } from './sqlite-store';

export async function loadStore(store: ChioStoreReader, name: string, verifier: LogVerifier, space: string): Promise<void> {
  const rowProblem = (e: RowError) => {
    const file = `${name}#${e.table}`;
    const line = e.rowid !== null && /^\d+$/.test(e.rowid) && Number.isSafeInteger(Number(e.rowid)) ? Number(e.rowid) : undefined;
    verifier.addProblem(makeProblem('parse_error', `${file} row ${e.rowid ?? '?'}: ${e.error}`, line !== undefined ? { file, line } : { file }));
  };
  if (store.wal?.walIgnored) {
    verifier.addProblem(makeProblem('parse_error', `${name}-wal was not applied: ${store.wal.walIgnored}`, { file: `${name}-wal` }));
  }

  const entrySeqOf = new Map<string, bigint>();
  for (const row of store.claimLog()) {
    if (isRowError(row)) rowProblem(row);
    else entrySeqOf.set(`${row.receiptKind}:${row.receiptId}`, BigInt(row.entrySeq));
  }

  for (const row of store.checkpoints()) {
    if (isRowError(row)) {
      rowProblem(row);
      continue;
    }
    const text = `{"body":${row.statementJson},"signature":${JSON.stringify(row.signature)}}`;
    await verifier.addRecord(text, { file: `${name}#kernel_checkpoints`, line: row.checkpointSeq, role: 'checkpoint', space });
  }

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
      const logSeq = entrySeqOf.get(`${claimKind}:${row.receiptId}`);
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
