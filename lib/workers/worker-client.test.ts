// WorkerClient against real workers: Node worker_threads running a small script, wrapped by the
// command line's adapter (bin/cli/node-worker.ts) in the WorkerLike shape a Web Worker has.
// Answers come back in whatever order the worker sends them; an answer to an aborted or timed-out
// request must be dropped, and a worker that throws or exits must fail every waiting request with
// an error that says so.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorker } from '../../bin/cli/node-worker';
import { WorkerClient, WorkerClientError, type WorkerLike, isAborted } from './worker-client';

type In = { id?: number; op: 'echo' | 'events' | 'parts' | 'crash' | 'exit' | 'wrong-id'; value?: string; delayMs?: number; count?: number };
type Out = { id?: number; value?: string; event?: number; part?: number };

// The worker: echoes after a delay, streams events without an id, answers in parts, answers with
// an id nobody asked for, throws, or exits.
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.op === 'echo') setTimeout(() => parentPort.postMessage({ id: m.id, value: m.value }), m.delayMs ?? 0);
  else if (m.op === 'events') for (let i = 0; i < m.count; i++) parentPort.postMessage({ event: i });
  else if (m.op === 'parts') setTimeout(() => {
    for (let i = 0; i < m.count; i++) parentPort.postMessage({ id: m.id, part: i });
    parentPort.postMessage({ id: m.id, value: m.value });
  }, m.delayMs ?? 0);
  else if (m.op === 'wrong-id') parentPort.postMessage({ id: 1e9, value: 'nobody asked' });
  else if (m.op === 'crash') setTimeout(() => { throw new Error('the worker broke on purpose'); }, 0);
  else if (m.op === 'exit') process.exit(3);
});
`;

const threads: Worker[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.terminate()));
});

function spawn(): WorkerLike<In, Out> {
  const thread = new Worker(SCRIPT, { eval: true });
  threads.push(thread);
  return nodeWorker(thread);
}

function client(options: { deadlineMs?: number; onEvent?: (m: Out) => void; onCrash?: (e: WorkerClientError, detail: string) => void } = {}) {
  return new WorkerClient<In, Out>(spawn(), { name: 'the test worker', idOf: (m) => m.id, isPart: (m) => m.part !== undefined, ...options });
}

const echo =
  (value: string, delayMs = 0) =>
  (id: number) =>
    ({ id, op: 'echo', value, delayMs }) as In;

async function failureOf(p: Promise<unknown>): Promise<WorkerClientError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(WorkerClientError);
  return e as WorkerClientError;
}

describe('WorkerClient', () => {
  it('matches answers to requests by id, whatever order they come back in', async () => {
    const c = client();
    const slow = c.request(echo('slow', 80));
    const fast = c.request(echo('fast', 0));
    expect(c.pending).toBe(2);
    expect(await fast).toEqual({ id: 2, value: 'fast' });
    expect(await slow).toEqual({ id: 1, value: 'slow' });
    expect(c.pending).toBe(0);
    c.close();
  });

  it('drops an answer that carries an id no request is waiting for', async () => {
    const c = client();
    c.post({ op: 'wrong-id' });
    expect(await c.request(echo('after'))).toEqual({ id: 1, value: 'after' });
    expect(c.dropped).toBe(1);
    c.close();
  });

  it('delivers messages without an id to onEvent, in order', async () => {
    const events: number[] = [];
    const c = client({ onEvent: (m) => events.push(m.event ?? -1) });
    c.post({ op: 'events', count: 5 });
    await c.request(echo('fence'));
    expect(events).toEqual([0, 1, 2, 3, 4]);
    c.close();
  });

  it('abort: the request fails as aborted, and its late answer is dropped, not given to the next one', async () => {
    const c = client();
    const abort = new AbortController();
    const old = c.request(echo('old', 30), { signal: abort.signal });
    abort.abort();
    const e = await failureOf(old);
    expect(e.reason).toBe('aborted');
    expect(isAborted(e)).toBe(true);
    // The new request is answered after the old one (60 ms > 30 ms, same worker thread).
    expect(await c.request(echo('new', 60))).toEqual({ id: 2, value: 'new' });
    expect(c.dropped).toBe(1);
    c.close();
  });

  it('a signal aborted before the request: nothing is sent', async () => {
    const c = client();
    const e = await failureOf(c.request(echo('never'), { signal: AbortSignal.abort() }));
    expect(e.reason).toBe('aborted');
    expect(await c.request(echo('next'))).toEqual({ id: 1, value: 'next' });
    expect(c.dropped).toBe(0);
    c.close();
  });

  it('deadline: a slow answer fails the request, names the worker, and is dropped when it comes', async () => {
    const c = client({ deadlineMs: 40 });
    const e = await failureOf(c.request(echo('late', 150)));
    expect(e.reason).toBe('deadline');
    expect(e.message).toBe('the test worker did not answer within 40 ms');
    expect(await c.request(echo('on time', 200), { deadlineMs: 5000 })).toEqual({ id: 2, value: 'on time' });
    expect(c.dropped).toBe(1);
    c.close();
  });

  it('a worker that throws: waiting requests fail as crashed with its message, later ones at once', async () => {
    const crashes: string[] = [];
    const c = client({ onCrash: (_, detail) => crashes.push(detail) });
    const waiting = [c.request(echo('a', 10_000)), c.request(echo('b', 10_000))];
    c.post({ op: 'crash' });
    for (const p of waiting) {
      const e = await failureOf(p);
      expect(e.reason).toBe('crashed');
      expect(e.message).toBe('the test worker stopped: the worker broke on purpose');
      expect(e.detail).toBe('the worker broke on purpose');
    }
    expect(crashes).toEqual(['the worker broke on purpose']);
    expect(c.failure?.reason).toBe('crashed');
    expect((await failureOf(c.request(echo('after')))).reason).toBe('crashed');
    expect(c.pending).toBe(0);
  });

  it('a worker that exits: waiting requests fail as crashed', async () => {
    const c = client();
    const waiting = c.request(echo('a', 10_000));
    c.post({ op: 'exit' });
    const e = await failureOf(waiting);
    expect(e.reason).toBe('crashed');
    expect(e.message).toBe('the test worker stopped: it exited (code 3)');
  });

  it('close: waiting requests fail as closed, and no event is delivered afterwards', async () => {
    const events: number[] = [];
    let first: () => void = () => {};
    const closed = new Promise<void>((r) => {
      first = r;
    });
    // Closed on the first of 1000 events: the other 999 are already on their way.
    const c = client({
      onEvent: (m) => {
        events.push(m.event ?? -1);
        c.close();
        first();
      },
    });
    const waiting = c.request(echo('a', 10_000));
    c.post({ op: 'events', count: 1000 });
    await closed;
    const e = await failureOf(waiting);
    expect(e.reason).toBe('closed');
    expect(e.message).toBe('the test worker was closed');
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([0]);
    expect((await failureOf(c.request(echo('after')))).reason).toBe('closed');
  });

  it('a request answered in parts: each part to its onPart, in order, and the last message resolves it', async () => {
    const c = client();
    const parts: number[] = [];
    const other: number[] = [];
    const slow = c.request((id) => ({ id, op: 'parts', count: 3, value: 'slow', delayMs: 40 }), { onPart: (m) => other.push(m.part ?? -1) });
    const answer = await c.request((id) => ({ id, op: 'parts', count: 500, value: 'last' }), { onPart: (m) => parts.push(m.part ?? -1) });
    expect(answer).toEqual({ id: 2, value: 'last' });
    expect(parts).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(await slow).toEqual({ id: 1, value: 'slow' });
    expect(other).toEqual([0, 1, 2]);
    expect(c.dropped).toBe(0);
    c.close();
  });

  it('the parts of an aborted request, or of one that takes no parts, are dropped', async () => {
    const c = client();
    const abort = new AbortController();
    const parts: number[] = [];
    const old = c.request((id) => ({ id, op: 'parts', count: 4, value: 'old', delayMs: 30 }), {
      signal: abort.signal,
      onPart: (m) => parts.push(m.part ?? -1),
    });
    abort.abort();
    expect((await failureOf(old)).reason).toBe('aborted');
    // Answered after the aborted one's 4 parts and answer (same worker thread, 60 ms > 30 ms).
    expect(await c.request((id) => ({ id, op: 'parts', count: 2, value: 'new', delayMs: 60 }))).toEqual({ id: 2, value: 'new' });
    expect(parts).toEqual([]);
    expect(c.dropped).toBe(4 + 1 + 2);
    c.close();
  });
});

describe('WorkerClient: a worker error event is handled', () => {
  /** A Web Worker's error event: preventDefault() keeps it from surfacing as the owner's uncaught error. */
  const errorEvent = (message: string) => {
    const event = { message, prevented: false, preventDefault: () => void (event.prevented = true) };
    return event;
  };
  /** What a browser hands the client: a worker whose events the test fires itself. */
  function browserLike() {
    const like: WorkerLike<In, Out> & { terminated: boolean } = {
      onmessage: null,
      onerror: null,
      terminated: false,
      postMessage() {},
      terminate: () => void (like.terminated = true),
    };
    return like;
  }

  it('while it runs: the event is prevented, and the worker crashed', () => {
    const worker = browserLike();
    const c = new WorkerClient<In, Out>(worker, { name: 'the test worker', idOf: (m) => m.id });
    const event = errorEvent('');
    worker.onerror?.(event as unknown as ErrorEvent);
    expect(event.prevented).toBe(true);
    expect(c.failure?.message).toBe('the test worker stopped: it failed to start or crashed');
    expect(worker.terminated).toBe(true);
  });

  it('after close (a worker terminated while loading its script): prevented, and no crash', () => {
    const worker = browserLike();
    const crashes: string[] = [];
    const c = new WorkerClient<In, Out>(worker, { name: 'the test worker', idOf: (m) => m.id, onCrash: (e) => crashes.push(e.message) });
    c.close();
    const event = errorEvent('failed to load');
    worker.onerror?.(event as unknown as ErrorEvent);
    expect(event.prevented).toBe(true);
    expect(c.failure?.reason).toBe('closed');
    expect(crashes).toEqual([]);
  });
});
