// A verify worker's batch output carries thousands of 32-byte hashes (two leaf
// hashes a receipt, a root and about twenty path hashes an inclusion proof).
// Each as its own Uint8Array would reach the log worker, after the structured
// clone, as its own ArrayBuffer: at a million receipts, tens of millions of
// tiny buffers (640 MB of proof paths alone) left for the garbage collector.
// Packed into one buffer, each batch's hashes travel, and die, as one, once
// the log worker has taken the batch in (EntryCompactor copies what it keeps).
import type { ProofEntry } from './entries';
import type { RecordOutput } from './record-output';

type Rehash = (h: Uint8Array) => Uint8Array;

/** Replaces a proof's root and path hashes by `f` of each. */
export function mapProofHashes(p: ProofEntry, f: Rehash): void {
  if (p.proof.merkleRoot) p.proof.merkleRoot = f(p.proof.merkleRoot);
  p.proof.auditPath = p.proof.auditPath.map((h) => (h ? f(h) : h));
}

/** Replaces every hash in `out` by `f` of it, always in the same order. */
function mapHashes(out: RecordOutput, f: Rehash): void {
  for (const r of out.receipts) r.leafHashes = f(r.leafHashes);
  for (const c of out.checkpoints) if (c.cp.merkleRoot) c.cp.merkleRoot = f(c.cp.merkleRoot);
  for (const p of out.proofs) mapProofHashes(p, f);
}

/** Replaces every hash in `out` by a view of one new buffer holding them all (same bytes). */
export function packHashes(out: RecordOutput): void {
  let size = 0;
  mapHashes(out, (h) => {
    size += h.length;
    return h;
  });
  const buffer = new Uint8Array(size);
  let at = 0;
  mapHashes(out, (h) => {
    const view = buffer.subarray(at, at + h.length);
    view.set(h);
    at += h.length;
    return view;
  });
  out.hashes = buffer.buffer;
}
