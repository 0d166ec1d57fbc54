// Signed kernel checkpoints for the demo (chio-format.md §9, §16): one per 100 tool receipts,
// chained by previous_checkpoint_sha256. Midway the kernel is upgraded and issues
// `chio.checkpoint_statement.v2` from then on, each with a signed `chain_root` over the chain
// leaves of every checkpoint since checkpoint 1 (the v1 ones included, as an upgraded kernel
// seeds its chain frontier from the checkpoints it already holds, §16.3).
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
import { type Frontier, appendToFrontier, frontierRoot, leafHash, rootFromLeafHashes } from '../../lib/merkle';
import { compactJson, int, struct } from './json-tree';
import type { DemoKey } from './sign';

export const CHECKPOINT_BATCH_SIZE = 100;
/** The checkpoint schema upgrade (v1 → v2) happens after this fraction of the tool receipts. */
export const CHECKPOINT_V2_FRACTION = 0.5;

export class Checkpointer {
  private leaves: Uint8Array[] = [];
  private batchStart = 1;
  private checkpointSeq = 0;
  private previousBody: JsonObject | undefined;
  /** The chain frontier (§16.3): one root per perfect subtree of chain leaves, largest first. */
  private frontier: Frontier = [];
  /** Checkpoints per schema, for the counts. */
  v1 = 0;
  v2 = 0;

  /** `v2After`: batches ending after this tool seq are signed as v2 (Infinity: never). */
  constructor(
    private readonly kernel: DemoKey,
    private readonly batchSize = CHECKPOINT_BATCH_SIZE,
    private readonly v2After = Number.POSITIVE_INFINITY,
  ) {}

  private appendChainLeaf(body: JsonObject): Uint8Array {
    const leaf = struct([
      ['checkpoint_seq', body.get('checkpoint_seq')],
      ['batch_start_seq', body.get('batch_start_seq')],
      ['batch_end_seq', body.get('batch_end_seq')],
      ['merkle_root', body.get('merkle_root')],
    ]);
    this.frontier = appendToFrontier(this.frontier, leafHash(canonicalBytes(leaf)));
    return frontierRoot(this.frontier)!;
  }

  /** Adds the tool receipt at `seq` (1, 2, 3, …); returns the checkpoint when its batch is full. */
  add(seq: number, leaf: Uint8Array, timestamp: number): CheckpointInput | undefined {
    if (seq !== this.batchStart + this.leaves.length) throw new RangeError(`tool seq ${seq} out of order`);
    this.leaves.push(leaf);
    if (this.leaves.length < this.batchSize) return undefined;
    const rootHex = toHex(rootFromLeafHashes(this.leaves)!);
    this.checkpointSeq++;
    const v2 = seq > this.v2After;
    const body = struct([
      ['schema', v2 ? 'chio.checkpoint_statement.v2' : 'chio.checkpoint_statement.v1'],
      ['checkpoint_seq', int(this.checkpointSeq)],
      ['batch_start_seq', int(this.batchStart)],
      ['batch_end_seq', int(seq)],
      ['tree_size', int(this.leaves.length)],
      ['merkle_root', `0x${rootHex}`],
      ['issued_at', int(timestamp)],
      ['kernel_key', this.kernel.publicHex],
      ['previous_checkpoint_sha256', this.previousBody && sha256Hex(canonicalBytes(this.previousBody))],
    ]);
    // Every checkpoint is a chain leaf; a v2 one signs the root of the chain so far.
    const chainRoot = this.appendChainLeaf(body);
    if (v2) body.set('chain_root', `0x${toHex(chainRoot)}`);
    if (v2) this.v2++;
    else this.v1++;
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
