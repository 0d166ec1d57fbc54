// Reads a byte stream whole, up to a cap: the bytes, or null as soon as the stream runs past
// `limit` (then the stream is cancelled, so an attacker-sized body is never buffered).
import { concatBytes } from './hex';

export async function readCapped(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  return concatBytes(...parts);
}
