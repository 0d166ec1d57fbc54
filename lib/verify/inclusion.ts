// The `inclusion` check (contract §5; chio-format.md §9.2–§9.4): a receipt's
// leaf must reach the root of a checkpoint that itself verified, through its
// inclusion proof (kernel leaf = JCS of the full receipt, else the anchor
// lane's JCS of the body, labelled), or, without a proof, because the batch
// root recomputed from the stored receipts equals the signed one. A checkpoint
// that failed vouches for nothing. Receipts past the last checkpoint are the
// uncheckpointed tail.
import { bytesEqual } from '../bytes/hex';
import { rootFromLeafHashes, verifyInclusion } from '../merkle';
import { type CheckResult, UNCHECKPOINTED, fail, pass, skipped } from './check';
import type { CheckpointEntry, ProofEntry, ReceiptEntry } from './entries';
import { type Problem, makeProblem } from './problems';

export const LEAF_KERNEL = 'leaf: full receipt (kernel convention)';
export const LEAF_ANCHOR = 'leaf: receipt body without signature (anchor convention)';

/** Receipts a single checkpoint may claim before we stop enumerating its batch (hostile sizes). */
const MAX_BATCH_ENUMERATION = 10_000_000n;

interface Space {
  receipts: Map<bigint, ReceiptEntry[]>;
  checkpoints: Map<bigint, CheckpointEntry[]>;
  /** Unique checkpoints sorted by batch start. */
  sorted: CheckpointEntry[];
  maxEnd: bigint;
}

export interface InclusionInput {
  receipts: ReceiptEntry[];
  checkpoints: CheckpointEntry[];
  proofs: ProofEntry[];
  checkpointVerified: (cp: CheckpointEntry) => boolean;
}

export function evaluateInclusion(input: InclusionInput): Problem[] {
  const problems: Problem[] = [];
  const spaces = indexSpaces(input.receipts, input.checkpoints);
  const proofResults = evaluateProofs(input.proofs, spaces, problems);
  const batchRoots = new Map<CheckpointEntry, CheckResult>();

  for (const r of input.receipts) {
    const result = inclusionFor(r, spaces.get(r.space), proofResults.get(r), input, batchRoots, problems);
    r.checks.inclusion = result;
    if (result.status === 'fail') {
      problems.push(makeProblem('inclusion_failed', `${r.id}: ${result.detail}`, { receipt_id: r.id, file: r.file, line: r.line }));
    }
  }
  return problems;
}

function indexSpaces(receipts: ReceiptEntry[], checkpoints: CheckpointEntry[]): Map<string, Space> {
  const spaces = new Map<string, Space>();
  const space = (id: string): Space => {
    let s = spaces.get(id);
    if (!s) spaces.set(id, (s = { receipts: new Map(), checkpoints: new Map(), sorted: [], maxEnd: 0n }));
    return s;
  };
  for (const r of receipts) {
    if (r.logSeq === undefined) continue;
    const m = space(r.space).receipts;
    const list = m.get(r.logSeq);
    if (list) list.push(r);
    else m.set(r.logSeq, [r]);
  }
  for (const c of checkpoints) {
    const s = space(c.space);
    const list = s.checkpoints.get(c.cp.checkpointSeq);
    if (list) list.push(c);
    else s.checkpoints.set(c.cp.checkpointSeq, [c]);
    if (c.cp.batchEndSeq > s.maxEnd) s.maxEnd = c.cp.batchEndSeq;
  }
  for (const s of spaces.values()) {
    s.sorted = [...s.checkpoints.values()].map((l) => l[0]!).sort((a, b) => cmp(a.cp.batchStartSeq, b.cp.batchStartSeq));
  }
  return spaces;
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Evaluates every proof against its receipt and checkpoint; the result is attached to the receipt. */
function evaluateProofs(proofs: ProofEntry[], spaces: Map<string, Space>, problems: Problem[]): Map<ReceiptEntry, CheckResult> {
  const results = new Map<ReceiptEntry, CheckResult>();
  for (const pe of proofs) {
    const { proof } = pe;
    const s = spaces.get(pe.space);
    const targets = s?.receipts.get(proof.receiptSeq);
    if (!targets || targets.length === 0) {
      problems.push(
        makeProblem('missing_receipt', `the inclusion proof for receipt seq ${proof.receiptSeq} (checkpoint ${proof.checkpointSeq}) points at no receipt in the log`, {
          checkpoint_seq: proof.checkpointSeq,
          file: pe.file,
          line: pe.line,
        }),
      );
      continue;
    }
    for (const r of targets) {
      if (results.has(r)) {
        results.set(r, fail(`more than one inclusion proof for receipt seq ${proof.receiptSeq}`));
        continue;
      }
      if (targets.length > 1) {
        results.set(r, fail(`receipt seq ${proof.receiptSeq} appears ${targets.length} times in the log`));
        continue;
      }
      const cps = s!.checkpoints.get(proof.checkpointSeq);
      results.set(r, checkProof(pe, r, cps));
    }
  }
  return results;
}

function checkProof(pe: ProofEntry, r: ReceiptEntry, cps: CheckpointEntry[] | undefined): CheckResult {
  const { proof } = pe;
  if (!cps || cps.length === 0) return skipped(`its proof refers to checkpoint ${proof.checkpointSeq}, which is not in the log`);
  const cp = cps[0]!.cp;
  const where = `proof at ${pe.file}:${pe.line}`;
  if (cp.merkleRoot === null) return fail(`checkpoint ${cp.checkpointSeq} has no usable root`);
  if (proof.merkleRoot === null || !bytesEqual(proof.merkleRoot, cp.merkleRoot)) {
    return fail(`${where} names a root other than checkpoint ${cp.checkpointSeq}'s`);
  }
  if (proof.treeSize !== cp.treeSize) return fail(`${where} has tree_size ${proof.treeSize}, checkpoint ${cp.checkpointSeq} has ${cp.treeSize}`);
  if (proof.leafIndex !== proof.proofLeafIndex) return fail(`${where} gives two different leaf indexes`);
  if (proof.leafIndex >= proof.treeSize) return fail(`${where} has leaf_index ${proof.leafIndex} outside a tree of ${proof.treeSize}`);
  if (r.logSeq! < cp.batchStartSeq || r.logSeq! > cp.batchEndSeq) {
    return fail(`receipt seq ${r.logSeq} is outside checkpoint ${cp.checkpointSeq}'s batch ${cp.batchStartSeq}–${cp.batchEndSeq}`);
  }
  if (proof.auditPath.some((h) => h === null)) return fail(`${where} has an audit path entry that is not 32 bytes of hex`);
  if (proof.treeSize > BigInt(Number.MAX_SAFE_INTEGER)) return fail(`${where} has an impossible tree size`);
  const path = proof.auditPath as Uint8Array[];
  const index = Number(proof.leafIndex);
  const size = Number(proof.treeSize);
  if (verifyInclusion(index, size, r.leafHash, path, cp.merkleRoot).ok) return pass(LEAF_KERNEL);
  if (verifyInclusion(index, size, r.anchorLeafHash, path, cp.merkleRoot).ok) return pass(LEAF_ANCHOR);
  return fail(`its leaf does not reach checkpoint ${cp.checkpointSeq}'s root through the ${where}: the receipt as stored is not the one that was checkpointed`);
}

function inclusionFor(
  r: ReceiptEntry,
  s: Space | undefined,
  proofResult: CheckResult | undefined,
  input: InclusionInput,
  batchRoots: Map<CheckpointEntry, CheckResult>,
  problems: Problem[],
): CheckResult {
  if (r.logSeq === undefined || !s || s.sorted.length === 0) return proofResult ?? skipped(UNCHECKPOINTED);
  const covering = s.sorted.filter((c) => r.logSeq! >= c.cp.batchStartSeq && r.logSeq! <= c.cp.batchEndSeq);
  if (covering.length === 0) {
    if (proofResult) return proofResult.status === 'pass' ? fail('its proof names a checkpoint whose batch does not cover it') : proofResult;
    if (r.logSeq > s.maxEnd) return skipped(UNCHECKPOINTED);
    return skipped(`no checkpoint covers seq ${r.logSeq}, although later receipts are checkpointed (a checkpoint is missing)`);
  }
  const failed = covering.find((c) => !input.checkpointVerified(c));
  if (failed) return skipped(`checkpoint ${failed.cp.checkpointSeq}, which covers it, failed verification`);
  if (proofResult) return proofResult;
  const cp = covering[0]!;
  let batch = batchRoots.get(cp);
  if (!batch) batchRoots.set(cp, (batch = batchRootCheck(cp, s, problems)));
  return batch;
}

/** Recomputes a checkpoint's root from the stored receipts of its batch, in log order. */
function batchRootCheck(c: CheckpointEntry, s: Space, problems: Problem[]): CheckResult {
  const { cp } = c;
  if (cp.merkleRoot === null) return fail(`checkpoint ${cp.checkpointSeq} has no usable root`);
  const size = cp.batchEndSeq - cp.batchStartSeq + 1n;
  if (size > MAX_BATCH_ENUMERATION || size > BigInt(s.receipts.size) + 1000n) {
    problems.push(
      makeProblem('missing_receipt', `checkpoint ${cp.checkpointSeq} covers ${size} receipts, but the log holds only ${s.receipts.size}`, {
        checkpoint_seq: cp.checkpointSeq,
        file: c.file,
        line: c.line,
      }),
    );
    return fail(`the receipts of checkpoint ${cp.checkpointSeq}'s batch are not all in the log, so its root cannot be recomputed`);
  }
  const leaves: Uint8Array[] = [];
  let missing = 0;
  for (let seq = cp.batchStartSeq; seq <= cp.batchEndSeq; seq++) {
    const list = s.receipts.get(seq);
    if (!list || list.length !== 1) {
      missing++;
      if (missing <= 100) {
        const what = list ? `appears ${list.length} times` : 'is not in the log';
        problems.push(
          makeProblem('missing_receipt', `checkpoint ${cp.checkpointSeq} covers seq ${seq}, which ${what}`, {
            checkpoint_seq: cp.checkpointSeq,
            file: c.file,
            line: c.line,
          }),
        );
      }
      continue;
    }
    leaves.push(list[0]!.leafHash);
  }
  if (missing > 0) return fail(`${missing} receipt(s) of checkpoint ${cp.checkpointSeq}'s batch are missing, so its root cannot be recomputed`);
  const root = rootFromLeafHashes(leaves);
  if (root && bytesEqual(root, cp.merkleRoot)) return pass(`batch root recomputed from the stored receipts (${LEAF_KERNEL})`);
  return fail(`the root recomputed from the stored receipts of checkpoint ${cp.checkpointSeq}'s batch differs from the signed root: a stored receipt differs from what was checkpointed`);
}
