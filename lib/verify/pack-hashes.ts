// A verify worker's batch output carries thousands of 32-byte hashes (two leaf
// hashes a receipt, a root and about twenty path hashes an inclusion proof).
// Each as its own Uint8Array would reach the log worker, after the structured
// clone, as its own ArrayBuffer: at a million receipts, tens of millions of
// tiny buffers (640 MB of proof paths alone) left for the garbage collector.
// Packed into one buffer, each batch's hashes travel, and die, as one: freed
// at once after the log worker has taken the batch in (releaseHashes).
import type { RecordOutput } from './record-verifier';

/** Replaces every hash in `out` by a view of one new buffer holding them all (same bytes). */
export function packHashes(out: RecordOutput): void {
  const hashes: Uint8Array[] = [];
  for (const r of out.receipts) hashes.push(r.leafHash, r.anchorLeafHash);
  for (const c of out.checkpoints) if (c.cp.merkleRoot) hashes.push(c.cp.merkleRoot);
  for (const p of out.proofs) {
    if (p.proof.merkleRoot) hashes.push(p.proof.merkleRoot);
    for (const h of p.proof.auditPath) if (h) hashes.push(h);
  }
  let size = 0;
  for (const h of hashes) size += h.length;
  const buffer = new Uint8Array(size);
  let at = 0;
  const move = (h: Uint8Array): Uint8Array => {
    const view = buffer.subarray(at, at + h.length);
    view.set(h);
    at += h.length;
    return view;
  };
  for (const r of out.receipts) {
    r.leafHash = move(r.leafHash);
    r.anchorLeafHash = move(r.anchorLeafHash);
  }
  for (const c of out.checkpoints) if (c.cp.merkleRoot) c.cp.merkleRoot = move(c.cp.merkleRoot);
  for (const p of out.proofs) {
    if (p.proof.merkleRoot) p.proof.merkleRoot = move(p.proof.merkleRoot);
    p.proof.auditPath = p.proof.auditPath.map((h) => (h ? move(h) : h));
  }
  out.hashes = buffer.buffer;
}

/**
 * Frees an output's packed hashes now (the page's log worker, after LogAssembler
 * took the output in and copied what it keeps). Every view of the buffer reads
 * as empty afterwards. Where ArrayBuffer.prototype.transfer is missing, the
 * garbage collector frees it later, as before.
 */
export function releaseHashes(out: RecordOutput): void {
  (out.hashes as (ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }) | undefined)?.transfer?.(0);
}
