// Test support: a Chio SQLite store whose claim log interleaves child receipts with tool receipts
// (by time: T1 C1 T2 T3 C2 T4 T5 C3 T6), and one checkpoint over either the tool-seq order (tool
// receipts 1–4) or the claim-log order (entries 1–6), as kernels of either kind write it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { createChioStore } from '../../lib/sources/sqlite-store-writer';
import { checkpoint, childReceipt, genAReceipt, keyFromSeed, leafOf } from './forge';

/** The key that signs the store's receipts and checkpoint. */
export const INTERLEAVED_KEY = keyFromSeed(5);

/** Writes the store to a new temporary folder and returns its path. */
export async function writeInterleavedStore(order: 'tool-seq' | 'claim-log'): Promise<string> {
  const SQL = await initSqlJs();
  const key = INTERLEAVED_KEY;
  const tools = [1, 2, 3, 4, 5, 6].map((seq) => genAReceipt({ seq, key }));
  const ts = (r: Record<string, unknown>) => r.timestamp as number;
  const children = [1, 2, 3].map((seq) => childReceipt({ seq, timestamp: ts(tools[seq * 2 - 2]!) + 5, key }));
  const claimOrder = [tools[0], children[0], tools[1], tools[2], children[1], tools[3]];
  const leaves = (order === 'tool-seq' ? tools.slice(0, 4) : claimOrder).map((r) => leafOf(r!));
  const cp = checkpoint({ seq: 1, start: 1, leaves, key });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ra-interleaved-')), 'interleaved.sqlite3');
  writeFileSync(
    file,
    createChioStore(SQL, {
      toolReceipts: tools.map((r) => ({
        rawJson: JSON.stringify(r),
        receiptId: r.id as string,
        timestamp: ts(r),
        capabilityId: 'cap-test-1',
        toolServer: 'srv-files',
        toolName: 'file_read',
        decisionKind: 'allow',
        policyHash: 'policy-test-v1',
        contentHash: r.content_hash as string,
      })),
      childReceipts: children.map((c, i) => ({
        rawJson: JSON.stringify(c),
        receiptId: c.id as string,
        timestamp: ts(c),
        sessionId: 'sess-1',
        parentRequestId: 'req-root-sess-1',
        requestId: `req-${i + 1}`,
        operationKind: 'tool_call',
        terminalState: 'completed',
        policyHash: 'policy-test-v1',
        outcomeHash: c.outcome_hash as string,
      })),
      checkpoints: [
        {
          checkpointSeq: 1,
          batchStartSeq: 1,
          batchEndSeq: leaves.length,
          treeSize: leaves.length,
          merkleRoot: (cp.body.merkle_root as string).slice(2),
          issuedAt: cp.body.issued_at as number,
          statementJson: JSON.stringify(cp.body),
          signature: cp.signature,
          kernelKey: key.publicHex,
        },
      ],
    }),
  );
  return file;
}
