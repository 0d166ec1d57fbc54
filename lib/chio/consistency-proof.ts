// Checkpoint consistency records (chio-format.md §9.5, §16.4):
// `chio.checkpoint_consistency_proof.v1` (metadata only, never a proof) and
// `…v2`, which proves with RFC 9162 consistency and inclusion paths over the
// checkpoint chain (§16.3) that the later checkpoint's `chain_root` extends the
// earlier one's. Decoding is strict (the record rejects unknown keys upstream);
// verification follows `verify_checkpoint_consistency_proof` step by step.
// Every record is attacker-controlled; nothing here throws on input.
import { bytesEqual, fromHex, toHex } from '../bytes/hex';
import { sha256Hex } from '../crypto/sha256';
import { JsonNumber, type JsonObject, type JsonValue, isJsonArray, isJsonNumber, isJsonObject } from '../json/value';
import { MAX_PROOF_LEVELS, consistencyProofFor, inclusionProofFor, rootFromLeafHashes, verifyConsistency, verifyInclusion } from '../merkle';
import { CHECKPOINT_SCHEMA_V1, chainLeafHash, continuityError, parseHash } from './checkpoint';
import type { CheckpointFacts } from './types';

export const CONSISTENCY_SCHEMA_V1 = 'chio.checkpoint_consistency_proof.v1';
export const CONSISTENCY_SCHEMA_V2 = 'chio.checkpoint_consistency_proof.v2';

/** A MerkleProof `{tree_size, leaf_index, audit_path}` over chain leaves. */
export interface ChainInclusion {
  treeSize: bigint;
  leafIndex: bigint;
  auditPath: Uint8Array[];
}

export interface ConsistencyRecord {
  schema: string;
  logId: string;
  fromSeq: bigint;
  toSeq: bigint;
  fromSha256: string;
  toSha256: string;
  fromLogTreeSize: bigint;
  toLogTreeSize: bigint;
  appendedStart: bigint;
  appendedEnd: bigint;
  fromChainRoot?: Uint8Array;
  toChainRoot?: Uint8Array;
  chainProofHashes: Uint8Array[];
  fromLeafInclusion?: ChainInclusion;
  toLeafInclusion?: ChainInclusion;
}

/** A checkpoint with its body digest (§16.2), as the verifier holds it. */
export interface CheckpointWithDigest {
  cp: CheckpointFacts;
  sha256: string;
}

const U64 = (v: JsonValue | undefined): bigint | null =>
  isJsonNumber(v) && v.isIntegerLiteral && !v.raw.startsWith('-') && BigInt(v.raw) <= 18446744073709551615n ? BigInt(v.raw) : null;
const HASH = (v: JsonValue | undefined): Uint8Array | null => (typeof v === 'string' ? parseHash(v) : null);
const KNOWN = new Set([
  'schema',
  'log_id',
  'from_checkpoint_seq',
  'to_checkpoint_seq',
  'from_checkpoint_sha256',
  'to_checkpoint_sha256',
  'from_log_tree_size',
  'to_log_tree_size',
  'appended_entry_start_seq',
  'appended_entry_end_seq',
  'from_chain_root',
  'to_chain_root',
  'chain_proof_hashes',
  'from_leaf_inclusion',
  'to_leaf_inclusion',
]);

const tooLong = (key: string, n: number) => `${key} has ${n} entries; a chain of 2^64 checkpoints needs at most ${MAX_PROOF_LEVELS}`;

/**
 * Why the record's paths (`chain_proof_hashes`, each leaf inclusion's `audit_path`) are too long
 * for any honest record, or null: read before the record is kept, so its hashes never are. The
 * same message decodeConsistencyRecord gives.
 */
export function oversizedPath(o: JsonObject): string | null {
  const path = o.get('chain_proof_hashes');
  if (isJsonArray(path) && path.length > MAX_PROOF_LEVELS) return tooLong('chain_proof_hashes', path.length);
  for (const key of ['from_leaf_inclusion', 'to_leaf_inclusion']) {
    const inc = o.get(key);
    const p = isJsonObject(inc) ? inc.get('audit_path') : undefined;
    if (isJsonArray(p) && p.length > MAX_PROOF_LEVELS) return `${key}: ${tooLong('audit_path', p.length)}`;
  }
  return null;
}

/** Decodes a record strictly: an unknown key, a wrong type or a malformed hash is an error naming it. */
export function decodeConsistencyRecord(o: JsonObject): { ok: true; value: ConsistencyRecord } | { ok: false; error: string } {
  for (const k of o.keys()) if (!KNOWN.has(k)) return { ok: false, error: `unknown key ${JSON.stringify(k)}` };
  const str = (k: string): string | null => {
    const v = o.get(k);
    return typeof v === 'string' ? v : null;
  };
  const schema = str('schema');
  const logId = str('log_id');
  const fromSha256 = str('from_checkpoint_sha256');
  const toSha256 = str('to_checkpoint_sha256');
  if (schema === null || logId === null || fromSha256 === null || toSha256 === null) {
    return { ok: false, error: 'schema, log_id, from_checkpoint_sha256 and to_checkpoint_sha256 must be strings' };
  }
  const ints = ['from_checkpoint_seq', 'to_checkpoint_seq', 'from_log_tree_size', 'to_log_tree_size', 'appended_entry_start_seq', 'appended_entry_end_seq'].map(
    (k) => U64(o.get(k)),
  );
  if (ints.some((n) => n === null)) return { ok: false, error: 'the seq and tree-size fields must be unsigned 64-bit integers' };
  const [fromSeq, toSeq, fromLogTreeSize, toLogTreeSize, appendedStart, appendedEnd] = ints as bigint[];
  const rec: ConsistencyRecord = {
    schema,
    logId,
    fromSeq: fromSeq!,
    toSeq: toSeq!,
    fromSha256,
    toSha256,
    fromLogTreeSize: fromLogTreeSize!,
    toLogTreeSize: toLogTreeSize!,
    appendedStart: appendedStart!,
    appendedEnd: appendedEnd!,
    chainProofHashes: [],
  };
  for (const [key, field] of [
    ['from_chain_root', 'fromChainRoot'],
    ['to_chain_root', 'toChainRoot'],
  ] as const) {
    const v = o.get(key);
    if (v === undefined) continue;
    const h = HASH(v);
    if (h === null) return { ok: false, error: `${key} is not "0x" and 64 hex digits` };
    rec[field] = h;
  }
  const path = o.get('chain_proof_hashes');
  if (path !== undefined) {
    if (!isJsonArray(path)) return { ok: false, error: 'chain_proof_hashes is not an array' };
    if (path.length > MAX_PROOF_LEVELS) return { ok: false, error: tooLong('chain_proof_hashes', path.length) };
    for (const h of path) {
      const b = HASH(h);
      if (b === null) return { ok: false, error: 'chain_proof_hashes holds an entry that is not "0x" and 64 hex digits' };
      rec.chainProofHashes.push(b);
    }
  }
  for (const [key, field] of [
    ['from_leaf_inclusion', 'fromLeafInclusion'],
    ['to_leaf_inclusion', 'toLeafInclusion'],
  ] as const) {
    const v = o.get(key);
    if (v === undefined) continue;
    const inc = decodeInclusion(v);
    if (typeof inc === 'string') return { ok: false, error: `${key}: ${inc}` };
    rec[field] = inc;
  }
  return { ok: true, value: rec };
}

function decodeInclusion(v: JsonValue): ChainInclusion | string {
  if (!isJsonObject(v)) return 'not an object';
  for (const k of v.keys()) if (k !== 'tree_size' && k !== 'leaf_index' && k !== 'audit_path') return `unknown key ${JSON.stringify(k)}`;
  const treeSize = U64(v.get('tree_size'));
  const leafIndex = U64(v.get('leaf_index'));
  const path = v.get('audit_path');
  if (treeSize === null || leafIndex === null || !isJsonArray(path)) return 'needs tree_size, leaf_index and an audit_path array';
  if (path.length > MAX_PROOF_LEVELS) return tooLong('audit_path', path.length);
  const auditPath: Uint8Array[] = [];
  for (const h of path) {
    const b = HASH(h);
    if (b === null) return 'audit_path holds an entry that is not "0x" and 64 hex digits';
    auditPath.push(b);
  }
  return { treeSize, leafIndex, auditPath };
}

/** `log_id` of a kernel key (§16.4): `local-log-` + sha256 of the raw Ed25519 key, or of the UTF-8 key text for other suites. */
export function logIdFor(normalizedKey: string): string {
  const raw = /^[0-9a-f]{64}$/.test(normalizedKey) ? fromHex(normalizedKey, 32) : null;
  return 'local-log-' + sha256Hex(raw ?? new TextEncoder().encode(normalizedKey));
}

const keyOf = (cp: CheckpointFacts): string => cp.kernelKeyNormalized ?? cp.kernelKey;

export type ConsistencyOutcome =
  /** v2: a cryptographic proof that `to`'s chain extends `from`'s. */
  | { status: 'proof' }
  /** v1: the metadata matches; it proves nothing about the chain (§16.4 step 3). */
  | { status: 'metadata' }
  | { status: 'fail'; reason: string };

/**
 * `verify_checkpoint_consistency_proof` (§16.4 steps 1–7) for a record between `from` and `to`.
 * A pair that does not follow (step 1) and a record whose fields differ from the recomputed ones
 * (step 2) fail here as well: the contract reports both as a failed record.
 */
export function verifyConsistencyRecord(rec: ConsistencyRecord, from: CheckpointWithDigest, to: CheckpointWithDigest): ConsistencyOutcome {
  const f = from.cp;
  const t = to.cp;
  const failed = (reason: string): ConsistencyOutcome => ({ status: 'fail', reason });
  // Step 1: the pair rules and one log.
  const pair = continuityError(f, from.sha256, t);
  if (pair !== null) return failed(`checkpoint ${t.checkpointSeq} does not follow checkpoint ${f.checkpointSeq}: ${pair}`);
  const logId = logIdFor(keyOf(f));
  if (logIdFor(keyOf(t)) !== logId) return failed('the two checkpoints are signed by different kernel keys (different log_id)');
  // Step 2: every metadata field equals the value recomputed from the signed bodies.
  const expected: [string, string | bigint, string | bigint][] = [
    ['log_id', rec.logId, logId],
    ['from_checkpoint_seq', rec.fromSeq, f.checkpointSeq],
    ['to_checkpoint_seq', rec.toSeq, t.checkpointSeq],
    ['from_checkpoint_sha256', rec.fromSha256, from.sha256],
    ['to_checkpoint_sha256', rec.toSha256, to.sha256],
    ['from_log_tree_size', rec.fromLogTreeSize, f.batchEndSeq],
    ['to_log_tree_size', rec.toLogTreeSize, t.batchEndSeq],
    ['appended_entry_start_seq', rec.appendedStart, t.batchStartSeq],
    ['appended_entry_end_seq', rec.appendedEnd, t.batchEndSeq],
  ];
  for (const [name, got, want] of expected) if (got !== want) return failed(`${name} is ${got}, the signed checkpoints give ${want}`);
  // Steps 3–4.
  if (rec.schema === CONSISTENCY_SCHEMA_V1) {
    if (f.schema !== CHECKPOINT_SCHEMA_V1 || t.schema !== CHECKPOINT_SCHEMA_V1)
      return failed('a v1 consistency record between checkpoints that are not both v1');
    if (rec.fromChainRoot || rec.toChainRoot || rec.fromLeafInclusion || rec.toLeafInclusion || rec.chainProofHashes.length > 0) {
      return failed('a v1 consistency record must carry no chain roots, inclusions or path');
    }
    return { status: 'metadata' };
  }
  if (rec.schema !== CONSISTENCY_SCHEMA_V2) return failed(`unknown schema ${JSON.stringify(rec.schema)}`);
  // Step 5.
  if (!f.chainRoot || !t.chainRoot) return failed('both checkpoints must carry chain_root for a v2 consistency record');
  if (!rec.fromChainRoot || !bytesEqual(rec.fromChainRoot, f.chainRoot))
    return failed(`from_chain_root is not checkpoint ${f.checkpointSeq}'s signed chain_root`);
  if (!rec.toChainRoot || !bytesEqual(rec.toChainRoot, t.chainRoot)) return failed(`to_chain_root is not checkpoint ${t.checkpointSeq}'s signed chain_root`);
  if (!rec.fromLeafInclusion || !rec.toLeafInclusion) return failed('a v2 record needs from_leaf_inclusion and to_leaf_inclusion');
  // Step 6: each endpoint's own chain leaf at index seq − 1 of a chain of seq leaves, under its signed root.
  for (const [inc, cp, name] of [
    [rec.fromLeafInclusion, f, 'from'],
    [rec.toLeafInclusion, t, 'to'],
  ] as const) {
    if (inc.treeSize !== cp.checkpointSeq || inc.leafIndex !== cp.checkpointSeq - 1n) {
      return failed(`${name}_leaf_inclusion must be leaf ${cp.checkpointSeq - 1n} of ${cp.checkpointSeq}, not leaf ${inc.leafIndex} of ${inc.treeSize}`);
    }
    const leaf = chainLeafHash(cp);
    if (cp.checkpointSeq > BigInt(Number.MAX_SAFE_INTEGER) || !leaf)
      return failed(`${name}_leaf_inclusion cannot be checked for checkpoint ${cp.checkpointSeq}`);
    const res = verifyInclusion(Number(inc.leafIndex), Number(inc.treeSize), leaf, inc.auditPath, cp.chainRoot!);
    if (!res.ok) return failed(`${name}_leaf_inclusion does not prove checkpoint ${cp.checkpointSeq}'s chain leaf under its chain_root (${res.detail})`);
  }
  // Step 7: RFC 9162 consistency between the two signed chain roots.
  const res = verifyConsistency(Number(f.checkpointSeq), Number(t.checkpointSeq), f.chainRoot, t.chainRoot, rec.chainProofHashes);
  if (!res.ok)
    return failed(`chain_proof_hashes do not prove that checkpoint ${t.checkpointSeq}'s chain extends checkpoint ${f.checkpointSeq}'s (${res.detail})`);
  return { status: 'proof' };
}

const int = (v: bigint): JsonNumber => new JsonNumber(v.toString());
const hashText = (h: Uint8Array): string => '0x' + toHex(h);

/**
 * The v2 record a kernel derives for the adjacent pair `from` → `to` (`build_checkpoint_consistency_proof`),
 * given the chain leaf hashes of checkpoints 1…`to`. Null when they do not reproduce both signed roots.
 * For producers (the demo, the server's export) and tests.
 */
export function buildConsistencyRecordV2(from: CheckpointWithDigest, to: CheckpointWithDigest, chainLeaves: readonly Uint8Array[]): JsonObject | null {
  const m = Number(from.cp.checkpointSeq);
  const n = Number(to.cp.checkpointSeq);
  if (!from.cp.chainRoot || !to.cp.chainRoot || chainLeaves.length < n || m < 1 || m >= n) return null;
  const toRoot = rootFromLeafHashes(chainLeaves.slice(0, n));
  const fromRoot = rootFromLeafHashes(chainLeaves.slice(0, m));
  if (!toRoot || !fromRoot || !bytesEqual(toRoot, to.cp.chainRoot) || !bytesEqual(fromRoot, from.cp.chainRoot)) return null;
  const path = consistencyProofFor(chainLeaves, m, n)!;
  const fromPath = inclusionProofFor(chainLeaves.slice(0, m), m - 1)!;
  const toPath = inclusionProofFor(chainLeaves.slice(0, n), n - 1)!;
  const f = from.cp;
  const t = to.cp;
  const rec: JsonObject = new Map<string, JsonValue>([
    ['schema', CONSISTENCY_SCHEMA_V2],
    ['log_id', logIdFor(keyOf(f))],
    ['from_checkpoint_seq', int(f.checkpointSeq)],
    ['to_checkpoint_seq', int(t.checkpointSeq)],
    ['from_checkpoint_sha256', from.sha256],
    ['to_checkpoint_sha256', to.sha256],
    ['from_log_tree_size', int(f.batchEndSeq)],
    ['to_log_tree_size', int(t.batchEndSeq)],
    ['appended_entry_start_seq', int(t.batchStartSeq)],
    ['appended_entry_end_seq', int(t.batchEndSeq)],
    ['from_chain_root', hashText(f.chainRoot!)],
    ['to_chain_root', hashText(t.chainRoot!)],
  ]);
  if (path.length > 0) rec.set('chain_proof_hashes', path.map(hashText));
  const inclusion = (size: number, p: Uint8Array[]): JsonObject =>
    new Map<string, JsonValue>([
      ['tree_size', int(BigInt(size))],
      ['leaf_index', int(BigInt(size - 1))],
      ['audit_path', p.map(hashText)],
    ]);
  rec.set('from_leaf_inclusion', inclusion(m, fromPath));
  rec.set('to_leaf_inclusion', inclusion(n, toPath));
  return rec;
}
