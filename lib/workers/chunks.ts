// A ReadableStream's chunks, for the loaders. Browser and Node alike.
import type { Counter } from '../sources/load-sources';

export type { Counter };

/**
 * A ReadableStream as an async iterable of chunks (not every engine iterates
 * streams natively). Each chunk is left to the garbage collector, never
 * detached by hand: Chromium frees a dropped chunk when V8 next collects (it
 * counts the chunk against the heap's external memory), while a chunk detached
 * with ArrayBuffer.prototype.transfer(0) stops counting but stays in memory
 * until a full collection (reading a 2 GB file that way peaked at 2.0 GB of the
 * renderer's PSS; dropping the chunks, at 0.35 GB).
 *
 * Not a BYOB reader into one reused buffer: Chromium's File stream read that
 * way sometimes never resolves a read mid-file (4 of 14 loads of the 2 GiB
 * e2e log on a busy machine stalled for good; 0 of 10 with this reader).
 */
export async function* chunksOf(stream: ReadableStream<Uint8Array>, count: Counter): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      count(value.length);
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
