// Reading a large file in a worker of its own. The log worker holds the whole
// log (hundreds of MB at a million receipts), and Chromium's collector lets dead
// buffers pile up in proportion to a thread's heap: read there, a 2 GB file's
// dropped chunks reached 645 MB between collections. A reader worker's heap is
// tiny, so its chunks are collected soon, and all of its memory goes when it
// ends. It runs `readRecords` (splitting, UTF-8 checks, hashing: the same code
// as everywhere else) and sends the record events back in compact batches,
// a few batches ahead at most. The log worker's side is a WorkerClient: the
// read is one request, answered in parts (the batches), then `done` or
// `error`. Pure: the worker side takes its message port and the log worker's
// side its worker, so tests run them on structured clones.
import { sha256Ready } from '../crypto/sha256';
import { type FileBytes, type ReadJob, readRecords } from '../sources/package';
import type { RecordEvent } from '../sources/records';
import { chunksOf } from './chunks';
import { WorkerClient, WorkerClientError, type WorkerLike } from './worker-client';

/** Record events as columns: a kind, line and byte range each (NaN: none), and the texts (a record's, or an error's message). */
export interface WireEvents {
  /** 0: a record; 1: an error; 2: an error about the whole file. */
  kinds: Uint8Array;
  lines: Float64Array;
  starts: Float64Array;
  ends: Float64Array;
  texts: string[];
}

/** `id`: the client's request id, which every answer carries. `ack`: a batch of events was taken. */
export type ReadRequest = { type: 'read'; id: number; blob: Blob; name: string; job: ReadJob } | { type: 'ack' };
export type ReadResponse =
  /** `bytes`: read since the last message (for the progress bar). */
  | { type: 'events'; id: number; events: WireEvents; bytes: number }
  | { type: 'done'; id: number; result: FileBytes; bytes: number }
  | { type: 'error'; id: number; name: string; message: string };

export interface ReadPort<Out, In> {
  postMessage(message: Out, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<In>) => void) | null;
}

/** The log worker's handle on a reader worker (a Worker, or an in-process stand-in). */
export type ReadWorker = WorkerLike<ReadRequest, ReadResponse>;

export function eventsToWire(events: readonly RecordEvent[]): WireEvents {
  const n = events.length;
  const w: WireEvents = {
    kinds: new Uint8Array(n),
    lines: new Float64Array(n),
    starts: new Float64Array(n),
    ends: new Float64Array(n),
    texts: new Array<string>(n),
  };
  events.forEach((ev, i) => {
    w.lines[i] = ev.line;
    if (ev.kind === 'error') {
      w.kinds[i] = ev.whole ? 2 : 1;
      w.texts[i] = ev.message;
      w.starts[i] = w.ends[i] = NaN;
    } else {
      w.texts[i] = ev.text;
      w.starts[i] = ev.start ?? NaN;
      w.ends[i] = ev.end ?? NaN;
    }
  });
  return w;
}

export function eventsFromWire(w: WireEvents): RecordEvent[] {
  const out: RecordEvent[] = [];
  for (let i = 0; i < w.kinds.length; i++) {
    const line = w.lines[i]!;
    const text = w.texts[i]!;
    if (w.kinds[i] !== 0) out.push(w.kinds[i] === 2 ? { kind: 'error', line, message: text, whole: true } : { kind: 'error', line, message: text });
    else if (Number.isNaN(w.starts[i])) out.push({ kind: 'record', text, line });
    else out.push({ kind: 'record', text, line, start: w.starts[i]!, end: w.ends[i]! });
  }
  return out;
}

const transferOf = (w: WireEvents): ArrayBuffer[] => [w.kinds, w.lines, w.starts, w.ends].map((a) => a.buffer as ArrayBuffer);

/** A batch is sent at this many events, or this many bytes read, whichever comes first. */
const BATCH_EVENTS = 4096;
const BATCH_BYTES = 4 * 1024 * 1024;
/** Batches sent and not yet taken by the log worker, at most. */
const AHEAD = 4;

/** The reader worker's side: answers one `read` request. */
export function serveRead(port: ReadPort<ReadResponse, ReadRequest>): void {
  let unacked = 0;
  let resume: (() => void) | null = null;
  port.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'ack') {
      unacked--;
      resume?.();
      return;
    }
    void read(m).catch((err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ type: 'error', id: m.id, name: e.name, message: e.message });
    });
  };
  const read = async ({ id, blob, name, job }: Extract<ReadRequest, { type: 'read' }>) => {
    await sha256Ready();
    let bytes = 0;
    let events: RecordEvent[] = [];
    const send = async () => {
      const w = eventsToWire(events);
      port.postMessage({ type: 'events', id, events: w, bytes }, transferOf(w));
      events = [];
      bytes = 0;
      unacked++;
      while (unacked >= AHEAD) await new Promise<void>((r) => (resume = r));
      resume = null;
    };
    const file = { name, stream: () => chunksOf(blob.stream() as ReadableStream<Uint8Array>, (n) => (bytes += n)) };
    const run = readRecords(file, job);
    for (;;) {
      const next = await run.next();
      if (next.done) {
        if (events.length > 0) await send();
        port.postMessage({ type: 'done', id, result: next.value, bytes });
        return;
      }
      events.push(next.value);
      if (events.length >= BATCH_EVENTS || bytes >= BATCH_BYTES) await send();
    }
  };
}

/**
 * The log worker's side: reads `blob` with a reader from `spawn` and gives its
 * events and result as `readRecords` would. The reader is stopped when this
 * ends, early or not. A read error keeps its name and message.
 */
export async function* readInWorker(
  spawn: () => ReadWorker,
  blob: Blob,
  name: string,
  job: ReadJob,
  count: (bytes: number) => void,
): AsyncGenerator<RecordEvent, FileBytes> {
  const reader = new WorkerClient<ReadRequest, ReadResponse>(spawn(), { name: 'the file reader', idOf: (m) => m.id, isPart: (m) => m.type === 'events' });
  // The batches and the last answer (or why there is none), in the order they came.
  const inbox: (ReadResponse | Error)[] = [];
  let wake: (() => void) | null = null;
  const take = (m: ReadResponse | Error) => {
    inbox.push(m);
    wake?.();
  };
  reader.request((id) => ({ type: 'read', id, blob, name, job }), { onPart: take }).then(take, (e: unknown) => take(readerFailure(e)));
  try {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((r) => (wake = r));
      wake = null;
      const m = inbox.shift()!;
      if (m instanceof Error) throw m;
      if (m.type === 'error') throw Object.assign(new Error(m.message), { name: m.name });
      count(m.bytes);
      if (m.type === 'done') return m.result;
      reader.post({ type: 'ack' });
      yield* eventsFromWire(m.events);
    }
  } finally {
    reader.close();
  }
}

/** Why a read got no answer: the reader's death in the words people know, or what the client said. */
function readerFailure(e: unknown): Error {
  if (e instanceof WorkerClientError && e.reason === 'crashed') return new Error(`the file reader failed: ${e.detail || 'its script did not load'}`);
  return e instanceof Error ? e : new Error(String(e));
}
