// A Node worker thread as the worker client's WorkerLike (../../lib/workers/worker-client.ts):
// the shape of a Web Worker, so the command line's verify pool and the client's tests run on real
// threads. Its messages reach `onmessage` and its uncaught error reaches `onerror`.
//
// Exit semantics, deliberately: a thread that exits without being terminated is dead whatever its
// exit code (a message sent to it would never be answered), so that exit reaches `onerror` too,
// and requests waiting on it fail as crashed. After an uncaught error Node also reports the exit;
// the client has already failed and ignores it. After terminate() nothing more is delivered,
// neither messages nor the exit: stopping the thread was the owner's own doing, not a crash.
import type { TransferListItem, Worker } from 'node:worker_threads';
import type { WorkerLike } from '../../lib/workers/worker-client';

/** `thread` as a WorkerLike: `new Worker(url)` or, in tests, `new Worker(code, { eval: true })`. */
export function nodeWorker<In, Out>(thread: Worker): WorkerLike<In, Out> {
  let terminated = false;
  const like: WorkerLike<In, Out> = {
    onmessage: null,
    onerror: null,
    postMessage: (message, transfer) => thread.postMessage(message, transfer as TransferListItem[] | undefined),
    terminate: () => {
      terminated = true;
      void thread.terminate();
    },
  };
  const error = (message: string) => {
    if (!terminated) like.onerror?.({ message } as ErrorEvent);
  };
  thread.on('message', (data: Out) => {
    if (!terminated) like.onmessage?.({ data } as MessageEvent<Out>);
  });
  thread.on('error', (e: unknown) => error(e instanceof Error ? e.message : String(e)));
  thread.on('exit', (code: number) => error(`it exited (code ${code})`));
  return like;
}
