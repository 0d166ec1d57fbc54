// Test-only: a verify worker in this thread for the pool strategy. It runs the
// worker's own handler (verifyWorker: init, then verifyBatch per batch) on
// structured clones of the real messages, as postMessage would hand them over,
// and answers asynchronously.
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import type { VerifyRequest, VerifyResponse } from '../../lib/workers/protocol';
import type { WorkerLike } from '../../lib/workers/pool';
import { verifyWorker } from '../../lib/workers/verify-batch';
import type { WireBatch } from '../../lib/workers/wire';

export function inProcessWorker(options: { onBatch?: (batch: WireBatch) => void } = {}): WorkerLike {
  const handle = verifyWorker((m) => {
    const data: VerifyResponse = structuredClone(m);
    worker.onmessage?.({ data } as MessageEvent<VerifyResponse>);
  }, DIALECT_FAMILIES);
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    terminate() {},
    postMessage(m: VerifyRequest) {
      const msg = structuredClone(m);
      if (msg.type === 'batch') options.onBatch?.(msg.records);
      void handle(msg);
    },
  };
  return worker;
}
