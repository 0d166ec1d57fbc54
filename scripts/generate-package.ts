// Writes a deterministic Chio evidence package for benchmarks and tests:
// Gen A tool receipts (allow/deny/cancelled/incomplete, some financial), signed
// checkpoints every 100 receipts with inclusion proofs, and an uncheckpointed
// tail. Signing uses node:crypto; canonical bytes, leaves and proofs come from
// lib/. Streams to disk, so large counts do not hold the log in memory.
//
//   npx tsx scripts/generate-package.ts --count 100000 --out /tmp/pkg [--seed 1]
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toHex } from '../lib/bytes/hex';
import { canonicalBytes } from '../lib/json/canonicalize';
import { parseJson } from '../lib/json/parse';
import { inclusionProofFor, leafHash, rootFromLeafHashes } from '../lib/merkle';

const BATCH = 100;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function keyFromSeed(seed: Buffer) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return { privateKey, publicHex: spki.subarray(spki.length - 32).toString('hex') };
}

/** A small deterministic PRNG (mulberry32) so the same seed gives the same log. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const canon = (v: unknown) => {
  const r = parseJson(JSON.stringify(v));
  if (!r.ok) throw new Error(r.issue.message);
  return canonicalBytes(r.value);
};
const sha256Hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

const TOOLS = [
  ['srv-files', 'file_read'],
  ['srv-files', 'file_write'],
  ['srv-http', 'http_get'],
  ['srv-shell', 'run_command'],
  ['srv-pay', 'transfer_funds'],
];

async function main(): Promise<void> {
  const count = Number(arg('count', '1000'));
  const out = arg('out', 'bench-out/package');
  const seed = Number(arg('seed', '1'));
  const rand = prng(seed);
  const key = keyFromSeed(createHash('sha256').update(`receipt-audit-bench-${seed}`).digest());
  mkdirSync(out, { recursive: true });
  const receipts = createWriteStream(path.join(out, 'receipts.ndjson'));
  const proofs = createWriteStream(path.join(out, 'inclusion-proofs.ndjson'));
  const checkpoints: string[] = [];
  const write = (s: NodeJS.WritableStream, line: string) => new Promise<void>((res) => (s.write(line) ? res() : s.once('drain', () => res())));

  let batch: Uint8Array[] = [];
  let previousBody: unknown = null;
  let remaining = 10_000_000;
  let proofCount = 0;
  for (let seq = 1; seq <= count; seq++) {
    const [server, tool] = TOOLS[Math.floor(rand() * TOOLS.length)]!;
    const parameters = { path: `/srv/app/${Math.floor(rand() * 1e6).toString(16)}.txt`, attempt: 1 + Math.floor(rand() * 3) };
    const roll = rand();
    const decision = roll < 0.8 ? { verdict: 'allow' } : roll < 0.93 ? { verdict: 'deny', reason: `${tool} blocked by egress-allowlist`, guard: 'egress-allowlist' } : roll < 0.97 ? { verdict: 'cancelled', reason: 'caller cancelled' } : { verdict: 'incomplete', reason: 'tool server stream ended early' };
    const financial = server === 'srv-pay' && decision.verdict === 'allow';
    const cost = financial ? 1 + Math.floor(rand() * 500) : 0;
    if (financial) remaining -= cost;
    const body = {
      id: `rcpt-${String(seq).padStart(8, '0')}`,
      timestamp: 1767225600 + seq * 3,
      capability_id: financial ? 'cap-billing-1' : `cap-research-${seq % 4}`,
      tool_server: server,
      tool_name: tool,
      action: { parameters, parameter_hash: sha256Hex(canon(parameters)) },
      decision,
      content_hash: sha256Hex('null'),
      policy_hash: sha256Hex(`policy-${Math.floor(seq / 5000)}`),
      evidence: [{ guard_name: 'forbidden-path', verdict: true }, { guard_name: 'egress-allowlist', verdict: decision.verdict !== 'deny' }],
      ...(financial
        ? { metadata: { financial: { grant_index: 0, cost_charged: cost, currency: 'USD', budget_remaining: remaining, budget_total: 10_000_000, delegation_depth: 0, root_budget_holder: 'org-acme', settlement_status: 'settled' } } }
        : {}),
      kernel_key: key.publicHex,
    };
    const signature = sign(null, canon(body), key.privateKey).toString('hex');
    const receipt = { ...body, signature };
    await write(receipts, JSON.stringify({ seq, receipt }) + '\n');
    batch.push(leafHash(canon(receipt)));
    if (batch.length === BATCH) {
      const start = seq - BATCH + 1;
      const root = rootFromLeafHashes(batch)!;
      const cpBody = {
        schema: 'chio.checkpoint_statement.v1',
        checkpoint_seq: checkpoints.length + 1,
        batch_start_seq: start,
        batch_end_seq: seq,
        tree_size: BATCH,
        merkle_root: '0x' + toHex(root),
        issued_at: 1767225600 + seq * 3 + 1,
        kernel_key: key.publicHex,
        ...(previousBody ? { previous_checkpoint_sha256: sha256Hex(canon(previousBody)) } : {}),
      };
      checkpoints.push(JSON.stringify({ body: cpBody, signature: sign(null, canon(cpBody), key.privateKey).toString('hex') }) + '\n');
      for (let i = 0; i < batch.length; i++) {
        const audit = inclusionProofFor(batch, i)!.map((h) => '0x' + toHex(h));
        const p = { checkpoint_seq: cpBody.checkpoint_seq, receipt_seq: start + i, leaf_index: i, merkle_root: cpBody.merkle_root, proof: { tree_size: BATCH, leaf_index: i, audit_path: audit } };
        await write(proofs, JSON.stringify(p) + '\n');
        proofCount++;
      }
      previousBody = cpBody;
      batch = [];
    }
  }
  await Promise.all([receipts, proofs].map((s) => new Promise((res) => s.end(res))));
  writeFileSync(path.join(out, 'checkpoints.ndjson'), checkpoints.join(''));
  for (const empty of ['child-receipts.ndjson', 'capability-lineage.ndjson']) writeFileSync(path.join(out, empty), '');
  const files = ['receipts.ndjson', 'child-receipts.ndjson', 'checkpoints.ndjson', 'inclusion-proofs.ndjson', 'capability-lineage.ndjson'].map((f) => {
    const p = path.join(out, f);
    return { path: f, sha256: createHash('sha256').update(readFileSync(p)).digest('hex'), bytes: statSync(p).size };
  });
  const manifest = {
    schema: 'chio.evidence_export_manifest.v1',
    exportedAt: 1767225600 + count * 3 + 10,
    query: {},
    counts: { toolReceipts: count, childReceipts: 0, checkpoints: checkpoints.length, capabilityLineage: 0, inclusionProofs: proofCount, uncheckpointedReceipts: count - proofCount },
    files,
  };
  writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
  process.stdout.write(`wrote ${count} receipts, ${checkpoints.length} checkpoints to ${out}\nkernel key ${key.publicHex}\n`);
}

await main();
