// ZeroClaw's tool receipts (other-dialects.md §1): `zc-receipt-<secs>-<tag>`,
// where the tag is the unpadded base64url of an HMAC-SHA256 over
// `tool_name|args_json|result|secs`. The key is ephemeral (in memory, per
// receipt scope), so nobody but the runtime can recompute a real one; with a
// key the user supplies (tests, debugging) we recompute it exactly. Pure.
import { fromBase64, toBase64 } from '../../bytes/hex';
import { type JsonValue, JsonNumber } from '../../json/value';

export const ZC_PREFIX = 'zc-receipt-';
const TAG_CHARS = 43;
/** A 32-byte tag leaves the last character's low two bits unused: canonical ones end in these. */
const CANONICAL_LAST = 'AEIMQUYcgkosw048';
const U64_MAX = 2n ** 64n - 1n;

export type ZcParsed = { ok: true; timestamp: bigint; tag: Uint8Array } | { ok: false; reason: string };

/**
 * The strict form (§1.2): the prefix, a canonical decimal u64 of seconds (no
 * sign, no leading zeros), `-`, and 43 characters of canonical unpadded
 * base64url. The tag may itself hold `-`: the split is at the first `-` after
 * the prefix, as ZeroClaw's parse_receipt does.
 */
export function parseZcReceipt(s: string): ZcParsed {
  if (!s.startsWith(ZC_PREFIX)) return { ok: false, reason: `it does not start with "${ZC_PREFIX}"` };
  const rest = s.slice(ZC_PREFIX.length);
  const dash = rest.indexOf('-');
  if (dash < 0) return { ok: false, reason: 'it has no "-" between the timestamp and the tag' };
  const secs = rest.slice(0, dash);
  const tag = rest.slice(dash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(secs)) {
    return { ok: false, reason: `its timestamp "${secs}" is not plain decimal seconds (digits only, no sign, no leading zero)` };
  }
  const timestamp = BigInt(secs);
  if (timestamp > U64_MAX) return { ok: false, reason: `its timestamp ${secs} is larger than a u64` };
  if (tag.includes('=')) return { ok: false, reason: 'its tag is padded with "=" (ZeroClaw writes base64url without padding)' };
  const bad = /[^A-Za-z0-9_-]/.exec(tag)?.[0];
  if (bad !== undefined) return { ok: false, reason: `its tag holds ${JSON.stringify(bad)}, which is not base64url (A–Z, a–z, 0–9, "-", "_")` };
  if (tag.length !== TAG_CHARS) return { ok: false, reason: `its tag has ${tag.length} characters; a 32-byte HMAC-SHA256 tag has ${TAG_CHARS}` };
  if (!CANONICAL_LAST.includes(tag[TAG_CHARS - 1]!)) {
    return { ok: false, reason: `its tag's last character "${tag[TAG_CHARS - 1]}" is not canonical: a 32-byte tag ends in one of ${CANONICAL_LAST}` };
  }
  // 43 canonical characters: standard base64 of 32 bytes once padded (the project's strict decoder).
  const bytes = fromBase64(`${tag.replace(/-/g, '+').replace(/_/g, '/')}=`);
  if (bytes === null) return { ok: false, reason: 'its tag is not canonical base64url' };
  return { ok: true, timestamp, tag: bytes };
}

/** Unpadded base64url of bytes (the tag's form). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export type ArgsJson = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Tool-call arguments as ZeroClaw MACs them (§1.3): serde_json's compact
 * `Value::to_string()` with every object's keys sorted by UTF-8 byte order (a
 * BTreeMap), serde_json's string escapes, integers as written, and other
 * numbers as the f64 they parse to, printed as Rust's ryu does (`1.0`, `1e21`,
 * `1.5e-7`). Inferred from serde_json's behaviour (the spec says so).
 */
export function zeroclawArgsJson(v: JsonValue): ArgsJson {
  try {
    return { ok: true, text: write(v) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

function write(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quote(v);
  if (v instanceof JsonNumber) return number(v.raw);
  if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
  const keys = [...v.keys()].sort(byCodePoint);
  return `{${keys.map((k) => `${quote(k)}:${write(v.get(k)!)}`).join(',')}}`;
}

/** UTF-8 byte order is code point order (JS compares UTF-16 units, which differs past the BMP). */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * serde_json's escaping: the short escapes, other control characters as lowercase \u00xx, everything
 * else raw. JSON.stringify writes exactly that for a well-formed string (the parser refuses lone
 * surrogates, the one case where they differ).
 */
const quote = (s: string): string => JSON.stringify(s);

const I64_MIN = -(2n ** 63n);

/** A number as serde_json re-prints it: u64 and i64 integers exactly; `-0` and everything else as an f64. */
function number(raw: string): string {
  if (/^-?\d+$/.test(raw)) {
    const n = BigInt(raw);
    const negative = raw.startsWith('-');
    if (!negative && n <= U64_MAX) return n.toString();
    if (negative && n < 0n && n >= I64_MIN) return n.toString();
  }
  const x = Number(raw);
  if (!Number.isFinite(x)) throw new Error(`the number ${raw} is out of range for serde_json (an f64)`);
  return ryu(x);
}

/** Rust ryu's format64: shortest round-trip digits, decimal up to 16 integer digits or 5 leading zeros, else `de` exponent form. */
function ryu(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, e] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const length = digits.length;
  const kk = Number(e) + 1; // 10^(kk-1) <= |x| < 10^kk
  const k = kk - length;
  let body: string;
  if (k >= 0 && kk <= 16) body = `${digits}${'0'.repeat(k)}.0`;
  else if (kk > 0 && kk <= 16) body = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) body = `0.${'0'.repeat(-kk)}${digits}`;
  else if (length === 1) body = `${digits}e${kk - 1}`;
  else body = `${digits[0]}.${digits.slice(1)}e${kk - 1}`;
  return sign + body;
}

/** The bytes ZeroClaw MACs: `tool_name|args_json|result|secs`, no escaping, no length prefixes. An empty result is MACed as `(no output)`. */
export function zcMacInput(toolName: string, argsJson: string, result: string, timestamp: bigint): Uint8Array {
  return new TextEncoder().encode(`${toolName}|${argsJson}|${result === '' ? '(no output)' : result}|${timestamp}`);
}

/** The user's key as a WebCrypto HMAC-SHA256 key: imported once, then used for every tag. */
export function hmacKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** HMAC-SHA256 with WebCrypto (the browser's and Node's), never a hand-rolled MAC. */
export async function hmacSha256(key: CryptoKey, message: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message as BufferSource));
}
