// RFC 8785 JSON Canonicalization Scheme over the lossless tree (contract §3;
// chio-format.md §1). Keys sort by UTF-16 code units; integer literals print
// from their source text (`-0` → `0`), so u64 values above 2^53 stay exact;
// other numbers print the ECMAScript way; strings use the minimal RFC 8785
// escapes with DEL and C1 controls raw. The `legacyC1` variant escapes
// U+007F–U+009F as `\u00xx` like old Rust Chio (`char::is_control`), used only
// for the legacy signature retry.
import { JsonNumber, type JsonObject, type JsonValue } from './value';

export interface CanonicalizeOptions {
  /** Escape U+007F–U+009F too (the pre-fix Rust behaviour). */
  legacyC1?: boolean;
}

const encoder = new TextEncoder();

/** Canonical JSON text. */
export function canonicalize(value: JsonValue, options: CanonicalizeOptions = {}): string {
  return text(value, options.legacyC1 === true);
}

/** Canonical JSON as UTF-8 bytes: what Chio signs and hashes. */
export function canonicalBytes(value: JsonValue, options: CanonicalizeOptions = {}): Uint8Array {
  return encoder.encode(canonicalize(value, options));
}

/**
 * Canonical UTF-8 of an object and of a larger one holding every member of it
 * (the same values) and more, e.g. a receipt's signed body and the full
 * receipt with its signature: each shared member is serialized once. When
 * `outer` is not such a superset, both are canonicalized separately.
 */
export function canonicalBytesPair(inner: JsonObject, outer: JsonObject): [Uint8Array, Uint8Array] {
  for (const [k, v] of inner) {
    if (outer.get(k) !== v) return [canonicalBytes(inner), canonicalBytes(outer)];
  }
  const members = new Map<string, string>();
  for (const [k, v] of outer) members.set(k, quoteKey(k, false) + ':' + text(v, false));
  const keys = [...members.keys()].sort();
  const join = (ks: string[]) => `{${ks.map((k) => members.get(k)!).join(',')}}`;
  return [encoder.encode(join(keys.filter((k) => inner.has(k)))), encoder.encode(join(keys))];
}

/** True when some string (key or value) in the tree holds U+007F–U+009F. */
export function containsC1OrDel(value: JsonValue): boolean {
  if (typeof value === 'string') return C1_OR_DEL.test(value);
  if (Array.isArray(value)) return value.some(containsC1OrDel);
  if (value instanceof Map) {
    for (const [k, v] of value) if (C1_OR_DEL.test(k) || containsC1OrDel(v)) return true;
  }
  return false;
}

const C1_OR_DEL = /[\u007f-\u009f]/;

// Strings are built by concatenation (V8 joins the pieces once, when the text is encoded), and
// object keys, which repeat across every receipt of a log, are quoted once.
function text(value: JsonValue, legacyC1: boolean): string {
  if (typeof value === 'string') return quote(value, legacyC1);
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (value instanceof JsonNumber) return formatNumber(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + text(value[i]!, legacyC1);
    return out + ']';
  }
  // Default sort compares UTF-16 code units, exactly what RFC 8785 §3.2.3 requires.
  const keys = [...value.keys()].sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out += (i > 0 ? ',' : '') + quoteKey(k, legacyC1) + ':' + text(value.get(k)!, legacyC1);
  }
  return out + '}';
}

const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_MAX = 10_000;

function quoteKey(k: string, legacyC1: boolean): string {
  if (legacyC1) return quote(k, true);
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = quote(k, false);
    if (quotedKeys.size >= QUOTED_KEYS_MAX) quotedKeys.clear(); // keys of hostile logs never pile up
    quotedKeys.set(k, q);
  }
  return q;
}

/** RFC 8785 §3.2.2.3 number serialization, lossless for integer literals. */
export function formatNumber(n: JsonNumber): string {
  const raw = n.raw;
  if (n.isIntegerLiteral) {
    // JSON grammar forbids leading zeros, so the only non-canonical integer is -0.
    return raw === '-0' ? '0' : raw;
  }
  const v = Number(raw);
  if (!Number.isFinite(v)) throw new RangeError(`cannot canonicalize non-finite number ${raw}`);
  // String(-0) is "0"; String() is ECMAScript Number::toString, which RFC 8785 adopts.
  return String(v);
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const NEEDS_ESCAPE_LEGACY = /["\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]/;

function quote(s: string, legacyC1: boolean): string {
  if (!(legacyC1 ? NEEDS_ESCAPE_LEGACY : NEEDS_ESCAPE).test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c < 0x20 || (legacyC1 && c >= 0x7f && c <= 0x9f)) out += escapeControl(c);
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      // A lone surrogate cannot be encoded as UTF-8; the parser already rejects
      // them, so reaching this is a programming error, not hostile input.
      if (!(d >= 0xdc00 && d <= 0xdfff)) throw new RangeError('lone surrogate in canonicalized string');
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      throw new RangeError('lone surrogate in canonicalized string');
    } else out += s[i];
  }
  return out + '"';
}

function escapeControl(c: number): string {
  switch (c) {
    case 0x08:
      return '\\b';
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0c:
      return '\\f';
    case 0x0d:
      return '\\r';
    default:
      return `\\u${c.toString(16).padStart(4, '0')}`;
  }
}
