// The verified checkpoints of a log, per signing kernel key, reduced to what
// ties one load of a log to another (chio-format.md §9.1): position, root and
// `checkpoint_sha256` = sha256 hex of JCS(body), the digest a successor's
// `previous_checkpoint_sha256` names. Not part of the §8 report: the browser
// remembers these between loads (lib/trust/checkpoint-memory.ts; the type is
// lib/trust/verified-checkpoint.ts).
import { toHex } from '../bytes/hex';
import { chainLeafHash } from '../chio/checkpoint';
import type { CheckpointEntry } from './entries';
import { checkpointVerdict } from './report';
import type { VerifiedCheckpoint } from '../trust/verified-checkpoint';

/**
 * The checkpoints that verified (signature, structure, continuity and, when
 * keys are pinned, a trusted signer), one per distinct body, ordered by key
 * and then seq. Call after the log was evaluated (`finish`), when the
 * entries' checks are complete.
 */
export function verifiedCheckpoints(entries: readonly CheckpointEntry[]): VerifiedCheckpoint[] {
  const out = new Map<string, VerifiedCheckpoint>();
  for (const c of entries) {
    if (checkpointVerdict(c) !== 'verified' || c.cp.merkleRoot === null) continue;
    const key = c.cp.kernelKeyNormalized ?? c.cp.kernelKey;
    if (out.has(`${key}/${c.sha256}`)) continue;
    out.set(`${key}/${c.sha256}`, {
      key,
      checkpointSeq: c.cp.checkpointSeq,
      batchStartSeq: c.cp.batchStartSeq,
      batchEndSeq: c.cp.batchEndSeq,
      treeSize: c.cp.treeSize,
      merkleRootHex: toHex(c.cp.merkleRoot),
      sha256: c.sha256,
      ...(c.cp.previousCheckpointSha256 !== undefined ? { previousSha256: c.cp.previousCheckpointSha256 } : {}),
      issuedAt: c.cp.issuedAt,
      schema: c.cp.schema,
      ...chainFields(c),
      file: c.file,
    });
  }
  return [...out.values()].sort((a, b) =>
    a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.checkpointSeq < b.checkpointSeq ? -1 : a.checkpointSeq > b.checkpointSeq ? 1 : 0,
  );
}

function chainFields(c: CheckpointEntry): Pick<VerifiedCheckpoint, 'chainLeafHex' | 'chainRootHex' | 'chain' | 'chainFrontier'> {
  const out: Pick<VerifiedCheckpoint, 'chainLeafHex' | 'chainRootHex' | 'chain' | 'chainFrontier'> = {};
  const leaf = chainLeafHash(c.cp);
  if (leaf) out.chainLeafHex = toHex(leaf);
  if (c.cp.chainRoot) out.chainRootHex = toHex(c.cp.chainRoot);
  if (c.checks.chain) out.chain = c.checks.chain.status;
  if (c.chainFrontier) out.chainFrontier = c.chainFrontier.map((f) => ({ size: f.size, hashHex: toHex(f.hash) }));
  return out;
}
