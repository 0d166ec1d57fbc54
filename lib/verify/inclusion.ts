// The `inclusion` check (contract §5; chio-format.md §9.2–§9.4): a receipt's
// leaf must reach the root of a checkpoint that itself verified, through its
// inclusion proof (kernel leaf = JCS of the full receipt, else the anchor
// lane's JCS of the body, labelled), or, without a proof, because the batch
// root recomputed from the stored receipts equals the signed one. A checkpoint
// that failed vouches for nothing. Receipts past the last checkpoint are the
// uncheckpointed tail.
//
// Proofs are checked as they arrive whenever their receipt and checkpoint are
// already known (packages are read checkpoints → receipts → proofs), so only a
// result per receipt is kept, not the proofs themselves.
import { bytesEqual } from '../bytes/hex';
import { rootFromLeafHashes, verifyInclusion } from '../merkle';
import { type CheckResult, fail, pass, skipped } from '../verdict/check';
import { type CheckpointEntry, type ProofEntry, type ReceiptEntry, anchorLeaf, kernelLeaf } from './entries';
import { type Problem, makeProblem } from '../verdict/problems';

const PASS_KERNEL = Object.freeze(pass('leaf_kernel'));
const PASS_ANCHOR = Object.freeze(pass('leaf_anchor'));
const SKIPPED_TAIL = Object.freeze(skipped('uncheckpointed'));

/** Receipts a single checkpoint may claim before we stop enumerating its batch (hostile sizes). */
const MAX_BATCH_ENUMERATION = 10_000_000n;

/** The receipts under one key (a log seq, an id): the receipt, or a list only when the key repeats (an array a receipt is ~60 bytes at a million). */
type AtSeq = ReceiptEntry | ReceiptEntry[];

interface Space {
  receipts: Map<bigint, AtSeq>;
  /** Receipts that came with no seq (a loose `receipt.json`): a proof finds them by their leaf (contract part 2 §5.2). */
  bare: ReceiptEntry[];
  checkpoints: Map<bigint, CheckpointEntry[]>;
}

/** A checkpoint this browser verified in an earlier load (part 2 §12), by its kernel key. */
export interface RememberedBatch {
  checkpointSeq: bigint;
  batchEndSeq: bigint;
}

/** Bare receipts × unmatched proofs tried by leaf before giving up (hostile sizes). */
const MAX_BARE_TRIALS = 4_000_000;

export class InclusionIndex {
  private readonly spaces = new Map<string, Space>();
  private readonly notes = new Map<string, string>();
  private readonly pending: ProofEntry[] = [];
  private remembered: ReadonlyMap<string, RememberedBatch> = new Map();
  readonly problems: Problem[] = [];

  /** `take`: a cap that may take a problem instead of the list (one per proof that points at nothing: a hostile log holds millions). */
  constructor(private readonly take: (p: Problem) => boolean = () => false) {}

  /**
   * Checkpoints verified in earlier loads, by kernel key (part 2 §12): a receipt of that key at a
   * seq inside one is never the uncheckpointed tail. It must reach a verified checkpoint of this
   * load, or its inclusion fails (a server that withholds checkpoints).
   */
  setRemembered(remembered: ReadonlyMap<string, RememberedBatch>): void {
    this.remembered = remembered;
  }

  /** The tail's `inclusion`, unless a remembered checkpoint covers the receipt's seq. */
  private tail(r: ReceiptEntry): CheckResult {
    const m = r.kernelKey === null || r.logSeq === undefined ? undefined : this.remembered.get(r.kernelKey);
    if (!m || r.logSeq! > m.batchEndSeq) return SKIPPED_TAIL;
    return fail('remembered_checkpoint_missing', r.logSeq!, m.checkpointSeq, m.batchEndSeq);
  }

  private space(id: string): Space {
    let s = this.spaces.get(id);
    if (!s) this.spaces.set(id, (s = { receipts: new Map(), bare: [], checkpoints: new Map() }));
    return s;
  }

  /** A note on how this space's checkpoints cover receipts, added to batch-root results. */
  setNote(space: string, note: string): void {
    this.notes.set(space, note);
  }

  addReceipt(r: ReceiptEntry): void {
    if (r.logSeq !== undefined) addOne(this.space(r.space).receipts, r.logSeq, r);
    else if (r.type === 'tool') this.space(r.space).bare.push(r);
  }

  addCheckpoint(c: CheckpointEntry): void {
    pushTo(this.space(c.space).checkpoints, c.cp.checkpointSeq, c);
  }

  /** Checks a proof now when its receipt and checkpoint are known, else at `finish`; true when it is kept until then. */
  addProof(pe: ProofEntry): boolean {
    const s = this.spaces.get(pe.space);
    const target = s?.receipts.get(pe.proof.receiptSeq);
    const cps = s?.checkpoints.get(pe.proof.checkpointSeq);
    if (target !== undefined && !Array.isArray(target) && cps) {
      this.applyProof(pe, target, cps);
      return false;
    }
    this.pending.push(pe);
    return true;
  }

  /**
   * Checks the proof against every checkpoint with its checkpoint_seq (a forged one may share it),
   * so `finish` can take the result against the one that verified.
   */
  private applyProof(pe: ProofEntry, r: ReceiptEntry, cps: CheckpointEntry[] | undefined): void {
    r.proofCount = (r.proofCount ?? 0) + 1;
    if (r.proofCount > 1) {
      r.proofResult = fail('proof_repeated', pe.proof.receiptSeq);
      r.proofCheckpoint = undefined;
      r.proofOthers = undefined;
      return;
    }
    if (!cps || cps.length === 0) {
      r.proofResult = skipped('proof_checkpoint_absent', pe.proof.checkpointSeq);
      return;
    }
    r.proofCheckpoint = cps[0]!;
    r.proofResult = checkProof(pe, r, cps[0]!);
    if (cps.length > 1) r.proofOthers = cps.slice(1).map((c) => [c, checkProof(pe, r, c)]);
    const position = positionMismatch(pe, r, cps[0]!);
    if (position !== null) r.proofPosition = position;
  }

  /** The proof's outcome against a checkpoint that verified; when its checkpoints all failed, skipped. */
  private proofOutcome(r: ReceiptEntry, checkpointVerified: (c: CheckpointEntry) => boolean): CheckResult | undefined {
    const c = r.proofCheckpoint;
    if (!c) return r.proofResult;
    const outcomes: [CheckpointEntry, CheckResult][] = [[c, r.proofResult!], ...(r.proofOthers ?? [])];
    const good = outcomes.filter(([cp]) => checkpointVerified(cp));
    if (good.length === 0) return skipped('proof_checkpoint_failed', c.cp.checkpointSeq);
    return good.find(([, res]) => res.status === 'pass')?.[1] ?? good[0]![1];
  }

  /** Settles pending proofs, then sets every receipt's `inclusion` check. */
  finish(receipts: ReceiptEntry[], checkpointVerified: (c: CheckpointEntry) => boolean): Problem[] {
    let bareTrials = 0;
    for (const pe of this.pending) {
      const s = this.spaces.get(pe.space);
      const at = s?.receipts.get(pe.proof.receiptSeq);
      let targets = at === undefined ? [] : Array.isArray(at) ? at : [at];
      if (targets.length === 0 && s && s.bare.length > 0) {
        // A receipt that came without a seq: the proof is its if its leaf reaches the root.
        const cps = s.checkpoints.get(pe.proof.checkpointSeq) ?? [];
        bareTrials += s.bare.length * Math.max(1, cps.length);
        if (bareTrials <= MAX_BARE_TRIALS) targets = s.bare.filter((r) => cps.some((c) => checkProof(pe, r, c).status === 'pass'));
      }
      if (targets.length === 0) {
        const { proof } = pe;
        const problem = makeProblem(
          'missing_receipt',
          `the inclusion proof for receipt seq ${proof.receiptSeq} (checkpoint ${proof.checkpointSeq}) points at no receipt in the log`,
          {
            checkpoint_seq: proof.checkpointSeq,
            file: pe.file,
            line: pe.line,
          },
        );
        if (!this.take(problem)) this.problems.push(problem);
        continue;
      }
      for (const r of targets) this.applyProof(pe, r, s!.checkpoints.get(pe.proof.checkpointSeq));
    }
    const sorted = new Map<string, Coverage>();
    for (const [id, s] of this.spaces) sorted.set(id, new Coverage([...s.checkpoints.values()].flat()));
    const batchRoots = new Map<CheckpointEntry, CheckResult>();
    for (const r of receipts) {
      const s = this.spaces.get(r.space);
      const result = this.inclusionFor(r, s, sorted.get(r.space), checkpointVerified, batchRoots);
      r.checks.inclusion = result;
      if (r.proofPosition !== undefined && r.proofResult !== undefined && result === r.proofResult) {
        this.problems.push(makeProblem('inclusion_position_mismatch', `${r.id}: ${r.proofPosition}`, { receipt_id: r.id, file: r.file, line: r.line }));
      }
      if (result.status === 'fail') {
        this.problems.push(makeProblem('inclusion_failed', `${r.id}: ${result.detail}`, { receipt_id: r.id, file: r.file, line: r.line }));
      }
      // Cleared only where set: adding the fields to every other receipt would grow each one.
      if (r.proofCheckpoint !== undefined) r.proofCheckpoint = undefined;
      if (r.proofOthers !== undefined) r.proofOthers = undefined;
    }
    this.failReplays(receipts);
    for (const r of receipts) if (r.proofPosition !== undefined) r.proofPosition = undefined;
    return this.problems;
  }

  /**
   * A receipt id twice in one source: a copy that no checkpoint places in the log is a replay
   * (say, a paid call repeated in the uncheckpointed tail to double its cost), never a new entry.
   * Copies whose inclusion passed keep it. Nothing is indexed when every receipt is placed.
   */
  private failReplays(receipts: ReceiptEntry[]): void {
    const displaced = (r: ReceiptEntry) => r.checks.inclusion?.status === 'pass' && r.proofPosition !== undefined;
    if (!receipts.some((r) => r.checks.inclusion?.status === 'skipped' || displaced(r))) return;
    // Receipts by id (the ids they already hold are the keys: no string is built per receipt),
    // an array only where an id repeats; then each repeated id is split by source and type.
    const byId = new Map<string, AtSeq>();
    for (const r of receipts) addOne(byId, r.id, r);
    for (const same of byId.values()) {
      if (!Array.isArray(same)) continue;
      const groups = new Map<string, ReceiptEntry[]>();
      for (const r of same) pushTo(groups, `${r.space}\u0000${r.type}`, r);
      for (const copies of groups.values()) {
        if (copies.length < 2) continue;
        for (const r of copies) {
          // A copy whose proof names another leaf position is the same checkpointed leaf counted again.
          if (r.checks.inclusion?.status !== 'skipped' && !displaced(r)) continue;
          const others = copies.filter((o) => o !== r).map((o) => (o.logSeq !== undefined ? `seq ${o.logSeq}` : `${o.file}:${o.line}`));
          const result = fail('receipt_replayed', r.id, copies.length, others, displaced(r));
          r.checks.inclusion = result;
          this.problems.push(makeProblem('inclusion_failed', `${r.id}: ${result.detail}`, { receipt_id: r.id, file: r.file, line: r.line }));
        }
      }
    }
  }

  private inclusionFor(
    r: ReceiptEntry,
    s: Space | undefined,
    order: Coverage | undefined,
    checkpointVerified: (c: CheckpointEntry) => boolean,
    batchRoots: Map<CheckpointEntry, CheckResult>,
  ): CheckResult {
    const proofResult = this.proofOutcome(r, checkpointVerified);
    if (r.logSeq === undefined || !s || !order || order.list.length === 0) return proofResult ?? this.tail(r);
    const at = s.receipts.get(r.logSeq);
    const copies = at === undefined ? 0 : Array.isArray(at) ? at.length : 1;
    if (copies > 1) return fail('seq_repeated', r.logSeq, copies);
    // A proof checked against a checkpoint that verified decides (its batch range is part of the check).
    if (proofResult) return proofResult;
    const covering = order.covering(r.logSeq);
    if (covering.length === 0) {
      if (r.logSeq > order.maxEnd) return this.tail(r);
      return skipped('checkpoint_missing', r.logSeq);
    }
    // Checkpoints that failed vouch for nothing, and they take nothing from one that verified.
    const cp = covering.find((c) => checkpointVerified(c));
    if (!cp) return skipped('covering_checkpoint_failed', covering[0]!.cp.checkpointSeq);
    let batch = batchRoots.get(cp);
    if (!batch) batchRoots.set(cp, (batch = this.batchRootCheck(cp, s, this.notes.get(r.space))));
    const cpKey = cp.cp.kernelKeyNormalized ?? cp.cp.kernelKey;
    if (batch.status === 'pass' && r.kernelKey !== cpKey) return fail('signer_differs', r.kernelKey, cp.cp.checkpointSeq, cpKey);
    return batch;
  }

  /** Recomputes a checkpoint's root from the stored receipts of its batch, in log order. */
  private batchRootCheck(c: CheckpointEntry, s: Space, note: string | undefined): CheckResult {
    const { cp } = c;
    const where = { checkpoint_seq: cp.checkpointSeq, file: c.file, line: c.line };
    if (cp.merkleRoot === null) return fail('checkpoint_root_unusable', cp.checkpointSeq);
    const size = cp.batchEndSeq - cp.batchStartSeq + 1n;
    if (size > MAX_BATCH_ENUMERATION || size > BigInt(s.receipts.size) + 1000n) {
      this.problems.push(
        makeProblem('missing_receipt', `checkpoint ${cp.checkpointSeq} covers ${size} receipts, but the log holds only ${s.receipts.size}`, where),
      );
      return fail('batch_not_enumerable', cp.checkpointSeq);
    }
    const leaves: Uint8Array[] = [];
    let missing = 0;
    for (let seq = cp.batchStartSeq; seq <= cp.batchEndSeq; seq++) {
      const at = s.receipts.get(seq);
      if (at === undefined || Array.isArray(at)) {
        if (++missing <= 100) {
          const what = at ? `appears ${at.length} times` : 'is not in the log';
          this.problems.push(makeProblem('missing_receipt', `checkpoint ${cp.checkpointSeq} covers seq ${seq}, which ${what}`, where));
        }
        continue;
      }
      leaves.push(kernelLeaf(at));
    }
    if (missing > 0) return fail('batch_receipts_missing', missing, cp.checkpointSeq);
    const root = rootFromLeafHashes(leaves);
    if (root && bytesEqual(root, cp.merkleRoot)) return pass('batch_root_recomputed', note);
    return fail('batch_root_mismatch', cp.checkpointSeq);
  }
}

/** Adds `r` under `k`: alone, or into a list once the key repeats. */
function addOne<K>(m: Map<K, AtSeq>, k: K, r: ReceiptEntry): void {
  const seen = m.get(k);
  if (seen === undefined) m.set(k, r);
  else if (Array.isArray(seen)) seen.push(r);
  else m.set(k, [seen, r]);
}

function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/**
 * Which checkpoints' batches contain a seq, in O(log n + k): checkpoints sorted
 * by batch start, with the running maximum of batch ends, so the backward walk
 * from the last start at or below the seq stops as soon as no earlier batch can
 * reach it. Exact even for overlapping (hostile) batches.
 */
class Coverage {
  readonly list: CheckpointEntry[];
  readonly maxEnd: bigint;
  private readonly endSoFar: bigint[] = [];

  constructor(checkpoints: CheckpointEntry[]) {
    this.list = checkpoints.sort((a, b) => (a.cp.batchStartSeq < b.cp.batchStartSeq ? -1 : a.cp.batchStartSeq > b.cp.batchStartSeq ? 1 : a.order - b.order));
    let m = 0n;
    for (const c of this.list) this.endSoFar.push((m = c.cp.batchEndSeq > m ? c.cp.batchEndSeq : m));
    this.maxEnd = m;
  }

  /** The checkpoints covering `seq`, in batch-start order. */
  covering(seq: bigint): CheckpointEntry[] {
    let lo = 0;
    let hi = this.list.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid]!.cp.batchStartSeq <= seq) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const out: CheckpointEntry[] = [];
    for (let i = last; i >= 0 && this.endSoFar[i]! >= seq; i--) if (this.list[i]!.cp.batchEndSeq >= seq) out.push(this.list[i]!);
    return out.reverse();
  }
}

/**
 * The positional profile (contract part 2 §5.2, a warning): the proof's tree_size is the
 * checkpoint's and its leaf_index is the receipt's offset in the batch. Null when both hold.
 */
function positionMismatch(pe: ProofEntry, r: ReceiptEntry, checkpoint: CheckpointEntry): string | null {
  const { proof } = pe;
  const cp = checkpoint.cp;
  const seq = r.logSeq ?? proof.receiptSeq;
  const parts: string[] = [];
  if (proof.treeSize !== cp.treeSize) parts.push(`tree_size ${proof.treeSize}, checkpoint ${cp.checkpointSeq} has ${cp.treeSize}`);
  if (proof.leafIndex !== seq - cp.batchStartSeq)
    parts.push(`leaf_index ${proof.leafIndex}, but seq ${seq} is leaf ${seq - cp.batchStartSeq} of batch ${cp.batchStartSeq}–${cp.batchEndSeq}`);
  return parts.length ? `the proof at ${pe.file}:${pe.line} has ${parts.join(', and ')}` : null;
}

/** One proof against one receipt and one checkpoint with the proof's checkpoint_seq. */
export function checkProof(pe: ProofEntry, r: ReceiptEntry, checkpoint: CheckpointEntry): CheckResult {
  const { proof } = pe;
  const cp = checkpoint.cp;
  const at = `${pe.file}:${pe.line}`;
  if (cp.merkleRoot === null) return fail('checkpoint_root_unusable', cp.checkpointSeq);
  if (proof.merkleRoot === null || !bytesEqual(proof.merkleRoot, cp.merkleRoot)) return fail('proof_root_other', at, cp.checkpointSeq);
  // The checkpoint's kernel vouches only for receipts its own key signed (§16.7).
  const cpKey = cp.kernelKeyNormalized ?? cp.kernelKey;
  if (r.kernelKey !== cpKey) return fail('signer_differs', r.kernelKey, cp.checkpointSeq, cpKey);
  if (proof.leafIndex !== proof.proofLeafIndex) return fail('proof_leaf_indexes_differ', at);
  if (proof.leafIndex >= proof.treeSize) return fail('proof_leaf_outside_tree', at, proof.leafIndex, proof.treeSize);
  if (r.logSeq !== undefined && (r.logSeq < cp.batchStartSeq || r.logSeq > cp.batchEndSeq)) {
    return fail('seq_outside_batch', r.logSeq, cp.checkpointSeq, cp.batchStartSeq, cp.batchEndSeq);
  }
  if (proof.auditPath.some((h) => h === null)) return fail('proof_path_malformed', at);
  if (proof.treeSize > BigInt(Number.MAX_SAFE_INTEGER)) return fail('proof_tree_impossible', at);
  const path = proof.auditPath as Uint8Array[];
  const index = Number(proof.leafIndex);
  const size = Number(proof.treeSize);
  if (verifyInclusion(index, size, kernelLeaf(r), path, cp.merkleRoot).ok) return PASS_KERNEL;
  if (verifyInclusion(index, size, anchorLeaf(r), path, cp.merkleRoot).ok) return PASS_ANCHOR;
  return fail('proof_leaf_unreached', cp.checkpointSeq, at);
}
