// Checkpoint checks (contract §5): `structure`, `continuity` and equivocation
// (chio-format.md §9.1, §9.5), evaluated per seq space once every checkpoint
// signature has settled. `signature` and `signer_trusted` are set at intake.
import { checkpointStructureError, continuityError } from '../chio/checkpoint';
import { fail, pass, skipped } from './check';
import type { CheckpointEntry } from './entries';
import { type Problem, makeProblem } from './problems';

export function evaluateCheckpoints(all: CheckpointEntry[]): Problem[] {
  const problems: Problem[] = [];
  for (const c of all) {
    const err = checkpointStructureError(c.cp);
    c.checks.structure = err ? fail(err) : pass();
    if (err) problems.push(makeProblem('checkpoint_structure_invalid', `checkpoint ${c.cp.checkpointSeq}: ${err}`, at(c)));
  }
  const bySpace = new Map<string, CheckpointEntry[]>();
  for (const c of all) {
    const list = bySpace.get(c.space) ?? [];
    list.push(c);
    bySpace.set(c.space, list);
  }
  for (const list of bySpace.values()) evaluateSpace(list, problems);
  return problems;
}

function at(c: CheckpointEntry) {
  return { checkpoint_seq: c.cp.checkpointSeq, file: c.file, line: c.line };
}

function evaluateSpace(list: CheckpointEntry[], problems: Problem[]): void {
  // Exact duplicates (same body) are one statement; distinct signed bodies at one place equivocate.
  const unique = new Map<string, CheckpointEntry>();
  for (const c of list) if (!unique.has(c.sha256)) unique.set(c.sha256, c);
  const statements = [...unique.values()];
  for (const c of list) {
    if (unique.get(c.sha256) !== c) c.checks.continuity = pass(`duplicate of the checkpoint at ${unique.get(c.sha256)!.file}:${unique.get(c.sha256)!.line}`);
  }

  const equivocating = detectEquivocations(statements, problems);
  // The predecessor for a seq is its signed statement when there is one: a forged checkpoint sharing
  // the seq must not stand in for it. (An unsigned one still serves when it is all there is: the
  // successor's previous_checkpoint_sha256 then vouches for its body.)
  const bySeq = new Map<bigint, CheckpointEntry>();
  for (const c of statements) {
    if (equivocating.has(c)) continue;
    const held = bySeq.get(c.cp.checkpointSeq);
    if (!held || (held.checks.signature?.status !== 'pass' && c.checks.signature?.status === 'pass')) bySeq.set(c.cp.checkpointSeq, c);
  }
  const lowest = statements.reduce<bigint | null>((m, c) => (m === null || c.cp.checkpointSeq < m ? c.cp.checkpointSeq : m), null);

  for (const c of statements) {
    if (equivocating.has(c)) {
      c.checks.continuity = fail('another signed checkpoint claims the same place in the log (equivocation)');
      continue;
    }
    const seq = c.cp.checkpointSeq;
    if (seq <= 1n) {
      c.checks.continuity = pass();
      continue;
    }
    const prev = bySeq.get(seq - 1n);
    if (!prev) {
      if (seq === lowest) {
        c.checks.continuity = skipped(`its predecessor, checkpoint ${seq - 1n}, is not in the log`);
      } else {
        const msg = `checkpoint ${seq}: its predecessor, checkpoint ${seq - 1n}, is missing from the log`;
        c.checks.continuity = fail(msg);
        problems.push(makeProblem('checkpoint_continuity_broken', msg, at(c)));
      }
      continue;
    }
    const err = continuityError(prev.cp, prev.sha256, c.cp);
    c.checks.continuity = err ? fail(err) : pass();
    if (err) problems.push(makeProblem('checkpoint_continuity_broken', `checkpoint ${seq}: ${err}`, at(c)));
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
