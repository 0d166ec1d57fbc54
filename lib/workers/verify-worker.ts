// Web Worker entry: checks batches of records with RecordVerifier (the
// per-record half of verification, see verify-batch.ts) and returns each
// batch's output. Many of these run at once, one per core.
import { DIALECT_FAMILIES } from '../dialects/families';
import { TrustStore } from '../trust/trust-store';
import { RecordVerifier } from '../verify/record-verifier';
import type { VerifyRequest, VerifyResponse } from './protocol';
import { verifyBatch } from './verify-batch';

let verifier: RecordVerifier | null = null;
const post = (m: VerifyResponse) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<VerifyRequest>) => {
  const msg = e.data;
  if (msg.type === 'init') {
    const trust = TrustStore.create(msg.trust);
    verifier = new RecordVerifier(trust.ok ? trust.store : TrustStore.empty(), { views: true, families: DIALECT_FAMILIES });
    return;
  }
  try {
    if (!verifier) throw new Error('verify worker used before init');
    post({ type: 'result', id: msg.id, output: await verifyBatch(verifier, msg.records) });
  } catch (err) {
    post({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
  }
};
