// Server side only: the records of an evidence package as the fleet's index rows (issue 9). Pure
// (no I/O), so the ingest's parse workers (./parse-worker.ts) and the main thread share it.
// Every value is read from the receipt itself (JSON.parse; a number beyond 2^53 is read again,
// exactly, by the lossless parser). A record that cannot be indexed throws Reject with the reason.
import { parseJson } from '../../lib/json/parse';
import { isJsonNumber, isJsonObject, type JsonValue } from '../../lib/json/value';
import { tsvField } from './clickhouse';

const HEX64 = /^[0-9a-f]{64}$/;
const DIGITS = /^(?:0|[1-9][0-9]*)$/;
const SEQ = /^(?:0|[1-9][0-9]{0,19})$/;
const U64_MAX = (1n << 64n) - 1n;

/**
 * `{"seq":N,"receipt":R}` as Chio's export writes it: R is then the receipt's exact text (once
 * JSON.parse has read R as one object, nothing else can follow it in the line).
 */
export function receiptLine(line: string): { seq: string; raw: string } | null {
  if (!line.startsWith('{"seq":')) return null;
  const at = line.indexOf(',"receipt":', 7);
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) <= 32) end--;
  if (at < 0 || line[end - 1] !== '}') return null;
  const seq = line.slice(7, at);
  return SEQ.test(seq) ? { seq, raw: line.slice(at + 11, end - 1) } : null;
}

export class Reject extends Error {}

export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function text(o: Record<string, unknown>, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new Reject(`${what}.${key} must be a string`);
  return v;
}

function optText(o: Record<string, unknown> | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

/** A u64 field, exact: a number JSON.parse could not hold exactly is read again from the digits. */
function u64Of(o: Record<string, unknown>, key: string, what: string, text: string, at: string[]): bigint {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Reject(`${what}.${key} must be a non-negative integer`);
  if (Number.isSafeInteger(v)) return BigInt(v);
  const raw = exactAt(text, [...at, key]);
  if (!isJsonNumber(raw) || !DIGITS.test(raw.raw) || BigInt(raw.raw) >= 1n << 64n) throw new Reject(`${what}.${key} must be a u64`);
  return BigInt(raw.raw);
}

/** The exact JSON value at `keys` of `text` (lossless parse; only for the rare number beyond 2^53). */
function exactAt(raw: string, keys: string[]): JsonValue | undefined {
  const parsed = parseJson(raw);
  if (!parsed.ok) return undefined;
  let v: JsonValue | undefined = parsed.value;
  for (const k of keys) v = isJsonObject(v) ? v.get(k) : undefined;
  return v;
}

/** metadata.financial.cost_charged as written when it is a non-negative integer, else ''. */
function costOf(receipt: Record<string, unknown>, raw: string): string {
  const v = obj(obj(obj(receipt.metadata)?.financial))?.cost_charged;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return '';
  if (Number.isSafeInteger(v)) return String(v);
  const exact = exactAt(raw, ['metadata', 'financial', 'cost_charged']);
  return isJsonNumber(exact) && DIGITS.test(exact.raw) ? exact.raw : '';
}

/** What the index keeps of a receipt: `tail` is its TSV row after fleet_seq (assigned later), `raw` its JSON's TSV field. */
export interface IndexedReceipt {
  kernel: string;
  kind: 'tool' | 'child';
  seq: bigint;
  id: string;
  tail: string;
  raw: string;
}

/** How a package's receipts are indexed: its kernel, its lineage's subjects, its checkpointed batches. */
export interface PackageContext {
  /** The signer of the package's checkpoints, when it has any. */
  kernel?: string;
  /** capability_id → subject_key, for receipts without metadata.attribution. */
  subjects: Map<string, string>;
  /** [batch_start_seq, batch_end_seq, checkpoint_seq], sorted by start. */
  batches: [bigint, bigint, bigint][];
  /** The package folder (or store) as given, stored with each row. */
  source: string;
}

function checkpointFor(batches: PackageContext['batches'], seq: bigint): bigint {
  let [lo, hi] = [0, batches.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e, cp] = batches[mid]!;
    if (seq < s) hi = mid - 1;
    else if (seq > e) lo = mid + 1;
    else return cp;
  }
  return 0n;
}

/** A receipt line of receipts.ndjson or child-receipts.ndjson as an index row; throws Reject or SyntaxError. */
export function indexReceipt(line: string, kind: 'tool' | 'child', ctx: PackageContext): IndexedReceipt {
  const r = receiptOf(line, kind, ctx.kernel, ctx.subjects);
  const checkpointSeq = kind === 'tool' ? checkpointFor(ctx.batches, r.seq) : 0n;
  const fields = [
    r.kernel,
    r.kind,
    r.seq,
    r.id,
    r.signer,
    r.timestamp,
    r.capabilityId,
    r.subjectKey,
    r.toolServer,
    r.toolName,
    r.decision,
    r.cost,
    r.currency,
    checkpointSeq,
    ctx.source,
  ];
  return { kernel: r.kernel, kind, seq: r.seq, id: r.id, tail: fields.map(tsvField).join('\t'), raw: tsvField(r.raw) };
}

/** The columns of a receipts row: fleet_seq, then those `tail` holds, in order. */
export const RECEIPT_COLUMNS = [
  'fleet_seq',
  'kernel_key',
  'kind',
  'seq',
  'receipt_id',
  'signer_key',
  'timestamp',
  'capability_id',
  'subject_key',
  'tool_server',
  'tool_name',
  'decision_kind',
  'cost_digits',
  'currency',
  'checkpoint_seq',
  'source',
] as const;
/** The columns of a receipt_json row. */
export const JSON_COLUMNS = ['kernel_key', 'fleet_seq', 'raw_json'] as const;

/** The columns of a proof row, in order. */
export const PROOF_COLUMNS = ['kernel_key', 'seq', 'checkpoint_seq', 'source', 'raw'] as const;

interface ParsedReceipt {
  kernel: string;
  kind: 'tool' | 'child';
  seq: bigint;
  id: string;
  signer: string;
  timestamp: bigint;
  capabilityId: string;
  subjectKey: string;
  toolServer: string;
  toolName: string;
  decision: string;
  cost: string;
  currency: string;
  raw: string;
}

export interface ParsedCheckpoint {
  kernel: string;
  checkpointSeq: bigint;
  start: bigint;
  end: bigint;
  treeSize: bigint;
  issuedAt: bigint;
  raw: string;
}

export interface ParsedProof {
  seq: bigint;
  checkpointSeq: bigint;
  raw: string;
}

/** The fields of a receipt line; throws Reject with the reason. */
function receiptOf(line: string, kind: 'tool' | 'child', packageKernel: string | undefined, subjects: Map<string, string>): ParsedReceipt {
  const split = receiptLine(line);
  let receipt: Record<string, unknown> | undefined;
  try {
    receipt = split ? obj(JSON.parse(split.raw)) : undefined;
  } catch {
    // below: say whether the line is not JSON at all or only not in the export's form
  }
  if (!split || !receipt) {
    JSON.parse(line); // not JSON: SyntaxError, reported as such
    throw new Reject('must be {"seq":N,"receipt":{…}} as Chio exports it (seq first, then the receipt object, no spaces)');
  }
  const { raw } = split;
  const seq = BigInt(split.seq);
  if (seq > U64_MAX) throw new Reject('seq must be a u64');
  const signer = text(receipt, 'kernel_key', 'receipt');
  if (!HEX64.test(signer)) throw new Reject('receipt.kernel_key must be 64 lowercase hex digits');
  // Flat literals, no object spread: under tsx a spread is a helper call, and it was half of this function's time.
  const kernel = packageKernel ?? signer;
  const id = text(receipt, 'id', 'receipt');
  const timestamp = u64Of(receipt, 'timestamp', 'receipt', raw, []);
  if (kind === 'child')
    return {
      kernel,
      kind,
      seq,
      id,
      signer,
      timestamp,
      raw,
      capabilityId: '',
      subjectKey: '',
      toolServer: '',
      toolName: '',
      decision: '',
      cost: '',
      currency: '',
    };
  const capabilityId = text(receipt, 'capability_id', 'receipt');
  const metadata = obj(receipt.metadata);
  const verdict = obj(receipt.decision)?.verdict;
  if (receipt.decision !== undefined && receipt.decision !== null && typeof verdict !== 'string') throw new Reject('receipt.decision.verdict must be a string');
  return {
    kernel,
    kind,
    seq,
    id,
    signer,
    timestamp,
    raw,
    capabilityId,
    subjectKey: optText(obj(metadata?.attribution), 'subject_key') || (subjects.get(capabilityId) ?? ''),
    toolServer: text(receipt, 'tool_server', 'receipt'),
    toolName: text(receipt, 'tool_name', 'receipt'),
    decision: typeof verdict === 'string' ? verdict : 'none',
    cost: costOf(receipt, raw),
    currency: optText(obj(metadata?.financial), 'currency'),
  };
}

export function checkpointOf(line: string): ParsedCheckpoint {
  const record = obj(JSON.parse(line));
  const body = obj(record?.body);
  if (!record || !body) throw new Reject('a checkpoint must be {"body":{…},"signature":…}');
  const kernel = text(body, 'kernel_key', 'body');
  if (!HEX64.test(kernel)) throw new Reject('body.kernel_key must be 64 lowercase hex digits');
  return {
    kernel,
    checkpointSeq: u64Of(body, 'checkpoint_seq', 'body', line, ['body']),
    start: u64Of(body, 'batch_start_seq', 'body', line, ['body']),
    end: u64Of(body, 'batch_end_seq', 'body', line, ['body']),
    treeSize: u64Of(body, 'tree_size', 'body', line, ['body']),
    issuedAt: u64Of(body, 'issued_at', 'body', line, ['body']),
    raw: line.trimEnd(),
  };
}

export function proofOf(line: string): ParsedProof {
  const proof = obj(JSON.parse(line));
  if (!proof) throw new Reject('an inclusion proof must be a JSON object');
  return {
    seq: u64Of(proof, 'receipt_seq', 'proof', line, []),
    checkpointSeq: u64Of(proof, 'checkpoint_seq', 'proof', line, []),
    raw: line.trimEnd(),
  };
}
