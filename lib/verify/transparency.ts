// Derived transparency records (chio-format.md §9.5): publications, witnesses
// and consistency records are deterministic, so each supplied record is checked
// by rebuilding it from the checkpoints and comparing canonical bytes. A
// supplied equivocation record is the exporter's own admission and is reported.
import { fromHex } from '../bytes/hex';
import { sha256Hex } from '../crypto/sha256';
import { canonicalize } from '../json/canonicalize';
import { JsonNumber, type JsonObject, type JsonValue } from '../json/value';
import type { CheckpointEntry, TransparencyEntry } from './entries';
import { type Problem, makeProblem } from './problems';

/** `log_id` of a kernel key: `local-log-` + sha256 of the raw Ed25519 key, or of the UTF-8 key text otherwise. */
export function logIdFor(normalizedKey: string): string {
  const raw = /^[0-9a-f]{64}$/.test(normalizedKey) ? fromHex(normalizedKey, 32) : null;
  return 'local-log-' + sha256Hex(raw ?? new TextEncoder().encode(normalizedKey));
}

const int = (v: bigint): JsonNumber => new JsonNumber(v.toString());

export function expectedPublication(c: CheckpointEntry): JsonObject {
  const { cp } = c;
  const m: JsonObject = new Map<string, JsonValue>([
    ['log_id', logIdFor(cp.kernelKeyNormalized ?? cp.kernelKey)],
    ['schema', 'chio.checkpoint_publication.v1'],
    ['checkpoint_seq', int(cp.checkpointSeq)],
    ['checkpoint_sha256', c.sha256],
    ['merkle_root', cp.body.get('merkle_root')!],
    ['published_at', int(cp.issuedAt)],
    ['kernel_key', cp.kernelKeyNormalized ?? cp.kernelKey],
    ['log_tree_size', int(cp.batchEndSeq)],
    ['entry_start_seq', int(cp.batchStartSeq)],
    ['entry_end_seq', int(cp.batchEndSeq)],
  ]);
  if (cp.previousCheckpointSha256 !== undefined) m.set('previous_checkpoint_sha256', cp.previousCheckpointSha256);
  return m;
}

export function expectedWitness(prev: CheckpointEntry, next: CheckpointEntry): JsonObject {
  return new Map<string, JsonValue>([
    ['log_id', logIdFor(prev.cp.kernelKeyNormalized ?? prev.cp.kernelKey)],
    ['schema', 'chio.checkpoint_witness.v1'],
    ['checkpoint_seq', int(prev.cp.checkpointSeq)],
    ['checkpoint_sha256', prev.sha256],
    ['witness_checkpoint_seq', int(next.cp.checkpointSeq)],
    ['witness_checkpoint_sha256', next.sha256],
    ['witnessed_at', int(next.cp.issuedAt)],
  ]);
}

export function expectedConsistency(prev: CheckpointEntry, next: CheckpointEntry): JsonObject {
  return new Map<string, JsonValue>([
    ['schema', 'chio.checkpoint_consistency_proof.v1'],
    ['log_id', logIdFor(prev.cp.kernelKeyNormalized ?? prev.cp.kernelKey)],
    ['from_checkpoint_seq', int(prev.cp.checkpointSeq)],
    ['to_checkpoint_seq', int(next.cp.checkpointSeq)],
    ['from_checkpoint_sha256', prev.sha256],
    ['to_checkpoint_sha256', next.sha256],
    ['from_log_tree_size', int(prev.cp.batchEndSeq)],
    ['to_log_tree_size', int(next.cp.batchEndSeq)],
    ['appended_entry_start_seq', int(next.cp.batchStartSeq)],
    ['appended_entry_end_seq', int(next.cp.batchEndSeq)],
  ]);
}

/** A field's canonical text as a non-negative integer, else null. */
function seqOf(text: string | undefined): bigint | null {
  return text !== undefined && /^\d+$/.test(text) ? BigInt(text) : null;
}

/** The first field whose canonical value differs, or null when equal (ignoring `ignore` keys). */
function firstDifference(supplied: Record<string, string>, expected: JsonObject, ignore: string[] = []): string | null {
  const keys = new Set([...Object.keys(supplied), ...expected.keys()]);
  for (const k of [...keys].sort()) {
    if (ignore.includes(k)) continue;
    const a = Object.prototype.hasOwnProperty.call(supplied, k) ? supplied[k] : undefined;
    const b = expected.get(k);
    if (a === undefined || b === undefined || a !== canonicalize(b)) return k;
  }
  return null;
}

export function evaluateTransparency(records: TransparencyEntry[], checkpoints: CheckpointEntry[]): Problem[] {
  const problems: Problem[] = [];
  const bySeq = new Map<string, CheckpointEntry>();
  for (const c of checkpoints) bySeq.set(`${c.space}#${c.cp.checkpointSeq}`, c);
  const find = (space: string, seq: bigint | null) => (seq === null ? undefined : bySeq.get(`${space}#${seq}`));

  for (const t of records) {
    const where = { file: t.file, line: t.line };
    const report = (msg: string, seq?: bigint | null) =>
      problems.push(makeProblem(t.kind === 'equivocation' ? 'checkpoint_equivocation' : 'checkpoint_continuity_broken', msg, seq != null ? { ...where, checkpoint_seq: seq } : where));
    if (t.kind === 'equivocation') {
      report(`the package records a checkpoint equivocation (${t.fields.kind ?? 'unknown kind'}) between checkpoints ${t.fields.first_checkpoint_seq ?? '?'} and ${t.fields.second_checkpoint_seq ?? '?'}`);
      continue;
    }
    let expected: JsonObject | null = null;
    let seq: bigint | null = null;
    if (t.kind === 'publication') {
      seq = seqOf(t.fields.checkpoint_seq);
      const c = find(t.space, seq);
      if (c) expected = expectedPublication(c);
    } else {
      seq = seqOf(t.fields[t.kind === 'witness' ? 'witness_checkpoint_seq' : 'to_checkpoint_seq']);
      const prevSeq = seqOf(t.fields[t.kind === 'witness' ? 'checkpoint_seq' : 'from_checkpoint_seq']);
      const next = find(t.space, seq);
      const prev = find(t.space, prevSeq);
      if (next && prev) expected = t.kind === 'witness' ? expectedWitness(prev, next) : expectedConsistency(prev, next);
    }
    if (!expected) {
      report(`${t.file}:${t.line}: this ${t.kind} record refers to a checkpoint that is not in the log`, seq);
      continue;
    }
    const diff = firstDifference(t.fields, expected, t.kind === 'publication' ? ['trust_anchor_binding'] : []);
    if (diff !== null) report(`${t.file}:${t.line}: the ${t.kind} record does not match the checkpoints as recomputed (field ${diff})`, seq);
  }
  return problems;
}
