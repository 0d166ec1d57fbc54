// Kernel checkpoints (`chio.checkpoint_statement.v1`, chio-format.md §9.1) and
// receipt inclusion proofs (§9.4): decoding, the structure rules of
// `validate_checkpoint`, and the predecessor rules of
// `validate_checkpoint_predecessor` (contract §5).
import { fromHex } from '../bytes/hex';
import { sha256Hex } from '../crypto/sha256';
import { canonicalBytes } from '../json/canonicalize';
import { type JsonObject, type JsonValue, isJsonArray, isJsonObject, jsonTypeName } from '../json/value';
import { ObjectProjector, type ProjectionSink } from './fields';
import { readKernelKey, type DecodeResult } from './tool-receipt';
import type { DecodedCheckpoint, DecodedInclusionProof } from './types';

export const CHECKPOINT_SCHEMA = 'chio.checkpoint_statement.v1';

/** Parses a Merkle `Hash` as Chio serializes it: `0x` + 64 hex (the `0x` is optional on input). */
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
 * flat form where `signature` sits beside the body fields (anchor examples).
 */
export function decodeCheckpoint(src: JsonObject, path = '$'): DecodeResult<DecodedCheckpoint> {
  const body = src.get('body');
  if (isJsonObject(body)) {
    const sig = src.get('signature');
    if (typeof sig !== 'string') {
      return { ok: false, issues: [{ path: `${path}.signature`, message: `expected a string, found ${jsonTypeName(sig)}` }] };
    }
    const extra = [...src.keys()].filter((k) => k !== 'body' && k !== 'signature').map((k) => `${path}.${k}`);
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

/** Decodes a KernelCheckpointBody plus its signature (e.g. the SQLite `statement_json` and `signature` columns). */
export function decodeCheckpointBody(
  src: JsonObject,
  signature: string,
  path = '$',
  extraUnsigned: string[] = [],
): DecodeResult<DecodedCheckpoint> {
  const sink: ProjectionSink = { issues: [], unsigned: [...extraUnsigned] };
  const p = new ObjectProjector(src, path, sink);
  const schema = p.string('schema');
  const checkpointSeq = p.u64('checkpoint_seq');
  const batchStartSeq = p.u64('batch_start_seq');
  const batchEndSeq = p.u64('batch_end_seq');
  const treeSize = p.u64('tree_size');
  const rootText = p.string('merkle_root');
  const merkleRoot = rootText === undefined ? null : parseHash(rootText);
  if (rootText !== undefined) {
    if (merkleRoot === null) sink.issues.push({ path: `${path}.merkle_root`, message: 'expected 32 bytes of hex' });
    else p.out.set('merkle_root', '0x' + rootText.replace(/^0[xX]/, '').toLowerCase());
  }
  const issuedAt = p.u64('issued_at');
  const key = readKernelKey(p);
  const previous = p.optString('previous_checkpoint_sha256');
  p.finish();
  if (sink.issues.length > 0) return { ok: false, issues: sink.issues };
  return {
    ok: true,
    value: {
      schema: schema!,
      checkpointSeq: checkpointSeq!,
      batchStartSeq: batchStartSeq!,
      batchEndSeq: batchEndSeq!,
      treeSize: treeSize!,
      merkleRoot,
      merkleRootText: rootText!,
      issuedAt: issuedAt!,
      kernelKey: key.raw,
      kernelKeyNormalized: key.normalized,
      signature,
      body: p.out,
      unsigned: sink.unsigned,
      ...(previous !== undefined ? { previousCheckpointSha256: previous } : {}),
    },
  };
}

/** `checkpoint_sha256`: sha256 hex of the canonical body (§3, §9.1). */
export function checkpointSha256(cp: DecodedCheckpoint): string {
  return sha256Hex(canonicalBytes(cp.body));
}

/** `validate_checkpoint` steps 1–6 (the signature is checked separately). Null when valid. */
export function checkpointStructureError(cp: DecodedCheckpoint): string | null {
  if (cp.schema !== CHECKPOINT_SCHEMA) return `unsupported schema ${JSON.stringify(cp.schema)}`;
  if (cp.checkpointSeq <= 0n) return 'checkpoint_seq must be greater than 0';
  if (cp.batchStartSeq <= 0n) return 'batch_start_seq must be greater than 0';
  if (cp.batchEndSeq < cp.batchStartSeq) return 'batch_end_seq is before batch_start_seq';
  if (cp.treeSize <= 0n) return 'tree_size must be greater than 0';
  const expected = cp.batchEndSeq - cp.batchStartSeq + 1n;
  if (cp.treeSize !== expected) return `tree_size ${cp.treeSize} is not batch_end_seq - batch_start_seq + 1 = ${expected}`;
  return null;
}

/** `validate_checkpoint_predecessor`. Null when `next` follows `prev` (whose `checkpointSha256` is `prevSha256`). */
export function continuityError(prev: DecodedCheckpoint, prevSha256: string, next: DecodedCheckpoint): string | null {
  if (next.checkpointSeq !== prev.checkpointSeq + 1n) {
    return `checkpoint_seq ${next.checkpointSeq} does not follow ${prev.checkpointSeq}`;
  }
  if (next.batchStartSeq !== prev.batchEndSeq + 1n) {
    return `batch starts at ${next.batchStartSeq}, but checkpoint ${prev.checkpointSeq} ended at ${prev.batchEndSeq}`;
  }
  if (next.previousCheckpointSha256 !== undefined && next.previousCheckpointSha256 !== prevSha256) {
    return `previous_checkpoint_sha256 does not match checkpoint ${prev.checkpointSeq}`;
  }
  return null;
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
