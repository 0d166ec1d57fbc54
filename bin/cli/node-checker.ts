// How the command line checks records (lib/verify/record-checker.ts): inline, or
// in a pool of worker threads, one per core (lib/workers/pool.ts, the page's
// pool), for inputs of POOL_FROM_BYTES and more when there is more than one
// core. A thread runs verify-thread.ts, bundled in memory by esbuild (which tsx
// brings) into one module: through tsx, loading its sixty-odd TypeScript files
// took each thread seconds. Either way Ed25519 runs on node:crypto (node-ed25519.ts).
import { Buffer } from 'node:buffer';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type CheckerFactory, inlineChecker } from '../../lib/verify/record-checker';
import { poolChecker } from '../../lib/workers/pool';
import { registerNodeEd25519 } from './node-ed25519';
import { nodeWorker } from './node-worker';
import { UsageError } from './node-source';

/**
 * Inputs from this many bytes on are checked in worker threads. Below it, bundling the threads'
 * code and starting them costs more than they save: on two cores the pool broke even at about
 * 2.3 MB of package and saved 5 to 11% from 5 MB (measured: bin/cli/README.md).
 */
export const POOL_FROM_BYTES = 4 * 2 ** 20;

/** On one core a thread only competes with the main thread. */
export const POOL_FROM_CORES = 2;

/**
 * `workers`: 0 checks inline, N in N worker threads; by default os.availableParallelism() threads
 * for POOL_FROM_BYTES of input and more on POOL_FROM_CORES cores and more, else inline.
 * RECEIPT_AUDIT_WORKERS sets it for a run.
 */
export async function nodeChecker(inputBytes: number, workers: number | undefined = workersFromEnv()): Promise<CheckerFactory> {
  registerNodeEd25519('main'); // inline, and for what the main thread checks itself beside a pool
  const cores = os.availableParallelism();
  const n = workers ?? (inputBytes >= POOL_FROM_BYTES && cores >= POOL_FROM_CORES ? cores : 0);
  if (n === 0) return inlineChecker();
  const entry = await threadEntry();
  return poolChecker(() => nodeWorker(new Worker(entry)), { workers: n });
}

function workersFromEnv(): number | undefined {
  const v = process.env.RECEIPT_AUDIT_WORKERS;
  if (v === undefined || v === '') return undefined;
  if (!/^[0-9]{1,3}$/.test(v)) throw new UsageError(`RECEIPT_AUDIT_WORKERS must be a number of worker threads (0: none), not ${JSON.stringify(v)}`);
  return Number(v);
}

let bundled: Promise<URL> | null = null;

/** verify-thread.ts and everything it imports as one module (a data: URL), built once a process; without esbuild, verify-thread.mjs (tsx). */
const threadEntry = (): Promise<URL> => (bundled ??= bundleThread());

async function bundleThread(): Promise<URL> {
  try {
    const esbuild = await import('esbuild');
    const built = await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./verify-thread.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    const code = built.outputFiles[0];
    if (code) return new URL(`data:text/javascript;base64,${Buffer.from(code.contents).toString('base64')}`);
  } catch {
    // esbuild is missing or failed: the threads load the TypeScript through tsx, only slower.
  }
  return new URL('./verify-thread.mjs', import.meta.url);
}
