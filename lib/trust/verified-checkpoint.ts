// One checkpoint that verified in a load, reduced to what ties one load of a
// log to another (chio-format.md §9.1): what the checkpoint memory compares and
// keeps (checkpoint-memory.ts). lib/verify/verified-checkpoints.ts derives them
// from a load's checkpoint entries; they are not in the §8 report.

/** One checkpoint that verified in this load. Survives a structured clone. */
export interface VerifiedCheckpoint {
  /** The signing kernel key, normalized (lowercase hex, no `0x`): the log's identity. */
  key: string;
  checkpointSeq: bigint;
  batchStartSeq: bigint;
  batchEndSeq: bigint;
  treeSize: bigint;
  /** Lowercase hex, no `0x`. */
  merkleRootHex: string;
  /** sha256 hex of the canonical body, as `previous_checkpoint_sha256` hashes it. */
  sha256: string;
  /** The body's own link to its predecessor, as signed (attacker-controlled text). */
  previousSha256?: string;
  issuedAt: bigint;
  /** `chio.checkpoint_statement.v1` or `…v2` (absent in a memory written before v2 existed). */
  schema?: string;
  /** Its chain leaf hash (§16.3), lowercase hex without `0x`. */
  chainLeafHex?: string;
  /** v2: the signed chain_root, lowercase hex without `0x`. */
  chainRootHex?: string;
  /** v2: the outcome of its `chain` check in this load. */
  chain?: 'pass' | 'fail' | 'skipped';
  /** The chain frontier after it, when this load held its whole prefix (see CheckpointEntry). */
  chainFrontier?: { size: bigint; hashHex: string }[];
  /** Where in this load it was read (e.g. `checkpoints.ndjson`, a store's file name). */
  file: string;
}
