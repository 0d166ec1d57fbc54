// Derived transparency records (chio-format.md §9.5, §16.4, §16.5) and the
// package `transparency` check (contract part 2 §5.3): publications and
// witnesses are deterministic, so each supplied one is rebuilt from the signed
// checkpoints and compared field by field; consistency records were already
// decoded and verified with the checkpoints (lib/verify/checkpoints.ts), whose
// outcome is reported here. A supplied equivocation record is the exporter's
// own admission and is reported as an equivocation.
import { typedMerkleRoot } from '../chio/checkpoint';
import { logIdFor } from '../chio/consistency-proof';
import { canonicalize } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { JsonNumber, type JsonObject, type JsonValue, isJsonObject } from '../json/value';
import type { ConsistencyResults } from './checkpoints';
import type { CheckpointEntry, TransparencyEntry } from './entries';
import { type Problem, makeProblem } from '../verdict/problems';

export { logIdFor };

const int = (v: bigint): JsonNumber => new JsonNumber(v.toString());

export function expectedPublication(c: CheckpointEntry): JsonObject {
  const { cp } = c;
  const m: JsonObject = new Map<string, JsonValue>([
    ['log_id', logIdFor(cp.kernelKeyNormalized ?? cp.kernelKey)],
    ['schema', 'chio.checkpoint_publication.v1'],
    ['checkpoint_seq', int(cp.checkpointSeq)],
    ['checkpoint_sha256', c.sha256],
    ['merkle_root', cp.merkleRoot ? typedMerkleRoot(cp.merkleRoot) : ''],
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

/** The v1 (metadata-only) consistency record of an adjacent v1 pair (§9.5; v2 pairs: buildConsistencyRecordV2). */
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
    const a = Object.hasOwn(supplied, k) ? supplied[k] : undefined;
    const b = expected.get(k);
    if (a === undefined || b === undefined || a !== canonicalize(b)) return k;
  }
  return null;
}

const PUBLICATION_IDENTITY_KINDS = ['local_log', 'transparency_service', 'immutable_record', 'chain_anchor'];
const TRUST_ANCHOR_KINDS = ['operator_root', 'did', 'x509_root', 'transparency_root', 'chain_root'];

/**
 * A publication's `trust_anchor_binding` (§16.5; upstream `CheckpointPublicationTrustAnchorBinding`),
 * when present: `publication_identity` and `trust_anchor_identity` as `{kind, identity}` with known
 * kinds and non-empty identities, non-empty `trust_anchor_ref` and `signer_cert_ref`, and a
 * `local_log` identity equal to the checkpoint's `log_id`. Null when fine. UNCONFIRMED on real
 * data: no package seen carries one; the rules are read from upstream code.
 */
function bindingError(text: string | undefined, logId: string): string | null {
  if (text === undefined) return null;
  const parsed = parseJson(text);
  if (!parsed.ok || !isJsonObject(parsed.value)) return 'trust_anchor_binding is not an object';
  const b = parsed.value;
  for (const [field, kinds] of [
    ['publication_identity', PUBLICATION_IDENTITY_KINDS],
    ['trust_anchor_identity', TRUST_ANCHOR_KINDS],
  ] as const) {
    const id = b.get(field);
    const kind = isJsonObject(id) ? id.get('kind') : undefined;
    const identity = isJsonObject(id) ? id.get('identity') : undefined;
    if (typeof kind !== 'string' || !kinds.includes(kind)) return `trust_anchor_binding.${field}.kind is not one of ${kinds.join(', ')}`;
    if (typeof identity !== 'string' || identity.length === 0) return `trust_anchor_binding.${field}.identity must be a non-empty string`;
    if (field === 'publication_identity' && kind === 'local_log' && identity !== logId) {
      return `trust_anchor_binding names local_log ${identity}, but the checkpoint's log is ${logId}`;
    }
  }
  for (const ref of ['trust_anchor_ref', 'signer_cert_ref']) {
    const v = b.get(ref);
    if (typeof v !== 'string' || v.length === 0) return `trust_anchor_binding.${ref} must be a non-empty string`;
  }
  return null;
}

export interface TransparencyOutcome {
  problems: Problem[];
  /** Per seq space: the first mismatch of its records, or null when every supplied record matched. */
  bySpace: Map<string, string | null>;
}

/** `take`: a cap that may take a problem instead of the list (a hostile log can hold millions of records that match nothing). */
export function evaluateTransparency(
  records: TransparencyEntry[],
  checkpoints: CheckpointEntry[],
  consistency: ConsistencyResults = new Map(),
  take: (p: Problem) => boolean = () => false,
): TransparencyOutcome {
  const problems: Problem[] = [];
  const keep = (p: Problem) => {
    if (!take(p)) problems.push(p);
  };
  const bySpace = new Map<string, string | null>();
  const byDigest = new Map<string, CheckpointEntry>();
  const bySeq = new Map<string, CheckpointEntry>();
  for (const c of checkpoints) {
    byDigest.set(`${c.space}#${c.sha256}`, c);
    if (!bySeq.has(`${c.space}#${c.cp.checkpointSeq}`)) bySeq.set(`${c.space}#${c.cp.checkpointSeq}`, c);
  }
  // A record names its checkpoints by body digest where it has one, else by seq.
  const find = (space: string, digest: string | undefined, seq: bigint | null): CheckpointEntry | undefined => {
    const d = digest !== undefined ? unquote(digest) : null;
    if (d !== null) return byDigest.get(`${space}#${d}`);
    return seq === null ? undefined : bySeq.get(`${space}#${seq}`);
  };

  for (const t of records) {
    if (!bySpace.has(t.space)) bySpace.set(t.space, null);
    const where = { file: t.file, line: t.line };
    const mismatch = (msg: string, seq?: bigint | null) => {
      keep(makeProblem('transparency_record_mismatch', msg, seq != null ? { ...where, checkpoint_seq: seq } : where));
      if (bySpace.get(t.space) === null) bySpace.set(t.space, msg);
    };
    // A consistency record's refusal is its outcome (checkpoints.ts); any other fails here.
    if (t.refused !== undefined && t.kind !== 'consistency') {
      mismatch(`${t.file}:${t.line}: the ${t.kind} record cannot be honest: ${t.refused}`);
      continue;
    }
    if (t.kind === 'equivocation') {
      // Re-derived from the checkpoints it names: a true record is the exporter's own admission of a
      // fork; one that does not describe two conflicting checkpoints of this log is a false record.
      const wrong = equivocationError(t.fields, (d) => byDigest.get(`${t.space}#${d}`));
      if (wrong !== null)
        mismatch(
          `${t.file}:${t.line}: the equivocation record does not describe two conflicting checkpoints of this log: ${wrong}`,
          seqOf(t.fields.second_checkpoint_seq),
        );
      else
        keep(
          makeProblem(
            'checkpoint_equivocation',
            `the package records a checkpoint equivocation (${unquote(t.fields.kind!)}) between checkpoints ${t.fields.first_checkpoint_seq} and ${t.fields.second_checkpoint_seq}`,
            where,
          ),
        );
      continue;
    }
    if (t.kind === 'consistency') {
      const outcome = consistency.get(t);
      const seq = seqOf(t.fields.to_checkpoint_seq);
      if (!outcome) mismatch(`${t.file}:${t.line}: this consistency record refers to checkpoints that are not in the log`, seq);
      else if (outcome.status === 'fail') mismatch(`${t.file}:${t.line}: the consistency record does not match the signed checkpoints: ${outcome.reason}`, seq);
      continue;
    }
    let expected: JsonObject | null = null;
    let seq: bigint | null = null;
    let logId = '';
    if (t.kind === 'publication') {
      seq = seqOf(t.fields.checkpoint_seq);
      const c = find(t.space, t.fields.checkpoint_sha256, seq);
      if (c) {
        expected = expectedPublication(c);
        logId = expected.get('log_id') as string;
      }
    } else {
      seq = seqOf(t.fields.witness_checkpoint_seq);
      const next = find(t.space, t.fields.witness_checkpoint_sha256, seq);
      const prev = find(t.space, t.fields.checkpoint_sha256, seqOf(t.fields.checkpoint_seq));
      if (next && prev) expected = expectedWitness(prev, next);
    }
    if (!expected) {
      mismatch(`${t.file}:${t.line}: this ${t.kind} record refers to a checkpoint that is not in the log`, seq);
      continue;
    }
    const diff = firstDifference(t.fields, expected, t.kind === 'publication' ? ['trust_anchor_binding'] : []);
    if (diff !== null) {
      mismatch(`${t.file}:${t.line}: the ${t.kind} record does not match the checkpoints as recomputed (field ${diff})`, seq);
      continue;
    }
    const binding = t.kind === 'publication' ? bindingError(t.fields.trust_anchor_binding, logId) : null;
    if (binding !== null) mismatch(`${t.file}:${t.line}: ${binding}`, seq);
  }
  return { problems, bySpace };
}

const EQUIVOCATION_KINDS = ['conflicting_checkpoint_seq', 'conflicting_log_tree_size', 'conflicting_predecessor_witness'];
const EQUIVOCATION_FIELDS = new Set([
  'schema',
  'kind',
  'log_id',
  'log_tree_size',
  'first_checkpoint_seq',
  'second_checkpoint_seq',
  'first_checkpoint_sha256',
  'second_checkpoint_sha256',
  'previous_checkpoint_sha256',
]);

/**
 * Why a supplied `chio.checkpoint_equivocation.v1` record (§9.5, upstream `CheckpointEquivocation`)
 * is not the one the two checkpoints it names would derive, or null when it is.
 */
function equivocationError(f: Record<string, string>, find: (digest: string) => CheckpointEntry | undefined): string | null {
  for (const k of Object.keys(f)) if (!EQUIVOCATION_FIELDS.has(k)) return `unknown field ${k}`;
  if (unquote(f.schema ?? '') !== 'chio.checkpoint_equivocation.v1') return 'schema is not chio.checkpoint_equivocation.v1';
  const kind = unquote(f.kind ?? '');
  if (kind === null || !EQUIVOCATION_KINDS.includes(kind)) return 'kind is not one of the three equivocation kinds';
  const a = find(unquote(f.first_checkpoint_sha256 ?? '') ?? '');
  const b = find(unquote(f.second_checkpoint_sha256 ?? '') ?? '');
  if (!a || !b) return 'it names a checkpoint body that is not in the log';
  if (a === b || a.sha256 === b.sha256) return 'it names the same checkpoint twice';
  if (seqOf(f.first_checkpoint_seq) !== a.cp.checkpointSeq || seqOf(f.second_checkpoint_seq) !== b.cp.checkpointSeq)
    return 'its checkpoint seqs are not those of the bodies it names';
  const keyA = a.cp.kernelKeyNormalized ?? a.cp.kernelKey;
  const keyB = b.cp.kernelKeyNormalized ?? b.cp.kernelKey;
  if (f.log_id !== undefined && (unquote(f.log_id) !== logIdFor(keyA) || keyA !== keyB)) return 'log_id is not the log of both checkpoints';
  if (kind === 'conflicting_checkpoint_seq' && a.cp.checkpointSeq !== b.cp.checkpointSeq) return 'the two checkpoints do not share a seq';
  if (kind === 'conflicting_log_tree_size' && (keyA !== keyB || a.cp.batchEndSeq !== b.cp.batchEndSeq || seqOf(f.log_tree_size) !== a.cp.batchEndSeq))
    return 'the two checkpoints do not share a log tree size';
  if (kind === 'conflicting_predecessor_witness') {
    const prev = f.previous_checkpoint_sha256 !== undefined ? unquote(f.previous_checkpoint_sha256) : null;
    if (prev === null || a.cp.previousCheckpointSha256 !== prev || b.cp.previousCheckpointSha256 !== prev)
      return 'the two checkpoints do not name the same predecessor';
  }
  return null;
}

/** A field's canonical JSON text as a string value, else null. */
function unquote(text: string): string | null {
  const v = parseJson(text);
  return v.ok && typeof v.value === 'string' ? v.value : null;
}
