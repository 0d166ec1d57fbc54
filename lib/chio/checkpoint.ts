// Kernel checkpoints (`chio.checkpoint_statement.v1` and `…v2`, chio-format.md
// §9.1 and §16.1–§16.3) and receipt inclusion proofs (§9.4): strict decoding,
// the standalone rules of `validate_checkpoint`, the predecessor-pair rules of
// `validate_checkpoint_predecessor`, the body digest and the chain leaf.
//
// Policy (contract part 2 §2, §3): checkpoints are parsed strictly. An unknown
// key in the body or the wrapper, an explicit `null` optional, or a hash in a
// non-canonical spelling is never dropped or silently normalized: the
// checkpoint is still decoded (so the report can show it), but it carries the
// violation in `strict` and fails `structure`, so it vouches for nothing.
// Type errors are shape errors (`parse_error`), as upstream deserialization is.
import { fromHex, toHex } from '../bytes/hex';
import { sha256Hex } from '../crypto/sha256';
import { canonicalBytes } from '../json/canonicalize';
import { type JsonObject, type JsonValue, isJsonArray, isJsonObject, jsonTypeName } from '../json/value';
import { MAX_PROOF_LEVELS, leafHash } from '../merkle';
import { ObjectProjector, type ProjectionSink } from './fields';
import { readKernelKey, type DecodeResult } from './tool-receipt';
import type { CheckpointFacts, DecodedCheckpoint, DecodedInclusionProof } from './types';

export const CHECKPOINT_SCHEMA_V1 = 'chio.checkpoint_statement.v1';
export const CHECKPOINT_SCHEMA_V2 = 'chio.checkpoint_statement.v2';
/** The schema new kernels issue (§16.1). */
export const CHECKPOINT_SCHEMA = CHECKPOINT_SCHEMA_V2;

const CANONICAL_HASH = /^0x[0-9a-f]{64}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** Parses a Merkle `Hash` as Chio's decoder accepts it: `0x` + 64 hex, the `0x` optional, any case. */
export function parseHash(text: string): Uint8Array | null {
  const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  return fromHex(hex, 32);
}

/** True for `{body: {schema: …checkpoint…}, signature}` or the flat statement form. */
export function looksLikeCheckpoint(o: JsonObject): boolean {
  const body = o.get('body');
  if (isJsonObject(body) && body.has('checkpoint_seq') && body.has('merkle_root')) return true;
  return o.has('checkpoint_seq') && o.has('batch_start_seq') && o.has('merkle_root') && o.has('signature');
}

/**
 * Decodes a checkpoint from its JSON: `{body, signature}` (packages), or the
 * flat form where `signature` sits beside the body fields (anchor proofs, §16.6).
 */
export function decodeCheckpoint(src: JsonObject, path = '$'): DecodeResult<DecodedCheckpoint> {
  const body = src.get('body');
  if (isJsonObject(body)) {
    const sig = src.get('signature');
    if (typeof sig !== 'string') {
      return { ok: false, issues: [{ path: `${path}.signature`, message: `expected a string, found ${jsonTypeName(sig)}` }] };
    }
    const extra = [...src.keys()].filter((k) => k !== 'body' && k !== 'signature').map((k) => `unknown wrapper key ${JSON.stringify(k)}`);
    return decodeCheckpointBody(body, sig, `${path}.body`, extra);
  }
  const flat = new Map(src);
  const sig = flat.get('signature');
  flat.delete('signature');
  if (typeof sig !== 'string') {
    return { ok: false, issues: [{ path: `${path}.signature`, message: `expected a string, found ${jsonTypeName(sig)}` }] };
  }
  return decodeCheckpointBody(flat, sig, path, []);
}

/** A `Hash` field: the bytes, and its typed (signed) spelling set in `p.out`; a non-canonical spelling is a strict violation. */
function readHash(p: ObjectProjector, key: string, strict: string[], optional: boolean): Uint8Array | null | undefined {
  const raw = p.src.get(key);
  if (optional && raw === undefined) {
    p.known_(key);
    return undefined;
  }
  if (optional && raw === null) {
    p.known_(key);
    strict.push(`${key} is an explicit null (absent optionals must be omitted)`);
    return undefined;
  }
  const text = p.string(key);
  if (text === undefined) return undefined;
  const bytes = parseHash(text);
  if (bytes === null) {
    p.sink.issues.push({ path: `${p.path}.${key}`, message: 'expected "0x" and 64 hex digits' });
    return null;
  }
  const typed = '0x' + text.replace(/^0[xX]/, '').toLowerCase();
  if (!CANONICAL_HASH.test(text)) strict.push(`${key} is not written as "0x" + 64 lowercase hex (${JSON.stringify(text.slice(0, 80))})`);
  p.out.set(key, typed);
  return bytes;
}

/** Decodes a KernelCheckpointBody plus its signature (e.g. the SQLite `statement_json` and `signature` columns). */
export function decodeCheckpointBody(src: JsonObject, signature: string, path = '$', strictViolations: string[] = []): DecodeResult<DecodedCheckpoint> {
  const strict = [...strictViolations];
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const p = new ObjectProjector(src, path, sink);
  const schema = p.string('schema');
  const checkpointSeq = p.u64('checkpoint_seq');
  const batchStartSeq = p.u64('batch_start_seq');
  const batchEndSeq = p.u64('batch_end_seq');
  const treeSize = p.u64('tree_size');
  const rootText = src.get('merkle_root');
  const merkleRoot = readHash(p, 'merkle_root', strict, false) ?? null;
  const issuedAt = p.u64('issued_at');
  const key = readKernelKey(p);
  let previous: string | undefined;
  const prevRaw = src.get('previous_checkpoint_sha256');
  if (prevRaw === null) {
    p.known_('previous_checkpoint_sha256');
    strict.push('previous_checkpoint_sha256 is an explicit null (absent optionals must be omitted)');
  } else previous = p.optString('previous_checkpoint_sha256');
  const hasChainRoot = src.get('chain_root') !== undefined && src.get('chain_root') !== null;
  const chainRoot = readHash(p, 'chain_root', strict, true);
  p.finish();
  for (const k of sink.unsigned) strict.push(`unknown key ${k.slice(path.length + 1)}`);
  if (sink.issues.length > 0) return { ok: false, issues: sink.issues };
  const cp: DecodedCheckpoint = {
    schema: schema!,
    checkpointSeq: checkpointSeq!,
    batchStartSeq: batchStartSeq!,
    batchEndSeq: batchEndSeq!,
    treeSize: treeSize!,
    merkleRoot,
    merkleRootText: typeof rootText === 'string' ? rootText : '',
    issuedAt: issuedAt!,
    kernelKey: key.raw,
    kernelKeyNormalized: key.normalized,
    signature,
    body: p.out,
    strict,
  };
  if (previous !== undefined) cp.previousCheckpointSha256 = previous;
  if (hasChainRoot && chainRoot) cp.chainRoot = chainRoot;
  return { ok: true, value: cp };
}

/** `merkle_root` as the typed body spells it (what is signed and hashed): `0x` + lowercase hex. */
export function typedMerkleRoot(root: Uint8Array): string {
  return '0x' + toHex(root);
}

/**
 * What verification keeps of a decoded checkpoint (CheckpointFacts): a new object of its typed
 * fields only, so neither the parsed body nor the record's text (which strings parsed from it may
 * be slices of) stays alive. Strings are copied by `own`; `noViolations` is shared by every
 * checkpoint that broke no strict rule.
 */
export function checkpointFacts(cp: DecodedCheckpoint, own: (s: string) => string): CheckpointFacts {
  const kernelKey = own(cp.kernelKey);
  const facts: CheckpointFacts = {
    checkpointSeq: cp.checkpointSeq,
    batchStartSeq: cp.batchStartSeq,
    batchEndSeq: cp.batchEndSeq,
    treeSize: cp.treeSize,
    merkleRoot: cp.merkleRoot,
    issuedAt: cp.issuedAt,
    schema: own(cp.schema),
    kernelKey,
    kernelKeyNormalized: cp.kernelKeyNormalized === null ? null : cp.kernelKeyNormalized === cp.kernelKey ? kernelKey : own(cp.kernelKeyNormalized),
    // A violation quotes the key it is about, which a hostile record makes megabytes long.
    strict:
      cp.strict.length === 0
        ? NO_VIOLATIONS
        : cp.strict.slice(0, 20).map((v) => own(v.length > 300 ? `${v.slice(0, 300)}… (${v.length - 300} more characters)` : v)),
  };
  if (cp.strict.length > 20) facts.strict.push(`and ${cp.strict.length - 20} more violations`);
  if (cp.previousCheckpointSha256 !== undefined) facts.previousCheckpointSha256 = own(cp.previousCheckpointSha256);
  if (cp.chainRoot !== undefined) facts.chainRoot = cp.chainRoot;
  return facts;
}

const NO_VIOLATIONS: string[] = Object.freeze([]) as unknown as string[];

/** `checkpoint_sha256` (§16.2): sha256 hex of RFC 8785(typed body), the digest a successor names. */
export function checkpointSha256(cp: DecodedCheckpoint): string {
  return sha256Hex(canonicalBytes(cp.body));
}

/**
 * The chain leaf hash (§16.3): SHA-256(0x00 ‖ RFC 8785 of exactly `{checkpoint_seq,
 * batch_start_seq, batch_end_seq, merkle_root}`), `merkle_root` as `0x` + lowercase hex.
 */
export function chainLeafHash(cp: CheckpointFacts): Uint8Array | null {
  if (cp.merkleRoot === null) return null;
  // Written out in RFC 8785 form (keys in order; u64 integers as decimal digits; the root is
  // ASCII with nothing to escape): the same bytes as canonicalizing the object, several times
  // faster, and a page verifies 650,000 of them.
  const text = `{"batch_end_seq":${cp.batchEndSeq},"batch_start_seq":${cp.batchStartSeq},"checkpoint_seq":${cp.checkpointSeq},"merkle_root":"${typedMerkleRoot(cp.merkleRoot)}"}`;
  return leafHash(ASCII.encode(text));
}

const ASCII = new TextEncoder();

/**
 * Every standalone rule that `cp` breaks (§16.1, contract part 2 §5.1 `structure`), in
 * upstream order; empty when valid. The signature is checked separately.
 */
export function checkpointStructureErrors(cp: CheckpointFacts): string[] {
  const out = [...cp.strict];
  const v1 = cp.schema === CHECKPOINT_SCHEMA_V1;
  const v2 = cp.schema === CHECKPOINT_SCHEMA_V2;
  if (!v1 && !v2) out.push(`unsupported schema ${JSON.stringify(cp.schema)}`);
  if (cp.checkpointSeq <= 0n) out.push('checkpoint_seq must be greater than 0');
  if (cp.batchStartSeq <= 0n) out.push('batch_start_seq must be greater than 0');
  if (cp.batchEndSeq < cp.batchStartSeq) out.push('batch_end_seq is before batch_start_seq');
  if (cp.treeSize <= 0n) out.push('tree_size must be greater than 0');
  else if (cp.batchEndSeq >= cp.batchStartSeq) {
    const expected = cp.batchEndSeq - cp.batchStartSeq + 1n;
    if (cp.treeSize !== expected) out.push(`tree_size ${cp.treeSize} is not batch_end_seq - batch_start_seq + 1 = ${expected}`);
  }
  if (v1 && cp.chainRoot !== undefined) out.push('a v1 checkpoint must not carry chain_root');
  if (v2 && cp.checkpointSeq === 1n) {
    if (cp.chainRoot === undefined) out.push('a v2 checkpoint 1 must carry chain_root');
    else if (!sameBytes(cp.chainRoot, chainLeafHash(cp))) out.push('chain_root of checkpoint 1 is not its own chain leaf hash');
  }
  if (cp.issuedAt <= 0n) out.push('issued_at must be greater than 0');
  const prev = cp.previousCheckpointSha256;
  if (prev !== undefined && !DIGEST.test(prev)) out.push('previous_checkpoint_sha256 is not 64 lowercase hex digits');
  return out;
}

/** The first structure error, or null (kept for callers that show one line). */
export function checkpointStructureError(cp: CheckpointFacts): string | null {
  return checkpointStructureErrors(cp)[0] ?? null;
}

/**
 * The predecessor-pair rules (§16.2 rules 1–4, and the draft's rule that a v2 successor carries
 * `chain_root`), for `next` whose `previous_checkpoint_sha256` named `prev`. Null when it follows.
 */
export function continuityError(prev: CheckpointFacts, prevSha256: string, next: CheckpointFacts): string | null {
  if (next.previousCheckpointSha256 === undefined) return `previous_checkpoint_sha256 is missing, so nothing ties it to checkpoint ${prev.checkpointSeq}`;
  if (next.previousCheckpointSha256 !== prevSha256) return `previous_checkpoint_sha256 does not match checkpoint ${prev.checkpointSeq}`;
  if (next.checkpointSeq !== prev.checkpointSeq + 1n) {
    return `checkpoint_seq ${next.checkpointSeq} does not follow ${prev.checkpointSeq}`;
  }
  if (next.batchStartSeq !== prev.batchEndSeq + 1n) {
    return `batch starts at ${next.batchStartSeq}, but checkpoint ${prev.checkpointSeq} ended at ${prev.batchEndSeq}`;
  }
  if (prev.chainRoot !== undefined && next.chainRoot === undefined)
    return `it drops the chain commitment: checkpoint ${prev.checkpointSeq} carries chain_root, this one does not`;
  if (next.schema === CHECKPOINT_SCHEMA_V2 && next.chainRoot === undefined) return 'a v2 checkpoint after another must carry chain_root';
  return null;
}

function sameBytes(a: Uint8Array | null | undefined, b: Uint8Array | null | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True for a ReceiptInclusionProof object. */
export function looksLikeInclusionProof(o: JsonObject): boolean {
  return o.has('receipt_seq') && o.has('proof') && o.has('checkpoint_seq');
}

export function decodeInclusionProof(src: JsonObject, path = '$'): DecodeResult<DecodedInclusionProof> {
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const p = new ObjectProjector(src, path, sink);
  const checkpointSeq = p.u64('checkpoint_seq');
  const receiptSeq = p.u64('receipt_seq');
  const leafIndex = p.u64('leaf_index');
  const rootText = p.string('merkle_root');
  let treeSize: bigint | undefined;
  let proofLeafIndex: bigint | undefined;
  let auditPath: (Uint8Array | null)[] = [];
  p.object('proof', (q) => {
    treeSize = q.u64('tree_size');
    proofLeafIndex = q.u64('leaf_index');
    const pathValue: JsonValue | undefined = q.known_('audit_path');
    if (!isJsonArray(pathValue)) {
      sink.issues.push({ path: `${q.path}.audit_path`, message: `expected an array, found ${jsonTypeName(pathValue)}` });
    } else if (pathValue.length > MAX_PROOF_LEVELS) {
      // Refused before a hash is read or kept: no honest proof is this long.
      sink.issues.push({
        path: `${q.path}.audit_path`,
        message: `${pathValue.length} entries; a tree of at most 2^64 leaves needs at most ${MAX_PROOF_LEVELS}, so this proof cannot be honest`,
      });
    } else {
      auditPath = pathValue.map((h) => (typeof h === 'string' ? parseHash(h) : null));
    }
  });
  if (sink.issues.length > 0) return { ok: false, issues: sink.issues };
  return {
    ok: true,
    value: {
      checkpointSeq: checkpointSeq!,
      receiptSeq: receiptSeq!,
      leafIndex: leafIndex!,
      merkleRoot: rootText === undefined ? null : parseHash(rootText),
      treeSize: treeSize!,
      proofLeafIndex: proofLeafIndex!,
      auditPath,
    },
  };
}
