// Checkpoint checks (contract §5, part 2 §5.1): `structure`, `continuity`,
// `chain` and equivocation (chio-format.md §9.1, §9.5, §16.1–§16.4), evaluated
// per seq space once every checkpoint signature has settled. `signature` and
// `signer_trusted` are set at intake.
//
// Continuity finds a checkpoint's predecessor by the body digest it names
// (`previous_checkpoint_sha256`), never by its seq alone: a checkpoint that
// follows one of two equivocating statements is judged against the one it
// names. The chain of a v2 checkpoint is recomputed from the prefix those
// digests lead to, with an append-only frontier (one root per perfect subtree)
// carried from each checkpoint to its successor, so a log of 650,000
// checkpoints costs O(n log n) hashes and keeps only one seq's frontiers.
import { bytesEqual } from '../bytes/hex';
import { CHECKPOINT_SCHEMA_V2, chainLeafHash, checkpointStructureErrors, continuityError } from '../chio/checkpoint';
import { type ConsistencyOutcome, type ConsistencyRecord, decodeConsistencyRecord, verifyConsistencyRecord } from '../chio/consistency-proof';
import { parseJson } from '../json/parse';
import type { JsonObject } from '../json/value';
import { type Frontier, appendToFrontier, frontierRoot } from '../merkle';
import { type CheckResult, fail, pass, skipped } from '../verdict/check';
import type { CheckArgs, CheckCode } from '../verdict/check-text';
import type { CheckpointEntry, TransparencyEntry } from './entries';
import { type Problem, makeProblem } from '../verdict/problems';

/** What became of each supplied consistency record (reported by the transparency check). */
export type ConsistencyResults = Map<TransparencyEntry, ConsistencyOutcome>;

export interface CheckpointEvaluation {
  problems: Problem[];
  consistency: ConsistencyResults;
}

export function evaluateCheckpoints(all: CheckpointEntry[], records: readonly TransparencyEntry[] = []): CheckpointEvaluation {
  const problems: Problem[] = [];
  for (const c of all) {
    const errors = checkpointStructureErrors(c.cp);
    c.checks.structure = errors.length > 0 ? fail('structure_invalid', errors) : pass();
    if (errors.length > 0) problems.push(makeProblem('checkpoint_structure_invalid', `checkpoint ${c.cp.checkpointSeq}: ${errors.join('; ')}`, at(c)));
  }
  const bySpace = new Map<string, CheckpointEntry[]>();
  for (const c of all) pushTo(bySpace, c.space, c);
  const recordsBySpace = new Map<string, TransparencyEntry[]>();
  for (const t of records) if (t.kind === 'consistency') pushTo(recordsBySpace, t.space, t);
  const consistency: ConsistencyResults = new Map();
  for (const [space, list] of bySpace) new SpaceEvaluation(list, recordsBySpace.get(space) ?? [], problems, consistency).run();
  for (const [space, list] of recordsBySpace) {
    if (bySpace.has(space)) continue;
    for (const t of list) consistency.set(t, { status: 'fail', reason: 'it refers to checkpoints, but the log holds none' });
  }
  return { problems, consistency };
}

function at(c: CheckpointEntry) {
  return { checkpoint_seq: c.cp.checkpointSeq, file: c.file, line: c.line };
}

function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const bySeqThenOrder = (a: CheckpointEntry, b: CheckpointEntry): number =>
  a.cp.checkpointSeq < b.cp.checkpointSeq ? -1 : a.cp.checkpointSeq > b.cp.checkpointSeq ? 1 : a.order - b.order;

class SpaceEvaluation {
  private readonly statements: CheckpointEntry[];
  private readonly byDigest = new Map<string, CheckpointEntry>();
  private readonly bySeq = new Map<bigint, CheckpointEntry[]>();
  private readonly prefixWarned = new Set<CheckpointEntry>();
  /** Supplied consistency records by the body digest they end at. */
  private readonly recordsTo = new Map<string, { entry: TransparencyEntry; record: ConsistencyRecord }[]>();

  constructor(
    private readonly list: CheckpointEntry[],
    private readonly records: TransparencyEntry[],
    private readonly problems: Problem[],
    private readonly outcomes: ConsistencyResults,
  ) {
    // Exact duplicates (same body) are one statement; distinct signed bodies at one place equivocate.
    const unique = new Map<string, CheckpointEntry>();
    for (const c of list) if (!unique.has(c.sha256)) unique.set(c.sha256, c);
    this.statements = [...unique.values()].sort(bySeqThenOrder);
    this.byDigest = unique;
    for (const c of this.statements) pushTo(this.bySeq, c.cp.checkpointSeq, c);
  }

  run(): void {
    const equivocating = detectEquivocations(this.statements, this.problems);
    for (const c of this.statements) this.continuity(c, equivocating.has(c));
    this.readRecords();
    this.chains();
    // A copy of a statement shares its results (its body is the same bytes).
    for (const c of this.list) {
      const original = this.byDigest.get(c.sha256)!;
      if (original === c) continue;
      c.checks.continuity = pass('duplicate_checkpoint', `${original.file}:${original.line}`);
      if (original.checks.chain) c.checks.chain = original.checks.chain;
    }
  }

  private warnPrefix(c: CheckpointEntry, message: string): void {
    if (this.prefixWarned.has(c)) return;
    this.prefixWarned.add(c);
    this.problems.push(makeProblem('checkpoint_prefix_incomplete', `checkpoint ${c.cp.checkpointSeq}: ${message}`, at(c)));
  }

  private continuity(c: CheckpointEntry, equivocating: boolean): void {
    const { cp } = c;
    const broken = <C extends CheckCode>(code: C, ...args: CheckArgs<C>) => {
      const result = fail(code, ...args);
      c.checks.continuity = result;
      this.problems.push(makeProblem('checkpoint_continuity_broken', `checkpoint ${cp.checkpointSeq}: ${result.detail}`, at(c)));
    };
    if (equivocating) {
      c.checks.continuity = fail('equivocation');
      return;
    }
    if (cp.checkpointSeq <= 0n) {
      c.checks.continuity = skipped('checkpoint_seq_zero');
      return;
    }
    if (cp.checkpointSeq === 1n) {
      // The genesis rule (store and draft): the log starts at entry 1 and names no predecessor.
      if (cp.previousCheckpointSha256 !== undefined) broken('genesis_names_predecessor');
      else if (cp.batchStartSeq !== 1n) broken('genesis_start', cp.batchStartSeq);
      else c.checks.continuity = pass();
      return;
    }
    const digest = cp.previousCheckpointSha256;
    // Missing on seq > 1 is a failure even when the predecessor is not supplied (§16.2 rule 3).
    if (digest === undefined) {
      broken('predecessor_digest_missing');
      return;
    }
    const prev = this.byDigest.get(digest);
    if (prev) {
      const err = continuityError(prev.cp, prev.sha256, cp);
      if (err) broken('continuity_broken', err);
      else c.checks.continuity = pass();
      return;
    }
    const atPrevSeq = this.bySeq.get(cp.checkpointSeq - 1n) ?? [];
    if (atPrevSeq.length > 0) {
      broken(
        'predecessor_other_body',
        cp.checkpointSeq - 1n,
        atPrevSeq.map((p) => `${p.file}:${p.line}`),
      );
      return;
    }
    c.checks.continuity = skipped('predecessor_not_supplied');
    this.warnPrefix(
      c,
      `the checkpoint its previous_checkpoint_sha256 names (checkpoint ${cp.checkpointSeq - 1n}) is not in the log, so its continuity could not be checked`,
    );
  }

  /** Decodes the supplied consistency records and checks each against the pair it names. */
  private readRecords(): void {
    for (const t of this.records) {
      const o: JsonObject = new Map();
      for (const [k, text] of Object.entries(t.fields)) {
        const v = parseJson(text);
        if (v.ok) o.set(k, v.value);
      }
      const decoded = t.refused !== undefined ? { ok: false as const, error: t.refused } : decodeConsistencyRecord(o);
      if (!decoded.ok) {
        this.outcomes.set(t, { status: 'fail', reason: decoded.error });
        continue;
      }
      const rec = decoded.value;
      const from = this.byDigest.get(rec.fromSha256);
      const to = this.byDigest.get(rec.toSha256);
      if (!from || !to) {
        const which = !from ? `from_checkpoint_sha256 (checkpoint ${rec.fromSeq})` : `to_checkpoint_sha256 (checkpoint ${rec.toSeq})`;
        this.outcomes.set(t, { status: 'fail', reason: `its ${which} names a checkpoint body that is not in the log` });
        continue;
      }
      this.outcomes.set(t, verifyConsistencyRecord(rec, from, to));
      pushTo(this.recordsTo, to.sha256, { entry: t, record: rec });
    }
  }

  /** The `chain` check of every v2 statement, in seq order, carrying frontiers from predecessors. */
  private chains(): void {
    let frontiers = new Map<CheckpointEntry, Frontier>();
    let previousLevel = new Map<CheckpointEntry, Frontier>();
    let level: bigint | null = null;
    for (const c of this.statements) {
      const seq = c.cp.checkpointSeq;
      if (seq !== level) {
        // Only the level just below is ever a predecessor (§16.2 rule 1).
        previousLevel = level !== null && seq === level + 1n ? frontiers : new Map();
        frontiers = new Map();
        level = seq;
      }
      const leaf = chainLeafHash(c.cp);
      let frontier: Frontier | null = null;
      if (leaf && seq === 1n) frontier = appendToFrontier([], leaf);
      else if (leaf && c.cp.previousCheckpointSha256 !== undefined) {
        const prev = this.byDigest.get(c.cp.previousCheckpointSha256);
        const pf = prev ? previousLevel.get(prev) : undefined;
        if (pf) frontier = appendToFrontier(pf, leaf);
      }
      if (frontier) frontiers.set(c, frontier);
      if (c.cp.schema === CHECKPOINT_SCHEMA_V2) c.checks.chain = this.chainOf(c, frontier);
    }
    // The top level's frontiers stay with their checkpoints (what the page remembers).
    for (const [c, f] of frontiers) c.chainFrontier = f.map((x) => ({ size: x.size, hash: x.hash }));
  }

  private chainOf(c: CheckpointEntry, frontier: Frontier | null): CheckResult {
    const { cp } = c;
    const invalid = (result: CheckResult): CheckResult => {
      this.problems.push(makeProblem('checkpoint_chain_invalid', `checkpoint ${cp.checkpointSeq}: ${result.detail}`, at(c)));
      return result;
    };
    // Every supplied v2 record that ends here must verify (§5.1); a v1 record is no proof of a chain.
    const ending = this.recordsTo.get(c.sha256) ?? [];
    for (const { entry, record } of ending) {
      const outcome = this.outcomes.get(entry)!;
      if (record.schema !== 'chio.checkpoint_consistency_proof.v1' && outcome.status === 'fail') {
        return invalid(fail('consistency_record_invalid', `${entry.file}:${entry.line}`, outcome.reason));
      }
    }
    if (!cp.chainRoot) return skipped('no_chain_commitment');
    if (frontier) {
      if (bytesEqual(frontierRoot(frontier)!, cp.chainRoot)) return pass('chain_recomputed', cp.checkpointSeq);
      const mismatch = fail('chain_root_mismatch', cp.checkpointSeq);
      // At seq 1 the chain root is the checkpoint's own leaf: a structure rule, reported there.
      return cp.checkpointSeq === 1n ? mismatch : invalid(mismatch);
    }
    // Without the whole prefix there is nothing to recompute from. (A consistency record joins only
    // adjacent checkpoints, so with its predecessor here the prefix walk above already reached it; a
    // root remembered from an earlier visit is the page's anchor, lib/trust/checkpoint-memory.ts.)
    this.warnPrefix(c, `checkpoints before it are not all in the log, so its chain_root could not be recomputed`);
    return skipped('chain_prefix_incomplete');
  }
}

/**
 * Two distinct validly signed bodies with the same checkpoint_seq, the same
 * (log key, tree size), or the same non-null predecessor digest (§9.5).
 */
function detectEquivocations(statements: CheckpointEntry[], problems: Problem[]): Set<CheckpointEntry> {
  const signed = statements.filter((c) => c.checks.signature?.status === 'pass');
  const out = new Set<CheckpointEntry>();
  const groups: [string, (c: CheckpointEntry) => string | null][] = [
    ['checkpoint_seq', (c) => `${c.cp.checkpointSeq}`],
    ['tree position', (c) => `${c.cp.kernelKeyNormalized ?? c.cp.kernelKey}/${c.cp.batchEndSeq}`],
    ['predecessor', (c) => c.cp.previousCheckpointSha256 ?? null],
  ];
  for (const [what, keyOf] of groups) {
    const seen = new Map<string, CheckpointEntry>();
    for (const c of signed) {
      const key = keyOf(c);
      if (key === null) continue;
      const first = seen.get(key);
      if (!first) {
        seen.set(key, c);
        continue;
      }
      out.add(first);
      out.add(c);
      problems.push(
        makeProblem(
          'checkpoint_equivocation',
          `checkpoints at ${first.file}:${first.line} (seq ${first.cp.checkpointSeq}) and ${c.file}:${c.line} (seq ${c.cp.checkpointSeq}) are different signed statements with the same ${what}`,
          at(c),
        ),
      );
    }
  }
  return out;
}
