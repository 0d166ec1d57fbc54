// Web Worker entry: checks batches of records with RecordVerifier (the
// per-record half of verification) and returns each batch's output. Many of
// these run at once, one per core.
import { TrustStore } from '../trust/trust-store';
import { sha256Ready } from '../crypto/sha256';
import { RecordVerifier, emptyOutput, markFailedViews } from '../verify/record-verifier';
import { packHashes } from '../verify/pack-hashes';
import type { VerifyRequest, VerifyResponse } from './protocol';
import { batchFromWire, outputToWire } from './wire';

let verifier: RecordVerifier | null = null;
const post = (m: VerifyResponse) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<VerifyRequest>) => {
  const msg = e.data;
  if (msg.type === 'init') {
    const trust = TrustStore.create(msg.trust);
    verifier = new RecordVerifier(trust.ok ? trust.store : TrustStore.empty(), { views: true });
    return;
  }
  try {
    if (!verifier) throw new Error('verify worker used before init');
    await sha256Ready(); // every batch, the first included, hashes with WebAssembly
    const out = emptyOutput();
    const pending: Promise<void>[] = [];
    for (const r of batchFromWire(msg.records)) pending.push(...verifier.verify(r.text, r.origin, r.order, out));
    await Promise.all(pending);
    markFailedViews(out);
    packHashes(out);
    post({ type: 'result', id: msg.id, output: outputToWire(out) });
  } catch (err) {
    post({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
  }
};
