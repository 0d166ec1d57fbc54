// What a verify worker does with one batch (verify-worker.ts is its Web Worker
// entry): reads the records (from the file where the batch gives byte ranges),
// checks them, and returns the output in the compact message form. Pure, so
// tests run the very same steps in one thread.
import { sha256Ready } from '../crypto/sha256';
import { RecordVerifier, emptyOutput, markFailedViews } from '../verify/record-verifier';
import { packHashes } from '../verify/pack-hashes';
import { type WireBatch, type WireOutput, batchFromWire, outputToWire } from './wire';

export async function verifyBatch(verifier: RecordVerifier, batch: WireBatch): Promise<WireOutput> {
  await sha256Ready(); // every batch, the first included, hashes with WebAssembly
  const out = emptyOutput();
  const pending: Promise<void>[] = [];
  // One at a time, not `push(...list)`: a record may expand to more items than a call takes arguments.
  for (const r of await batchFromWire(batch)) for (const p of verifier.verify(r.text, r.origin, r.order, out)) pending.push(p);
  await Promise.all(pending);
  markFailedViews(out);
  packHashes(out);
  return outputToWire(out);
}
