// Test-only: a verify worker in this thread for VerifyPool. It runs the worker's
// own steps (verifyBatch) on structured clones of the real messages, as
// postMessage would hand them over, and answers asynchronously.
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import { TrustStore } from '../../lib/trust/trust-store';
import { RecordVerifier } from '../../lib/verify/record-verifier';
import type { VerifyRequest, VerifyResponse } from '../../lib/workers/protocol';
import type { WorkerLike } from '../../lib/workers/pool';
import { verifyBatch } from '../../lib/workers/verify-batch';
import type { WireBatch } from '../../lib/workers/wire';

export function inProcessWorker(options: { trust?: TrustStore; onBatch?: (batch: WireBatch) => void } = {}): WorkerLike {
  const verifier = new RecordVerifier(options.trust ?? TrustStore.empty(), { views: true, families: DIALECT_FAMILIES });
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    terminate() {},
    postMessage(m: VerifyRequest) {
      if (m.type !== 'batch') return;
      const batch = structuredClone(m.records);
      options.onBatch?.(batch);
      void verifyBatch(verifier, batch).then((output) => {
        const data: VerifyResponse = structuredClone({ type: 'result', id: m.id, output });
        worker.onmessage?.({ data } as MessageEvent<VerifyResponse>);
      });
    },
  };
  return worker;
}
