import { describe, expect, it } from 'vitest';
import { readCapped } from './read-capped';

/** A stream of `chunks`, recording whether the reader cancelled it. */
function source(chunks: number[]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean; pulled: () => number } {
  let cancelled = false;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled === chunks.length) return c.close();
      c.enqueue(new Uint8Array(chunks[pulled]!).fill(pulled + 1));
      pulled++;
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled, pulled: () => pulled };
}

describe('readCapped', () => {
  it('returns every byte, in order, of a stream exactly at the limit', async () => {
    const s = source([3, 0, 2]);
    expect(await readCapped(s.stream, 5)).toEqual(new Uint8Array([1, 1, 1, 3, 3]));
    expect(s.cancelled()).toBe(false);
  });

  it('returns null one byte past the limit, cancelling the stream without reading the rest', async () => {
    const s = source([3, 3, 1000, 1000]);
    expect(await readCapped(s.stream, 5)).toBeNull();
    expect(s.cancelled()).toBe(true);
    expect(s.pulled()).toBeLessThan(4);
  });

  it('returns an empty array for an empty stream', async () => {
    expect(await readCapped(source([]).stream, 0)).toEqual(new Uint8Array(0));
  });
});
