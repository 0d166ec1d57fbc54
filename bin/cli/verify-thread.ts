// A worker thread of the command line's verify pool (../../lib/workers/pool.ts):
// the page's verify worker (lib/workers/verify-batch.ts) over Node's
// worker_threads port. Started by verify-thread.mjs, which loads TypeScript.
import { parentPort } from 'node:worker_threads';
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import type { VerifyRequest } from '../../lib/workers/protocol';
import { verifyWorker } from '../../lib/workers/verify-batch';

const port = parentPort;
if (!port) throw new Error('verify-thread.ts runs as a worker thread');
const handle = verifyWorker((m) => port.postMessage(m), DIALECT_FAMILIES);
port.on('message', (m: VerifyRequest) => void handle(m));
