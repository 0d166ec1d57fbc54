// A worker thread of the command line's verify pool (../../lib/workers/pool.ts):
// the page's verify worker (lib/workers/verify-batch.ts) over Node's
// worker_threads port, with Ed25519 on node:crypto (node-ed25519.ts). Started
// by verify-thread.mjs, which loads TypeScript.
import { parentPort } from 'node:worker_threads';
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import type { VerifyRequest } from '../../lib/workers/protocol';
import { verifyWorker } from '../../lib/workers/verify-batch';
import { registerNodeEd25519 } from './node-ed25519';

const port = parentPort;
if (!port) throw new Error('verify-thread.ts runs as a worker thread');
registerNodeEd25519('worker'); // this thread's own copy of lib/crypto: Ed25519 on node:crypto, as on the main thread
const handle = verifyWorker((m) => port.postMessage(m), DIALECT_FAMILIES);
port.on('message', (m: VerifyRequest) => void handle(m));
