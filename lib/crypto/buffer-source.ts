// Adapts Uint8Array views for WebCrypto calls (spec/verification.md §4).
// TypeScript's BufferSource excludes views over a SharedArrayBuffer, and
// WebCrypto may reject them; such views are copied, others passed as-is
// (WebCrypto copies its inputs at call time, so later mutation is harmless).

export function asBufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
