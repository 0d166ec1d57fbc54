// Freeing an ArrayBuffer's memory now instead of at the next major garbage
// collection: ArrayBuffer.prototype.transfer(0) detaches it (every view of it
// reads as empty) and releases its backing store. Chromium waits for a full
// collection to free a dead buffer, and a log worker reading gigabytes makes
// hundreds of megabytes of them between collections. Where transfer is
// missing (Node 20), the collector frees the buffer later, as before.
type Transferable = ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };

export function freeNow(buffer: ArrayBufferLike): void {
  if (buffer instanceof ArrayBuffer) (buffer as Transferable).transfer?.(0);
}
