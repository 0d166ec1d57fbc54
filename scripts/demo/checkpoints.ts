// Signed kernel checkpoints for the demo (chio-format.md §9): one per 100 tool receipts, chained by previous_checkpoint_sha256.
//
// Convention (the live kernel's, and the reference corpus producer's): the trigger counts
// chio_tool_receipts.seq, so batch_start_seq..batch_end_seq are tool seqs and the tree's leaves
// are the batch's tool receipts in seq order; child receipts are never checkpointed even though
// the claim log interleaves them. Only the open batch's leaf hashes are held.
import type { CheckpointInput } from '../../lib/sources/sqlite-store-writer';
import { canonicalBytes } from '../../lib/json/canonicalize';
import type { JsonObject } from '../../lib/json/value';
import { sha256Hex } from '../../lib/crypto/sha256';
import { toHex } from '../../lib/bytes/hex';
import { rootFromLeafHashes } from '../../lib/merkle';
import { compactJson, int, struct } from './json-tree';
import type { DemoKey } from './sign';

export const CHECKPOINT_BATCH_SIZE = 100;

export class Checkpointer {
  private leaves: Uint8Array[] = [];
  private batchStart = 1;
  private checkpointSeq = 0;
  private previousBody: JsonObject | undefined;

  constructor(private readonly kernel: DemoKey, private readonly batchSize = CHECKPOINT_BATCH_SIZE) {}

  /** Adds the tool receipt at `seq` (1, 2, 3, …); returns the checkpoint when its batch is full. */
  add(seq: number, leaf: Uint8Array, timestamp: number): CheckpointInput | undefined {
    if (seq !== this.batchStart + this.leaves.length) throw new RangeError(`tool seq ${seq} out of order`);
    this.leaves.push(leaf);
    if (this.leaves.length < this.batchSize) return undefined;
    const rootHex = toHex(rootFromLeafHashes(this.leaves)!);
    this.checkpointSeq++;
    const body = struct([
      ['schema', 'chio.checkpoint_statement.v1'],
      ['checkpoint_seq', int(this.checkpointSeq)],
      ['batch_start_seq', int(this.batchStart)],
      ['batch_end_seq', int(seq)],
      ['tree_size', int(this.leaves.length)],
      ['merkle_root', `0x${rootHex}`],
      ['issued_at', int(timestamp)],
      ['kernel_key', this.kernel.publicHex],
      ['previous_checkpoint_sha256', this.previousBody && sha256Hex(canonicalBytes(this.previousBody))],
    ]);
    const checkpoint: CheckpointInput = {
      checkpointSeq: this.checkpointSeq,
      batchStartSeq: this.batchStart,
      batchEndSeq: seq,
      treeSize: this.leaves.length,
      merkleRoot: rootHex, // the column has no 0x; statement_json does
      issuedAt: timestamp,
      statementJson: compactJson(body),
      signature: this.kernel.sign(canonicalBytes(body)),
      kernelKey: this.kernel.publicHex,
    };
    this.previousBody = body;
    this.batchStart = seq + 1;
    this.leaves = [];
    return checkpoint;
  }

  /** Tool receipts after the last full batch: the uncheckpointed tail. */
  get tail(): number {
    return this.leaves.length;
  }

  get count(): number {
    return this.checkpointSeq;
  }
}
