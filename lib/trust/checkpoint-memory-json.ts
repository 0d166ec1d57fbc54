// The stored form of the checkpoint memory (checkpoint-memory.ts), as the page
// keeps it in localStorage under `receipt-audit.checkpoints.v1`:
//   {"version": 1, "logs": [{"key", "checkpoint_seq", "batch_start_seq",
//     "batch_end_seq", "tree_size", "merkle_root", "checkpoint_sha256",
//     "previous_checkpoint_sha256"?, "issued_at", "seen_at", "source", "schema"?,
//     "chain_leaf"?, "chain_root"?, "chain"?, "chain_frontier"?: [{"size", "hash"}]}]}
// u64 fields are decimal strings (exact above 2^53), hashes lowercase hex
// without `0x`, `seen_at` ISO 8601. Read strictly: storage other code or an
// extension can write to; a bad entry is dropped and named, never guessed.
import { normalizeKernelKey } from '../chio/keys';
import type { CheckpointMemory, RememberedCheckpoint } from './checkpoint-memory';

export const CHECKPOINT_MEMORY_VERSION = 1;

const U64_MAX = (1n << 64n) - 1n;
const MAX_SOURCE_CHARS = 2000;

export interface MemoryParseResult {
  memory: Map<string, RememberedCheckpoint>;
  /** One line per entry that was dropped, or for a document that is not a memory at all. */
  issues: string[];
}

export function checkpointMemoryToJson(memory: CheckpointMemory): string {
  const logs = [...memory.values()]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => ({
      key: r.key,
      checkpoint_seq: String(r.checkpointSeq),
      batch_start_seq: String(r.batchStartSeq),
      batch_end_seq: String(r.batchEndSeq),
      tree_size: String(r.treeSize),
      merkle_root: r.merkleRootHex,
      checkpoint_sha256: r.sha256,
      ...(r.previousSha256 !== undefined ? { previous_checkpoint_sha256: r.previousSha256 } : {}),
      issued_at: String(r.issuedAt),
      seen_at: new Date(r.seenAtMs).toISOString(),
      source: r.source,
      ...(r.schema !== undefined ? { schema: r.schema } : {}),
      ...(r.chainLeafHex !== undefined ? { chain_leaf: r.chainLeafHex } : {}),
      ...(r.chainRootHex !== undefined ? { chain_root: r.chainRootHex } : {}),
      ...(r.chain !== undefined ? { chain: r.chain } : {}),
      ...(r.chainFrontier !== undefined ? { chain_frontier: r.chainFrontier.map((f) => ({ size: String(f.size), hash: f.hashHex })) } : {}),
    }));
  return JSON.stringify({ version: CHECKPOINT_MEMORY_VERSION, logs });
}

/** Reads the stored text; null or empty text is an empty memory. */
export function parseCheckpointMemory(text: string | null): MemoryParseResult {
  const memory = new Map<string, RememberedCheckpoint>();
  if (text === null || text === '') return { memory, issues: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { memory, issues: ['the stored checkpoint memory is not JSON'] };
  }
  const d = doc as { version?: unknown; logs?: unknown } | null;
  if (typeof d !== 'object' || d === null || d.version !== CHECKPOINT_MEMORY_VERSION || !Array.isArray(d.logs)) {
    return { memory, issues: [`the stored checkpoint memory is not version ${CHECKPOINT_MEMORY_VERSION}`] };
  }
  const issues: string[] = [];
  for (const [i, raw] of d.logs.entries()) {
    const entry = parseEntry(raw);
    if (typeof entry === 'string') issues.push(`entry ${i + 1}: ${entry}`);
    else if (memory.has(entry.key)) issues.push(`entry ${i + 1}: key ${entry.key} is remembered twice`);
    else memory.set(entry.key, entry);
  }
  return { memory, issues };
}

/** One entry, or why it is unusable. */
function parseEntry(raw: unknown): RememberedCheckpoint | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'not an object';
  const e = raw as Record<string, unknown>;
  const key = typeof e.key === 'string' ? normalizeKernelKey(e.key) : null;
  if (key === null || key !== e.key) return 'key is not a normalized kernel key';
  const seq = u64(e.checkpoint_seq);
  const start = u64(e.batch_start_seq);
  const end = u64(e.batch_end_seq);
  const size = u64(e.tree_size);
  const issuedAt = u64(e.issued_at);
  if (seq === null || start === null || end === null || size === null || issuedAt === null)
    return 'a sequence number, tree size or issued_at is not a decimal u64';
  if (!isSha256Hex(e.merkle_root) || !isSha256Hex(e.checkpoint_sha256)) return 'merkle_root or checkpoint_sha256 is not 64 lowercase hex characters';
  if (e.previous_checkpoint_sha256 !== undefined && typeof e.previous_checkpoint_sha256 !== 'string') return 'previous_checkpoint_sha256 is not a string';
  const seenAtMs = typeof e.seen_at === 'string' && /^\d{4}-\d\d-\d\dT/.test(e.seen_at) ? Date.parse(e.seen_at) : NaN;
  if (Number.isNaN(seenAtMs)) return 'seen_at is not an ISO 8601 time';
  if (typeof e.source !== 'string' || e.source.length > MAX_SOURCE_CHARS) return 'source is not a short string';
  const chain = chainFieldsOf(e);
  if (typeof chain === 'string') return chain;
  if (chain.chainFrontier && chain.chainFrontier.reduce((n, f) => n + f.size, 0n) !== seq)
    return 'chain_frontier does not cover checkpoints 1 to checkpoint_seq';
  return {
    ...chain,
    key,
    checkpointSeq: seq,
    batchStartSeq: start,
    batchEndSeq: end,
    treeSize: size,
    merkleRootHex: e.merkle_root as string,
    sha256: e.checkpoint_sha256 as string,
    ...(typeof e.previous_checkpoint_sha256 === 'string' ? { previousSha256: e.previous_checkpoint_sha256 } : {}),
    issuedAt,
    seenAtMs,
    source: e.source,
  };
}

/** The optional v2 fields (a memory written before them has none). */
function chainFieldsOf(
  e: Record<string, unknown>,
): Pick<RememberedCheckpoint, 'schema' | 'chainLeafHex' | 'chainRootHex' | 'chain' | 'chainFrontier'> | string {
  const out: Pick<RememberedCheckpoint, 'schema' | 'chainLeafHex' | 'chainRootHex' | 'chain' | 'chainFrontier'> = {};
  if (e.schema !== undefined) {
    if (typeof e.schema !== 'string' || e.schema.length > 100) return 'schema is not a short string';
    out.schema = e.schema;
  }
  for (const [k, field] of [
    ['chain_leaf', 'chainLeafHex'],
    ['chain_root', 'chainRootHex'],
  ] as const) {
    if (e[k] === undefined) continue;
    if (!isSha256Hex(e[k])) return `${k} is not 64 lowercase hex characters`;
    out[field] = e[k];
  }
  if (e.chain !== undefined) {
    if (e.chain !== 'pass' && e.chain !== 'fail' && e.chain !== 'skipped') return 'chain is not pass, fail or skipped';
    out.chain = e.chain;
  }
  if (e.chain_frontier !== undefined) {
    const f = e.chain_frontier;
    if (!Array.isArray(f) || f.length === 0 || f.length > 64) return 'chain_frontier is not a list of 1 to 64 subtrees';
    const frontier: { size: bigint; hashHex: string }[] = [];
    for (const x of f) {
      const size = typeof x === 'object' && x !== null ? u64((x as { size?: unknown }).size) : null;
      const hash = typeof x === 'object' && x !== null ? (x as { hash?: unknown }).hash : undefined;
      // Spans are strictly decreasing powers of two (an append-only frontier, §16.3).
      if (size === null || size === 0n || (size & (size - 1n)) !== 0n || !isSha256Hex(hash))
        return 'chain_frontier holds a subtree that is not {size: a power of two, hash}';
      if (frontier.length > 0 && frontier[frontier.length - 1]!.size <= size) return 'chain_frontier sizes do not decrease';
      frontier.push({ size, hashHex: hash });
    }
    out.chainFrontier = frontier;
  }
  return out;
}

/** A decimal u64 written as a string: no sign, no leading zeros, must round-trip. */
function u64(v: unknown): bigint | null {
  if (typeof v !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(v)) return null;
  const n = BigInt(v);
  return n <= U64_MAX ? n : null;
}

function isSha256Hex(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
}
