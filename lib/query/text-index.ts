// Case-insensitive substring search over a dictionary's values. The values are
// lower-cased once each and joined, with a NUL between them, into a few large
// strings, so a query is a handful of native indexOf scans over contiguous
// text instead of a million `includes` calls, and the lower-cased copy costs
// no per-string overhead. Grows as the dictionary grows. Pure.

/** Chunks stay well under V8's maximum string length. */
const MAX_CHUNK_CHARS = 1 << 24;
const SEP = '\u0000';

interface Chunk {
  text: string;
  /** Code of the chunk's first value. */
  first: number;
  /** Start of each value in `text`, plus the end. */
  starts: Uint32Array;
}

export class TextIndex {
  private readonly chunks: Chunk[] = [];
  /** Codes below this are in a chunk. */
  private indexed: number;

  /** Values from code 1 on (code 0, "absent", is never a match); `chunkChars` bounds each joined string. */
  constructor(private readonly chunkChars = MAX_CHUNK_CHARS) {
    this.indexed = 1;
  }

  /** Marks in `hit` (one byte per code) every value containing `q` (already lower-case, without NUL). */
  search(values: readonly string[], q: string, hit: Uint8Array): void {
    this.extend(values);
    if (q.length === 0 || q.includes(SEP)) return;
    for (const c of this.chunks) {
      let at = c.text.indexOf(q);
      let k = 0;
      while (at >= 0) {
        // The value holding `at`: the last start ≤ at. Starts ascend and matches move forward:
        // step a few values (dense matches), then jump by halves.
        const last = c.starts.length - 2;
        for (let step = 0; step < 8 && k < last && c.starts[k + 1]! <= at; step++) k++;
        if (k < last && c.starts[k + 1]! <= at) {
          let lo = k + 1;
          let hi = last;
          while (lo < hi) {
            const mid = (lo + hi + 1) >>> 1;
            if (c.starts[mid]! <= at) lo = mid;
            else hi = mid - 1;
          }
          k = lo;
        }
        hit[c.first + k] = 1;
        // Next match after this value: one hit per value is enough.
        at = c.text.indexOf(q, c.starts[k + 1]!);
      }
    }
  }

  /** Indexes up to `maxValues` more values ahead of a search (idle time); true once all are. */
  warm(values: readonly string[], maxValues: number): boolean {
    if (this.indexed < values.length) this.extend(values, Math.min(values.length, this.indexed + maxValues));
    return this.indexed >= values.length;
  }

  private extend(values: readonly string[], upTo = values.length): void {
    while (this.indexed < upTo) {
      const first = this.indexed;
      const parts: string[] = [];
      const starts: number[] = [];
      let chars = 0;
      let code = first;
      for (; code < upTo && (chars < this.chunkChars || parts.length === 0); code++) {
        const v = values[code]!.toLowerCase();
        starts.push(chars);
        parts.push(v);
        chars += v.length + 1;
      }
      starts.push(chars);
      this.chunks.push({ text: parts.join(SEP) + SEP, first, starts: Uint32Array.from(starts) });
      this.indexed = code;
    }
  }
}
