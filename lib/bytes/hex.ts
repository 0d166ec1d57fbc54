// Byte/hex/base64 conversions used at the edges of lib/. Strict: a malformed
// encoding is reported (null), never silently truncated or coerced.

const HEX_CHARS = '0123456789abcdef';
const HEX_TABLE: string[] = Array.from({ length: 256 }, (_, i) => HEX_CHARS[i >> 4]! + HEX_CHARS[i & 15]!);

// Each byte's two hex digits as ASCII codes, and a scratch buffer for one piece of output.
const HEX_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  HEX_CODES[2 * i] = HEX_TABLE[i]!.charCodeAt(0);
  HEX_CODES[2 * i + 1] = HEX_TABLE[i]!.charCodeAt(1);
}
const PIECE_BYTES = 8192;
const pieceCodes = new Uint8Array(2 * PIECE_BYTES);
const ASCII = new TextDecoder();

/**
 * Lowercase hex of `bytes`, as one flat string (the digits' ASCII codes decoded at once). Built by
 * `+=`, a 64-digit hash was a chain of 32 pieces until first read: about 870 bytes instead of 90,
 * and a log keeps millions of them; decoding is also about twice as fast.
 */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let start = 0; start < bytes.length; start += PIECE_BYTES) {
    const n = Math.min(PIECE_BYTES, bytes.length - start);
    for (let i = 0; i < n; i++) {
      const k = 2 * bytes[start + i]!;
      pieceCodes[2 * i] = HEX_CODES[k]!;
      pieceCodes[2 * i + 1] = HEX_CODES[k + 1]!;
    }
    const piece = ASCII.decode(pieceCodes.subarray(0, 2 * n));
    out = start === 0 ? piece : out + piece;
  }
  return out;
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/**
 * Decodes hex (either case). Returns null for odd length or any non-hex
 * character. `expectedBytes`, when given, must match exactly.
 */
export function fromHex(hex: string, expectedBytes?: number): Uint8Array | null {
  if (hex.length % 2 !== 0) return null;
  const out = new Uint8Array(hex.length / 2);
  if (expectedBytes !== undefined && out.length !== expectedBytes) return null;
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** True when `s` is non-empty lowercase hex of exactly `chars` characters (any length if omitted). */
export function isLowerHex(s: string, chars?: number): boolean {
  if (chars !== undefined && s.length !== chars) return false;
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Strict standard base64 (with padding) to bytes; null when malformed. */
export function fromBase64(b64: string): Uint8Array | null {
  if (b64.length % 4 !== 0) return null;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return null;
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  // Reject non-canonical padding bits: re-encoding must give the same text.
  if (toBase64(out) !== b64) return null;
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin);
}

/** Constant-shape equality of two byte arrays. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const encoder = new TextEncoder();
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
