// The native baseline (issue 6, "A"): what a user would script with Node alone
// to check an evidence package: JSON.parse each line, canonicalize with the
// `canonicalize` package, verify Ed25519 with node:crypto, hash the leaves and
// recompute each checkpoint's Merkle root; one thread. It is deliberately
// naive (JSON.parse rounds integers above 2^53, so receipts carrying them fail
// here), and it prints what it verified so its throughput is an honest one.
//
//   node --import tsx scripts/bench/native-baseline.ts <package dir> [--json]
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';

type Json = Record<string, unknown>;
const ED25519_SPKI = Buffer.from('302a300506032b6570032100', 'hex');
const keys = new Map<string, KeyObject>();

function key(hex: string): KeyObject | null {
  let k = keys.get(hex);
  if (!k) {
    if (!/^[0-9a-f]{64}$/.test(hex)) return null; // Ed25519 only: other algorithms are out of this script's scope
    k = createPublicKey({ key: Buffer.concat([ED25519_SPKI, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
    keys.set(hex, k);
  }
  return k;
}

function without(o: Json, drop: string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) if (!drop.includes(k)) out[k] = v;
  return out;
}

/** The signed bytes: Gen B signs {id, body, bbs_signature?}; Gen A, child and HTTP receipts sign all but the signature fields. */
function signedBytes(r: Json): string {
  if ('receipt_kind' in r) {
    const body = without(r, ['id', 'bbs_signature', 'algorithm', 'signature']);
    return canonicalize({ id: r.id, body, ...(r.bbs_signature !== undefined ? { bbs_signature: r.bbs_signature } : {}) })!;
  }
  return canonicalize(without(r, ['algorithm', 'signature']))!;
}

function checkSignature(r: Json): boolean {
  const k = typeof r.kernel_key === 'string' ? key(r.kernel_key) : null;
  if (!k || typeof r.signature !== 'string' || !/^[0-9a-f]{128}$/.test(r.signature)) return false;
  return verify(null, Buffer.from(signedBytes(r)), k, Buffer.from(r.signature, 'hex'));
}

const leafHash = (bytes: string) =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(bytes)
    .digest();
const nodeHash = (l: Buffer, r: Buffer) =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(l)
    .update(r)
    .digest();

/** RFC 6962 root: an odd node is carried up unchanged. */
function merkleRoot(leaves: Buffer[]): Buffer | null {
  if (leaves.length === 0) return null;
  let level = leaves;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? nodeHash(level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
}

/** The file's non-empty lines, read in 64 MB blocks: a million receipts' file is longer than one string can be. */
function* lines(file: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return;
  }
  try {
    const buf = Buffer.alloc(64 * 2 ** 20);
    let rest = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const data = n > 0 ? Buffer.concat([rest, buf.subarray(0, n)]) : rest;
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        if (nl > start) yield data.toString('utf8', start, nl);
        start = nl + 1;
      }
      rest = Buffer.from(data.subarray(start));
      if (n === 0) {
        if (rest.length > 0) yield rest.toString('utf8');
        return;
      }
    }
  } finally {
    closeSync(fd);
  }
}

export interface BaselineResult {
  receipts: number;
  signaturesValid: number;
  checkpoints: number;
  checkpointSignaturesValid: number;
  rootsMatching: number;
  /** Time inside runBaseline: reading, parsing and checking; Node and tsx start-up excluded. */
  ms: number;
  /** The process's peak RSS so far (process.resourceUsage().maxRSS), in MB. */
  peakRssMb: number;
}

export function runBaseline(dir: string): BaselineResult {
  const t0 = performance.now();
  const leafBySeq = new Map<number, Buffer>();
  let receipts = 0;
  let signaturesValid = 0;
  for (const file of ['receipts.ndjson', 'child-receipts.ndjson']) {
    for (const line of lines(path.join(dir, file))) {
      const rec = JSON.parse(line) as { seq?: number; receipt: Json };
      receipts++;
      if (checkSignature(rec.receipt)) signaturesValid++;
      // Checkpoints cover tool receipts by seq (the demo producer's and the reference corpus's convention).
      if (file === 'receipts.ndjson' && typeof rec.seq === 'number') leafBySeq.set(rec.seq, leafHash(canonicalize(rec.receipt)!));
    }
  }
  let checkpoints = 0;
  let checkpointSignaturesValid = 0;
  let rootsMatching = 0;
  for (const line of lines(path.join(dir, 'checkpoints.ndjson'))) {
    const cp = JSON.parse(line) as {
      body: Json & { batch_start_seq: number; batch_end_seq: number; merkle_root: string; kernel_key: string };
      signature: string;
    };
    checkpoints++;
    const k = key(cp.body.kernel_key);
    if (k && verify(null, Buffer.from(canonicalize(cp.body)!), k, Buffer.from(cp.signature, 'hex'))) checkpointSignaturesValid++;
    const leaves: Buffer[] = [];
    for (let s = cp.body.batch_start_seq; s <= cp.body.batch_end_seq; s++) {
      const leaf = leafBySeq.get(s);
      if (leaf) leaves.push(leaf);
    }
    const root = merkleRoot(leaves);
    if (root && `0x${root.toString('hex')}` === cp.body.merkle_root.toLowerCase()) rootsMatching++;
  }
  const ms = performance.now() - t0;
  // The process's own resident high-water mark (Linux reports KB): start-up and every line read included.
  return { receipts, signaturesValid, checkpoints, checkpointSignaturesValid, rootsMatching, ms, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node --import tsx scripts/bench/native-baseline.ts <package dir> [--json]');
  const r = runBaseline(dir);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(r)}\n`);
  else {
    process.stdout.write(
      `native baseline: ${r.receipts.toLocaleString('en-US')} receipts (${r.signaturesValid.toLocaleString('en-US')} signatures valid), ` +
        `${r.checkpoints} checkpoints (${r.checkpointSignaturesValid} signatures valid, ${r.rootsMatching} roots recomputed) in ${(r.ms / 1000).toFixed(2)} s: ` +
        `${Math.round((r.receipts / r.ms) * 1000).toLocaleString('en-US')} receipts/s, peak RSS ${r.peakRssMb} MB\n`,
    );
  }
}
