// The main thread's one way to talk to a worker (house style: langfuse's worker client). Each
// request gets an id its answer must carry; it can be cancelled with an AbortSignal and fails
// after a deadline; an answer to a request no longer waited for (aborted, timed out, or sent to a
// worker since closed) is dropped, never delivered to a newer one. Messages that answer no request
// (a log's progress and rows) go to `onEvent`, in order, until the client is closed. A request
// may be answered by several messages (a file reader's batches of records): its parts go to its
// `onPart` in order, and its last message resolves it. When the worker dies, every waiting
// request fails with a WorkerClientError that names the worker.
//
// Framework-free and typed by the worker's protocol (`In` what the page sends, `Out` what the
// worker posts). It never constructs a worker: the caller passes one (a Web Worker, whose
// `new Worker(new URL(…))` the bundler must see, or Node's worker_threads in tests).

/** What the client needs of a worker: a Web Worker has this shape (lib/workers/pool.ts types it by its protocol). */
export interface WorkerLike<In, Out> {
  postMessage(message: In, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<Out>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

/** Why a request did not get its answer. */
export type WorkerFailure = 'aborted' | 'deadline' | 'crashed' | 'closed';

export class WorkerClientError extends Error {
  constructor(
    readonly reason: WorkerFailure,
    message: string,
    /** `crashed`: the worker's own message ('' when it gave none), for callers that word the failure themselves. */
    readonly detail = '',
  ) {
    super(message);
    this.name = 'WorkerClientError';
  }
}

/** Whether `e` is a request the caller cancelled itself (nothing to report to anyone). */
export function isAborted(e: unknown): boolean {
  return e instanceof WorkerClientError && e.reason === 'aborted';
}

export interface WorkerClientOptions<Out> {
  /** The worker for people, as errors name it: "the log worker". */
  name: string;
  /** The request id an answer carries; undefined for a message that answers no request. */
  idOf: (message: Out) => number | undefined;
  /**
   * Whether an answer is one part of several (it goes to its request's `onPart`, and the request
   * waits on for a message that is not a part). Without it, a request's first answer is its last.
   */
  isPart?: (message: Out) => boolean;
  /** Messages that answer no request, in the order the worker sent them. Never called once closed or crashed. */
  onEvent?: (message: Out) => void;
  /** The worker died, after every waiting request failed. `detail`: the worker's own message ('' when it gave none). */
  onCrash?: (error: WorkerClientError, detail: string) => void;
  /** The deadline of a request that names none (ms); without it, requests wait as long as the worker lives. */
  deadlineMs?: number;
}

export interface RequestOptions<Out = unknown> {
  signal?: AbortSignal;
  /** Fails the request when no answer came within this many ms (overrides the client's). */
  deadlineMs?: number;
  transfer?: Transferable[];
  /** The request's parts (see `isPart`), in order, as they come; the deadline is the whole request's. */
  onPart?: (part: Out) => void;
}

interface Waiter<Out> {
  resolve: (answer: Out) => void;
  fail: (error: WorkerClientError) => void;
  onPart: ((part: Out) => void) | undefined;
}

export class WorkerClient<In, Out> {
  private readonly waiting = new Map<number, Waiter<Out>>();
  private nextId = 1;
  /** Set once the worker is closed or dead: every later request fails with it. */
  private ended: WorkerClientError | null = null;
  /** Answers that arrived for no waiting request (aborted, timed out, or never sent by this client). */
  dropped = 0;

  constructor(
    private readonly worker: WorkerLike<In, Out>,
    private readonly options: WorkerClientOptions<Out>,
  ) {
    worker.onmessage = (e) => this.receive(e.data);
    worker.onerror = (e) => {
      handled(e);
      this.crash(typeof e?.message === 'string' ? e.message : '');
    };
  }

  /** Requests still waiting for their answer. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Why the client takes no more requests (closed or crashed), or null while it does. */
  get failure(): WorkerClientError | null {
    return this.ended;
  }

  /** Sends a message that expects no answer (a log's `open` or `cancel`); nothing once closed or crashed. */
  post(message: In, transfer?: Transferable[]): void {
    if (this.ended) return;
    if (transfer) this.worker.postMessage(message, transfer);
    else this.worker.postMessage(message);
  }

  /** Sends `build(id)` and resolves with the worker's message that carries `id`. */
  request(build: (id: number) => In, options: RequestOptions<Out> = {}): Promise<Out> {
    if (this.ended) return Promise.reject(this.ended);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(this.aborted());
    const id = this.nextId++;
    return new Promise<Out>((resolve, reject) => {
      const deadlineMs = options.deadlineMs ?? this.options.deadlineMs;
      const done = () => {
        this.waiting.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(this.aborted());
      };
      const timer =
        deadlineMs === undefined
          ? undefined
          : setTimeout(() => {
              done();
              reject(new WorkerClientError('deadline', `${this.options.name} did not answer within ${formatMs(deadlineMs)}`));
            }, deadlineMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        fail: (error) => {
          done();
          reject(error);
        },
        onPart: options.onPart,
      });
      try {
        this.post(build(id), options.transfer);
      } catch (e) {
        // A message that cannot be cloned (the caller's mistake) was never sent: its own error.
        done();
        reject(e);
      }
    });
  }

  /** Stops the worker: waiting requests fail (`closed`) and nothing it still sends is delivered. */
  close(): void {
    if (this.ended) return;
    this.end(new WorkerClientError('closed', `${this.options.name} was closed`));
    this.worker.terminate();
  }

  private receive(message: Out): void {
    if (this.ended) return;
    const id = this.options.idOf(message);
    if (id === undefined) {
      this.options.onEvent?.(message);
      return;
    }
    const waiter = this.waiting.get(id);
    if (!waiter) this.dropped++;
    else if (!this.options.isPart?.(message)) waiter.resolve(message);
    else if (waiter.onPart) waiter.onPart(message);
    else this.dropped++;
  }

  private crash(detail: string): void {
    if (this.ended) return;
    const error = new WorkerClientError('crashed', `${this.options.name} stopped: ${detail || 'it failed to start or crashed'}`, detail);
    this.end(error);
    this.worker.terminate();
    this.options.onCrash?.(error, detail);
  }

  private end(error: WorkerClientError): void {
    this.ended = error;
    this.worker.onmessage = null;
    // Still handled: a worker terminated while it loads its script reports a failed load, which is
    // no news once the client ended, and must not surface as the owner's uncaught error either.
    this.worker.onerror = handled;
    for (const waiter of [...this.waiting.values()]) waiter.fail(error);
    this.waiting.clear();
  }

  private aborted(): WorkerClientError {
    return new WorkerClientError('aborted', `the request to ${this.options.name} was cancelled`);
  }
}

/**
 * A worker's error event is the client's to report: unhandled, it would also surface as an
 * uncaught error of the thread that owns the worker (for a worker started by a worker, the log
 * worker's, which would then look dead to the page). Node's adapter has no preventDefault.
 */
function handled(e: ErrorEvent | null | undefined): void {
  e?.preventDefault?.();
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
