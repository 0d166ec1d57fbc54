// The Node adapter (node-worker.ts) on real worker threads: what reaches `onerror` and when. A
// thread that exits on its own is dead, whatever its code; one the owner terminated is not a
// failure; an uncaught error comes first, with its message. Through the worker client, an exit
// fails the requests that wait on the thread.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerClient, WorkerClientError } from '../../lib/workers/worker-client';
import { nodeWorker } from './node-worker';

type In = { op: 'echo' | 'exit' | 'throw' | 'bytes'; id?: number; code?: number; buffer?: ArrayBuffer };
type Out = { id?: number; length?: number };

const SCRIPT = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.op === 'echo') parentPort.postMessage({ id: m.id });
  else if (m.op === 'exit') process.exit(m.code);
  else if (m.op === 'throw') throw new Error('thrown on purpose');
  else if (m.op === 'bytes') parentPort.postMessage({ id: m.id, length: m.buffer.byteLength });
});
`;

const threads: Worker[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.terminate()));
});

/** A thread running SCRIPT (or `code`), the adapter over it, what reached `onerror`, and the thread's exit. */
function start(code = SCRIPT) {
  const thread = new Worker(code, { eval: true });
  threads.push(thread);
  const exited = new Promise<number>((resolve) => thread.once('exit', resolve));
  const errors: string[] = [];
  const worker = nodeWorker<In, Out>(thread);
  worker.onerror = (e) => void errors.push(e.message);
  return { thread, worker, errors, exited };
}

async function failureOf(p: Promise<unknown>): Promise<WorkerClientError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(WorkerClientError);
  return e as WorkerClientError;
}

describe('nodeWorker: a worker thread as a WorkerLike', () => {
  it('terminate(): neither the exit nor anything after it reaches onerror or onmessage', async () => {
    const { worker, errors, exited } = start();
    const messages: unknown[] = [];
    worker.onmessage = (e) => void messages.push(e.data);
    worker.postMessage({ op: 'echo', id: 1 });
    worker.terminate();
    await exited; // code 1, or 0 when the thread had not started yet
    expect(errors).toEqual([]);
    expect(messages).toEqual([]);
  });

  it('an exit of its own with code 0 is a death all the same', async () => {
    const { worker, errors, exited } = start();
    worker.postMessage({ op: 'exit', code: 0 });
    expect(await exited).toBe(0);
    expect(errors).toEqual(['it exited (code 0)']);
  });

  it('an uncaught error: its message first, then the exit', async () => {
    const { worker, errors, exited } = start();
    worker.postMessage({ op: 'throw' });
    await exited;
    expect(errors).toEqual(['thrown on purpose', 'it exited (code 1)']);
  });

  it('a script that does not load: its error', async () => {
    const { errors, exited } = start('this is not JavaScript');
    await exited;
    expect(errors[0]).toMatch(/SyntaxError|Unexpected/);
  });

  it('transfers what it is given to transfer', async () => {
    const { worker } = start();
    const answer = new Promise<Out>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
    const buffer = new ArrayBuffer(1024);
    worker.postMessage({ op: 'bytes', id: 1, buffer }, [buffer]);
    expect(buffer.byteLength).toBe(0); // detached: moved, not copied
    expect(await answer).toEqual({ id: 1, length: 1024 });
  });
});

describe('nodeWorker through the worker client', () => {
  const clientOf = (worker: ReturnType<typeof start>['worker'], crashes: string[] = []) =>
    new WorkerClient<In, Out>(worker, { name: 'the test thread', idOf: (m) => m.id, onCrash: (e) => crashes.push(e.message) });

  it('a thread that exits while a request waits: the request fails as crashed', async () => {
    const { worker } = start();
    const c = clientOf(worker);
    const waiting = c.request((id) => ({ op: 'exit', id, code: 0 }));
    const e = await failureOf(waiting);
    expect(e.reason).toBe('crashed');
    expect(e.message).toBe('the test thread stopped: it exited (code 0)');
  });

  it('an uncaught error then the exit: one crash, with the error', async () => {
    const crashes: string[] = [];
    const { worker, exited } = start();
    const c = clientOf(worker, crashes);
    const e = await failureOf(c.request((id) => ({ op: 'throw', id })));
    await exited;
    expect(e.detail).toBe('thrown on purpose');
    expect(crashes).toEqual(['the test thread stopped: thrown on purpose']);
  });

  it('close(): the thread ends, waiting requests fail as closed, and no crash is reported', async () => {
    const crashes: string[] = [];
    const { worker, exited } = start();
    const c = clientOf(worker, crashes);
    expect(await c.request((id) => ({ op: 'echo', id }))).toEqual({ id: 1 });
    const waiting = c.request((id) => ({ op: 'echo', id }));
    c.close();
    expect((await failureOf(waiting)).reason).toBe('closed');
    await exited;
    expect(crashes).toEqual([]);
  });
});
