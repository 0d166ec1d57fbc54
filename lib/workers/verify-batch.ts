// What a verify worker does (verify-worker.ts is its Web Worker entry, the command
// line's bin/cli/verify-thread.ts its worker-thread one): `init` makes its
// RecordVerifier with the pinned keys; each batch's records are read (from the
// file where the batch gives byte ranges), checked, and the output returned in
// the compact message form. Pure, so tests run the very same steps in one thread.
import { sha256Ready } from '../crypto/sha256';
import { TrustStore } from '../trust/trust-store';
import type { AuditedFamily } from '../verdict/family';
import { recordVerifier } from '../verify/record-checker';
import type { RecordVerifier } from '../verify/record-verifier';
import { emptyOutput, markFailedViews } from '../verify/record-output';
import { packHashes } from '../verify/pack-hashes';
import type { VerifyRequest, VerifyResponse } from './protocol';
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

/**
 * A verify worker's message handler, whatever carries its messages; answers go to `post`.
 * `known`: the receipt families the worker's entry holds; `init` names those the log is read with.
 */
export function verifyWorker(post: (m: VerifyResponse) => void, known: readonly AuditedFamily[]): (msg: VerifyRequest) => Promise<void> {
  let verifier: RecordVerifier | null = null;
  return async (msg) => {
    if (msg.type === 'init') {
      const trust = TrustStore.create(msg.trust);
      const families = (msg.families ?? []).flatMap((name) => known.filter((f) => f.name === name));
      verifier = recordVerifier(trust.ok ? trust.store : TrustStore.empty(), { views: msg.views !== false, families });
      return;
    }
    try {
      if (!verifier) throw new Error('verify worker used before init');
      post({ type: 'result', id: msg.id, output: await verifyBatch(verifier, msg.records) });
    } catch (err) {
      post({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
    }
  };
}
