// Web Worker entry: checks batches of records with RecordVerifier (the
// per-record half of verification, see verify-batch.ts) and returns each
// batch's output. Many of these run at once, one per core (pool.ts).
import { DIALECT_FAMILIES } from '../dialects/families';
import type { VerifyRequest, VerifyResponse } from './protocol';
import { verifyWorker } from './verify-batch';

const handle = verifyWorker((m: VerifyResponse) => (self as unknown as Worker).postMessage(m), DIALECT_FAMILIES);

self.onmessage = (e: MessageEvent<VerifyRequest>) => void handle(e.data);
