// Generators of hostile input SHAPES (issue 20, part 5), written straight to disk in pieces so
// the generator itself stays small in memory. Each is valid JSON where it matters and hostile by
// its shape, not its bytes:
// - checkpoints: N signed `chio.checkpoint_statement.v2` statements forming an honest chain
//   (650,000 is about 400 MB), each covering a batch of one receipt the file does not hold;
// - tiny: N tiny records cycling through four kinds, each of which the verifier may keep a
//   trace of: `{}`, an inclusion proof naming no receipt, a witness record, a chat message;
// - deep proofs: a small honest log (receipts, a checkpoint, their proofs: it must still verify)
//   and inclusion proofs and consistency records whose paths hold hundreds of thousands of
//   hashes (each just under the 16 MiB record limit);
// - deep nesting: the same small honest log and records nested millions of levels deep, in an
//   NDJSON file and in a top-level JSON array file.
// Signatures: node:crypto Ed25519 (fast), over the RFC 8785 bytes of bodies whose keys are written
// sorted (for ASCII strings and safe integers, JSON.stringify of such a body is its RFC 8785 form).
// Callers put the files under a temp or cache folder; never commit them.
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { checkpoint, genAReceipt, keyFromSeed, leafOf, proof } from '../forge';

const MiB = 1 << 20;

/** An Ed25519 key from a 32-byte seed, for node:crypto. */
function nodeKey(seedByte: number): { sign(msg: Buffer): string; publicHex: string } {
  const seed = Buffer.alloc(32, seedByte);
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(key).export({ format: 'jwk' }) as { x: string };
  return { sign: (msg) => sign(null, msg, key).toString('hex'), publicHex: Buffer.from(jwk.x, 'base64url').toString('hex') };
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const leafHash = (data: Buffer | string) =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(data)
    .digest();
const nodeHash = (l: Buffer, r: Buffer) =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(l)
    .update(r)
    .digest();

/** Buffered writes: one writeSync per MiB, not per line. */
class Out {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;
  bytes = 0;
  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= MiB) this.flush();
  }
  private flush(): void {
    if (this.parts.length === 0) return;
    this.bytes += writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.bytes;
  }
}

export interface Generated {
  bytes: number;
  records: number;
  /** What must come out of verifying it, for the benchmark to print beside its numbers. */
  note: string;
}

/**
 * `n` signed v2 checkpoints, an honest chain: checkpoint i covers log entry i (tree_size 1), names
 * checkpoint i−1's body digest and carries the chain root of checkpoints 1…i. One per line, in the
 * `{body, signature}` form of a package's checkpoints.ndjson.
 */
export function writeCheckpoints(file: string, n: number, seedByte = 0x51): Generated & { kernelKeyHex: string } {
  const key = nodeKey(seedByte);
  const out = new Out(file);
  // The chain frontier: one root per perfect subtree of the chain leaves, largest first.
  const frontier: { size: number; hash: Buffer }[] = [];
  let previous: string | null = null;
  for (let seq = 1; seq <= n; seq++) {
    const merkleRoot = '0x' + leafHash(`receipt ${seq}`).toString('hex');
    const chainLeaf = leafHash(JSON.stringify({ batch_end_seq: seq, batch_start_seq: seq, checkpoint_seq: seq, merkle_root: merkleRoot }));
    frontier.push({ size: 1, hash: chainLeaf });
    while (frontier.length > 1 && frontier[frontier.length - 1]!.size === frontier[frontier.length - 2]!.size) {
      const right = frontier.pop()!;
      const left = frontier.pop()!;
      frontier.push({ size: left.size * 2, hash: nodeHash(left.hash, right.hash) });
    }
    let root = frontier[frontier.length - 1]!.hash;
    for (let i = frontier.length - 2; i >= 0; i--) root = nodeHash(frontier[i]!.hash, root);
    // Keys in RFC 8785 order, so the text is its own canonical form.
    const body: Record<string, unknown> = {
      batch_end_seq: seq,
      batch_start_seq: seq,
      chain_root: '0x' + root.toString('hex'),
      checkpoint_seq: seq,
      issued_at: 1767229200 + seq,
      kernel_key: key.publicHex,
      merkle_root: merkleRoot,
      ...(previous !== null ? { previous_checkpoint_sha256: previous } : {}),
      schema: 'chio.checkpoint_statement.v2',
      tree_size: 1,
    };
    const canonical = JSON.stringify(body);
    previous = sha256(canonical).toString('hex');
    out.write(`{"body":${canonical},"signature":"${key.sign(Buffer.from(canonical))}"}\n`);
  }
  return { bytes: out.close(), records: n, kernelKeyHex: key.publicHex, note: `${n} checkpoints, every one verified (an honest chain)` };
}

/** The four tiny kinds, by `i % 4`. */
export function tinyRecord(i: number): string {
  switch (i % 4) {
    case 0:
      return '{}';
    case 1:
      return `{"checkpoint_seq":1,"receipt_seq":${i},"leaf_index":0,"merkle_root":"0x${'00'.repeat(32)}","proof":{"tree_size":1,"leaf_index":0,"audit_path":[]}}`;
    case 2:
      return `{"schema":"chio.checkpoint_witness.v1","n":${i}}`;
    default:
      return `{"role":"user","content":"${i}"}`;
  }
}

/** `n` tiny records (tinyRecord), one per line. */
export function writeTiny(file: string, n: number): Generated {
  const out = new Out(file);
  for (let i = 0; i < n; i++) out.write(tinyRecord(i) + '\n');
  return {
    bytes: out.close(),
    records: n,
    note: `${n} tiny records: ${Math.ceil(n / 4)} '{}', ${Math.ceil((n - 1) / 4)} proofs naming no receipt, witness records, chat messages`,
  };
}

/** A small honest log as NDJSON lines: `receipts` signed receipts, a checkpoint over them, their proofs. */
function honestLines(receipts: number, seedByte: number): { lines: string[]; keyHex: string } {
  const key = keyFromSeed(seedByte);
  const rs = Array.from({ length: receipts }, (_, i) => genAReceipt({ seq: i + 1, key }));
  const leaves = rs.map(leafOf);
  const cp = checkpoint({ seq: 1, start: 1, leaves, key });
  const lines = [
    JSON.stringify(cp),
    ...rs.map((r, i) => JSON.stringify({ seq: i + 1, receipt: r })),
    ...leaves.map((_, i) => JSON.stringify(proof(cp, i + 1, leaves, i))),
  ];
  return { lines, keyHex: key.publicHex };
}

const hashes = (n: number, salt: number) => {
  // n distinct-looking hashes without hashing n times: a counter in the last bytes of one digest.
  const base = sha256(`path ${salt}`).toString('hex').slice(0, 56);
  return Array.from({ length: n }, (_, i) => `"0x${base}${(i >>> 0).toString(16).padStart(8, '0')}"`).join(',');
};

export interface DeepProofOptions {
  /** Inclusion proofs with an absurd audit path, each naming a receipt the log does not hold. */
  inclusion?: number;
  /** Consistency records whose chain path and leaf inclusions are absurd. */
  consistency?: number;
  /** Hashes per path (200,000 is about 13.8 MB a record, under the 16 MiB limit). */
  levels?: number;
}

/**
 * The small honest log first (8 receipts, their checkpoint and proofs: all must verify), then the
 * deep proofs, then a deep proof that names an honest receipt's checkpoint, between honest lines.
 */
export function writeDeepProofs(file: string, o: DeepProofOptions = {}): Generated {
  const inclusion = o.inclusion ?? 20;
  const consistency = o.consistency ?? 4;
  const levels = o.levels ?? 200_000;
  const { lines } = honestLines(8, 0x52);
  const out = new Out(file);
  for (const l of lines) out.write(l + '\n');
  for (let i = 0; i < inclusion; i++) {
    out.write(
      `{"checkpoint_seq":1,"receipt_seq":${1000 + i},"leaf_index":${i},"merkle_root":"0x${'00'.repeat(32)}","proof":{"tree_size":${2 ** 52},"leaf_index":${i},"audit_path":[`,
    );
    out.write(hashes(levels, i));
    out.write(']}}\n');
  }
  for (let i = 0; i < consistency; i++) {
    const hex = (x: number) => sha256(`c ${i} ${x}`).toString('hex');
    const h = (x: number) => `"0x${hex(x)}"`;
    const inc = (salt: number) => `{"tree_size":${2 ** 40},"leaf_index":1,"audit_path":[${hashes(Math.floor(levels / 4), salt)}]}`;
    out.write(
      `{"schema":"chio.checkpoint_consistency_proof.v2","log_id":"log-1","from_checkpoint_seq":1,"to_checkpoint_seq":2,` +
        `"from_checkpoint_sha256":"${hex(1)}","to_checkpoint_sha256":"${hex(2)}","from_log_tree_size":8,"to_log_tree_size":16,` +
        `"appended_entry_start_seq":9,"appended_entry_end_seq":16,"from_chain_root":${h(3)},"to_chain_root":${h(4)},` +
        `"chain_proof_hashes":[${hashes(Math.floor(levels / 2), 100 + i)}],"from_leaf_inclusion":${inc(200 + i)},"to_leaf_inclusion":${inc(300 + i)}}\n`,
    );
  }
  return {
    bytes: out.close(),
    records: lines.length + inclusion + consistency,
    note: `8 honest receipts (must verify) + ${inclusion} inclusion proofs and ${consistency} consistency records of ${levels.toLocaleString('en-US')} levels`,
  };
}

/**
 * NDJSON: the small honest log, then `lines` records nested `depth` levels deep (arrays, objects,
 * both), each just under the record limit by default; and a JSON array file (`arrayFile`) whose
 * second element is nested as deep, between honest receipts.
 */
export function writeDeepNesting(file: string, arrayFile: string, o: { lines?: number; depth?: number } = {}): Generated {
  const lines = o.lines ?? 12;
  const depth = o.depth ?? 5_000_000;
  const { lines: honest } = honestLines(8, 0x53);
  const out = new Out(file);
  for (const l of honest) out.write(l + '\n');
  const nested = (i: number): [string, string] => (i % 3 === 0 ? ['[', ']'] : i % 3 === 1 ? ['{"a":', '}'] : ['{"a":[', ']}']);
  for (let i = 0; i < lines; i++) {
    const [open, close] = nested(i);
    const n = Math.floor(depth / open.length);
    for (let k = 0; k < n; k += 100_000) out.write(open.repeat(Math.min(100_000, n - k)));
    out.write('1');
    for (let k = 0; k < n; k += 100_000) out.write(close.repeat(Math.min(100_000, n - k)));
    out.write('\n');
  }
  const bytes = out.close();
  const arr = new Out(arrayFile);
  const key = keyFromSeed(0x54);
  // Seqs of their own: the NDJSON file's receipts are rcpt-test-000001…8, and files given together
  // share one seq space (a repeated id there is a replay).
  arr.write('[' + JSON.stringify(genAReceipt({ seq: 101, key })) + ',');
  for (let k = 0; k < depth; k += 100_000) arr.write('['.repeat(Math.min(100_000, depth - k)));
  for (let k = 0; k < depth; k += 100_000) arr.write(']'.repeat(Math.min(100_000, depth - k)));
  arr.write(',' + JSON.stringify(genAReceipt({ seq: 102, key })) + ']\n');
  const arrayBytes = arr.close();
  return {
    bytes: bytes + arrayBytes,
    records: honest.length + lines + 3,
    note: `8 honest receipts (must verify) + ${lines} records nested ~${(depth / 1e6).toFixed(0)} million levels; a JSON array with 2 receipts around one such element`,
  };
}
