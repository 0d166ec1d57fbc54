// A receipt bundle: one receipt exactly as its source holds it, with the
// checkpoint that covers it and its inclusion proof, so it can be verified on
// its own anywhere (the receipt page, a share link, `receipt-audit verify`).
// Share links carry it compressed in the URL fragment, which browsers never
// send to a server. Everything decoded here is attacker-controlled: sizes are
// bounded and the shape is checked before anything is verified.
import { DIALECT_FAMILIES } from '../dialects/families';
import { fromBase64, toBase64 } from '../bytes/hex';
import { readCapped } from '../bytes/read-capped';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from '../verify/log-verifier';
import type { VerificationReport } from '../verdict/report';
import type { BundleRole, ReceiptBundle } from '../sources/receipt-bundle';

/** Decompressed bundles larger than this are refused (a link is not a log). */
export const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;
/** Fragments longer than this are refused before decoding. */
export const MAX_FRAGMENT_CHARS = 8 * 1024 * 1024;

const ROLES: readonly string[] = ['tool', 'child', 'http'];

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array | null> {
  const writer = stream.writable.getWriter();
  void writer
    .write(bytes as Uint8Array<ArrayBuffer>)
    .then(() => writer.close())
    .catch(() => undefined);
  return readCapped(stream.readable, limit);
}

const toBase64Url = (b: Uint8Array) => toBase64(b).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The bundle as a URL-fragment-safe string: deflate-raw of its JSON, base64url. */
export async function encodeBundle(bundle: ReceiptBundle): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(bundle));
  const packed = await pipe(json, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER);
  return toBase64Url(packed!);
}

export type DecodedBundle = { ok: true; bundle: ReceiptBundle } | { ok: false; message: string };

/** Reads a bundle from a fragment string; every failure says what is wrong with the link. */
export async function decodeBundle(text: string): Promise<DecodedBundle> {
  if (text.length > MAX_FRAGMENT_CHARS)
    return { ok: false, message: `the link's fragment is ${text.length} characters; at most ${MAX_FRAGMENT_CHARS} are read` };
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return { ok: false, message: "the link's fragment is not base64url (was it cut or changed?)" };
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const packed = fromBase64(b64);
  if (!packed) return { ok: false, message: "the link's fragment is not base64url (was it cut or changed?)" };
  let json: Uint8Array | null;
  try {
    json = await pipe(packed, new DecompressionStream('deflate-raw'), MAX_BUNDLE_BYTES);
  } catch {
    return { ok: false, message: "the link's fragment does not decompress (was it cut or changed?)" };
  }
  if (!json) return { ok: false, message: `the link's bundle is larger than ${MAX_BUNDLE_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    return { ok: false, message: "the link's bundle is not JSON" };
  }
  return checkShape(value);
}

function checkShape(value: unknown): DecodedBundle {
  const bad = (what: string): DecodedBundle => ({ ok: false, message: `the link's bundle ${what}` });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('is not an object');
  const o = value as Record<string, unknown>;
  if (o.v !== 1) return bad(`has version ${JSON.stringify(o.v)}; this page reads version 1`);
  if (typeof o.role !== 'string' || !ROLES.includes(o.role)) return bad('has no receipt role (tool, child or http)');
  if (typeof o.receipt !== 'string') return bad('holds no receipt');
  for (const k of ['checkpoint', 'proof'] as const) if (o[k] !== undefined && typeof o[k] !== 'string') return bad(`has a ${k} that is not text`);
  if (o.logSeq !== undefined && !(typeof o.logSeq === 'string' && /^\d{1,20}$/.test(o.logSeq))) return bad('has a logSeq that is not a decimal integer');
  const bundle: ReceiptBundle = { v: 1, role: o.role as BundleRole, receipt: o.receipt };
  if (typeof o.logSeq === 'string') bundle.logSeq = o.logSeq;
  if (typeof o.checkpoint === 'string') bundle.checkpoint = o.checkpoint;
  if (typeof o.proof === 'string') bundle.proof = o.proof;
  const origin = o.origin as Record<string, unknown> | undefined;
  if (origin && typeof origin === 'object' && typeof origin.source === 'string' && typeof origin.file === 'string' && Number.isSafeInteger(origin.line)) {
    bundle.origin = { source: origin.source.slice(0, 500), file: origin.file.slice(0, 500), line: origin.line as number };
  }
  return { ok: true, bundle };
}

/** File names the bundle's records get in reports and in the downloadable package. */
export const BUNDLE_FILES = { receipt: 'receipt.json', checkpoint: 'checkpoints.ndjson', proof: 'inclusion-proofs.ndjson' } as const;

/**
 * Verifies the bundle on its own, with the same verifier as a whole log: the
 * receipt's checks, the checkpoint's signature, and inclusion through the proof.
 */
export async function verifyBundle(bundle: ReceiptBundle, trust: TrustStore = TrustStore.empty()): Promise<VerificationReport> {
  const v = new LogVerifier({ trust, families: DIALECT_FAMILIES });
  const space = 'bundle';
  if (bundle.checkpoint !== undefined) await v.addRecord(bundle.checkpoint, { file: BUNDLE_FILES.checkpoint, line: 1, role: 'checkpoint', space });
  await v.addRecord(bundle.receipt, {
    file: BUNDLE_FILES.receipt,
    line: 1,
    role: bundle.role,
    space,
    ...(bundle.logSeq !== undefined ? { logSeq: BigInt(bundle.logSeq) } : {}),
  });
  if (bundle.proof !== undefined) await v.addRecord(bundle.proof, { file: BUNDLE_FILES.proof, line: 1, role: 'proof', space });
  return v.finish();
}

/**
 * The bundle as an NDJSON file `receipt-audit verify` reads: the checkpoint,
 * the receipt (wrapped with its log position when the record does not carry
 * one) and the proof, one record per line, the receipt's bytes unchanged.
 */
export function bundleToNdjson(bundle: ReceiptBundle): string {
  const oneLine = (t: string) => (/[\r\n]/.test(t) ? null : t);
  const receipt = bundle.logSeq !== undefined && bundle.role === 'tool' ? `{"seq":${bundle.logSeq},"receipt":${bundle.receipt}}` : bundle.receipt;
  const lines = [bundle.checkpoint, receipt, bundle.proof].filter((t): t is string => t !== undefined);
  // NDJSON needs one record per line; pretty-printed source records are kept as a JSON array instead.
  if (lines.every((l) => oneLine(l) !== null)) return lines.join('\n') + '\n';
  return `[${lines.join(',\n')}]\n`;
}
