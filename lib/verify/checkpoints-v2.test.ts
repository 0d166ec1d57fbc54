// Checkpoint v2 (chio-format.md §16.1–§16.4, contract part 2 §2, §3, §5.1, §5.2): strict parsing,
// the chain check, continuity by body digest, consistency records, and inclusion bound to the
// checkpoint's signer. Real vectors where they exist (paid-normal, the v2 corpus), forged logs
// (signed with test keys) for every branch the real data does not exercise.
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes/hex';
import { CHECKPOINT_SCHEMA_V2, chainLeafHash, decodeCheckpoint } from '../chio/checkpoint';
import { buildConsistencyRecordV2 } from '../chio/consistency-proof';
import { checkpointSha256 } from '../chio/checkpoint';
import { canonicalize, canonicalBytes } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { type JsonObject, isJsonObject } from '../json/value';
import { rootFromLeafHashes } from '../merkle';
import { readTestdataText } from '../../test/support/testdata';
import { type Plain, chainLeafOf, checkpoint, checkpointV2, genAReceipt, keyFromSeed, leafOf, proof, signHex, tree } from '../../test/support/forge';
import { type Rec, verifyRecords } from '../../test/support/verify-records';
import type { VerificationReport } from '../verdict/report';
import { checkCodeOf } from '../verdict/check-text';

const verify = verifyRecords;

const key = keyFromSeed(7);
const other = keyFromSeed(9);
const good = (seq: number, k = key) => genAReceipt({ seq, key: k });
const codes = (r: VerificationReport) => [...new Set(r.problems.map((p) => p.code))].sort();
const cpOf = (r: VerificationReport, seq: number) => r.checkpoints.filter((c) => c.checkpoint_seq === BigInt(seq));
const resign = (body: Plain, k = key) => ({ body, signature: signHex(k.secret, canonicalBytes(tree(body))) });

/** A chain of v2 checkpoints over batches of two receipts each; `n` checkpoints, receipts 1…2n. */
function chainV2(n: number) {
  const receipts = Array.from({ length: 2 * n }, (_, i) => good(i + 1));
  const cps: { body: Plain; signature: string }[] = [];
  const chain: Uint8Array[] = [];
  for (let s = 1; s <= n; s++) {
    const leaves = receipts.slice(2 * (s - 1), 2 * s).map(leafOf);
    const cp = checkpointV2({ seq: s, start: 2 * s - 1, leaves, key, chainBefore: chain, ...(s > 1 ? { previous: cps[s - 2]!.body } : {}) });
    chain.push(chainLeafOf(cp.body));
    cps.push(cp);
  }
  return { receipts, cps, chain };
}

function decoded(cp: { body: Plain; signature: string }) {
  const p = parseJson(JSON.stringify(cp));
  if (!p.ok || !isJsonObject(p.value)) throw new Error('parse');
  const d = decodeCheckpoint(p.value);
  if (!d.ok) throw new Error('decode');
  return { cp: d.value, sha256: checkpointSha256(d.value) };
}

describe('real v2 data (chio-format.md §16.3 worked example 1, contract part 2 §10)', () => {
  const cpText = readTestdataText('chio/realworld-2026-09/paid-normal/checkpoint.json');
  const receiptText = readTestdataText('chio/realworld-2026-09/paid-normal/receipt.json');
  const proofText = readTestdataText('chio/realworld-2026-09/paid-normal/inclusion.json');

  it('the chain leaf of checkpoint 1 is the worked example, and equals its signed chain_root', () => {
    const p = parseJson(cpText);
    const d = decodeCheckpoint(p.ok ? (p.value as JsonObject) : new Map());
    if (!d.ok) throw new Error('decode');
    expect(d.value.schema).toBe(CHECKPOINT_SCHEMA_V2);
    expect(toHex(chainLeafHash(d.value)!)).toBe('9531ac0bd2ffce9dcf76357075adaff252eed397ec5ed6a6aebc1b6e63b61ba0');
    expect(toHex(d.value.chainRoot!)).toBe('9531ac0bd2ffce9dcf76357075adaff252eed397ec5ed6a6aebc1b6e63b61ba0');
    expect(d.value.strict).toEqual([]);
  });

  it('receipt, checkpoint and proof as one log: verified; the bare receipt finds its proof by leaf, seqs 1–2 absent is no problem', async () => {
    const r = await verify(
      [
        { raw: receiptText, file: 'receipt.json' },
        { raw: cpText, file: 'checkpoint.json' },
        { raw: proofText, file: 'inclusion.json' },
      ],
      ['d2072964672757fb65d05f2ba4bddb3ba832f7e1f3bf2353dd9a49b064245e1f'],
    );
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.receipts[0]!.id).toMatch(/^85711492/);
    expect(r.receipts[0]!.verdict).toBe('verified');
    expect(r.receipts[0]!.checks.inclusion).toBe('pass');
    expect(r.checkpoints[0]!.checks).toEqual({ signature: 'pass', structure: 'pass', continuity: 'pass', chain: 'pass', signer_trusted: 'pass' });
  });

  it('the proof moved onto another receipt, or the receipt changed, is not verified', async () => {
    const changed = receiptText.replace('"tool_name": "', '"tool_name": "x');
    const r = await verify([{ raw: changed }, { raw: cpText }, { raw: proofText }]);
    expect(r.receipts[0]!.verdict).toBe('failed');
    expect(r.receipts[0]!.checks.inclusion).not.toBe('pass');
  });
});

describe('strict checkpoint parsing (contract part 2 §2, §3)', () => {
  const { receipts, cps } = chainV2(1);
  const cp1 = cps[0]!;
  const base = [{ value: cp1 }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 }))];

  const cases: [string, () => unknown, RegExp][] = [
    ['an unknown body key, even when signed', () => resign({ ...cp1.body, note: 'x' }), /unknown key note/],
    ['an unknown wrapper key', () => ({ ...cp1, note: 'x' }), /unknown wrapper key "note"/],
    ['an explicit null previous_checkpoint_sha256', () => resign({ ...cp1.body, previous_checkpoint_sha256: null }), /explicit null/],
    ['an explicit null chain_root', () => resign({ ...cp1.body, chain_root: null }), /explicit null/],
    [
      'merkle_root without 0x (signed over the typed spelling)',
      () => {
        const cp = resign(cp1.body);
        return { body: { ...cp.body, merkle_root: String(cp.body.merkle_root).slice(2) }, signature: cp.signature };
      },
      /merkle_root is not written as "0x" \+ 64 lowercase hex/,
    ],
    [
      'chain_root in upper case',
      () => {
        const cp = resign(cp1.body);
        return { body: { ...cp.body, chain_root: '0x' + String(cp.body.chain_root).slice(2).toUpperCase() }, signature: cp.signature };
      },
      /chain_root is not written/,
    ],
    ['a v1 body carrying chain_root', () => resign({ ...cp1.body, schema: 'chio.checkpoint_statement.v1' }), /v1 checkpoint must not carry chain_root/],
    [
      'a v2 checkpoint 1 without chain_root',
      () => {
        const { chain_root: _, ...body } = cp1.body;
        return resign(body);
      },
      /v2 checkpoint 1 must carry chain_root/,
    ],
    [
      'a v2 checkpoint 1 whose chain_root is not its own leaf',
      () => resign({ ...cp1.body, chain_root: '0x' + '11'.repeat(32) }),
      /not its own chain leaf hash/,
    ],
    ['issued_at 0', () => resign({ ...cp1.body, issued_at: 0 }), /issued_at must be greater than 0/],
    ['an unknown schema', () => resign({ ...cp1.body, schema: 'chio.checkpoint_statement.v3' }), /unsupported schema/],
  ];
  for (const [name, make, message] of cases) {
    it(`${name}: kept in the report, structure fails, its batch is vouched for by nothing`, async () => {
      const r = await verify([{ value: make() }, ...base.slice(1)], [key.publicHex]);
      expect(r.checkpoints).toHaveLength(1);
      expect(r.checkpoints[0]!.checks.structure).toBe('fail');
      expect(r.checkpoints[0]!.details?.structure).toMatch(message);
      expect(r.checkpoints[0]!.verdict).toBe('failed');
      expect(codes(r)).toContain('checkpoint_structure_invalid');
      expect(codes(r)).not.toContain('checkpoint_chain_invalid');
      expect(r.receipts.map((x) => x.verdict)).toEqual(['unverified', 'unverified']);
    });
  }

  it('the same checkpoint, honest: verified', async () => {
    const r = await verify(base, [key.publicHex]);
    expect(r.ok).toBe(true);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
  });

  it('a malformed previous_checkpoint_sha256 on a later checkpoint', async () => {
    const { cps: c } = chainV2(2);
    const bad = resign({ ...c[1]!.body, previous_checkpoint_sha256: String(c[1]!.body.previous_checkpoint_sha256).toUpperCase() });
    const r = await verify([{ value: c[0] }, { value: bad }]);
    expect(cpOf(r, 2)[0]!.details?.structure).toMatch(/not 64 lowercase hex/);
  });
});

describe('continuity by body digest (contract part 2 §5.1)', () => {
  it('a missing previous_checkpoint_sha256 on seq > 1 fails, even when its predecessor is not supplied', async () => {
    const { cps } = chainV2(2);
    const { previous_checkpoint_sha256: _, ...body } = cps[1]!.body;
    const r = await verify([{ value: resign(body) }]);
    expect(cpOf(r, 2)[0]!.checks.continuity).toBe('fail');
    expect(codes(r)).toContain('checkpoint_continuity_broken');
  });

  it('a predecessor that is not supplied: continuity and chain skipped, a warning, and the log stays ok', async () => {
    const { receipts, cps } = chainV2(3);
    const r = await verify([{ value: cps[2] }, { value: receipts[4], seq: 5 }, { value: receipts[5], seq: 6 }], [key.publicHex]);
    const c = cpOf(r, 3)[0]!;
    expect(c.checks.continuity).toBe('skipped');
    expect(checkCodeOf(c.details?.continuity)).toBe('predecessor_not_supplied');
    expect(c.checks.chain).toBe('skipped');
    expect(checkCodeOf(c.details?.chain)).toBe('chain_prefix_incomplete');
    expect(c.verdict).toBe('verified');
    expect(codes(r)).toEqual(['checkpoint_prefix_incomplete']);
    expect(r.problems.filter((p) => p.code === 'checkpoint_prefix_incomplete')).toHaveLength(1);
    expect(r.ok).toBe(true);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
  });

  it('a digest over the wrapper instead of the body fails, and no message calls checkpoint 1 missing', async () => {
    const { cps } = chainV2(2);
    const wrapperDigest = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', canonicalBytes(tree(cps[0]!)) as BufferSource)));
    const bad = resign({ ...cps[1]!.body, previous_checkpoint_sha256: wrapperDigest });
    const r = await verify([{ value: cps[0] }, { value: bad }]);
    expect(cpOf(r, 2)[0]!.checks.continuity).toBe('fail');
    expect(r.problems.map((p) => p.message).join('\n')).not.toMatch(/missing/);
  });

  it('after two equivocating checkpoints 2, checkpoint 3 is judged by the digest it names', async () => {
    const { receipts, cps, chain } = chainV2(3);
    const alt = checkpointV2({
      seq: 2,
      start: 3,
      leaves: [good(3), { ...good(4), tool_name: 'other' }].map(leafOf),
      key,
      chainBefore: chain.slice(0, 1),
      previous: cps[0]!.body,
    });
    const r = await verify(
      [{ value: cps[0] }, { value: alt }, { value: cps[1] }, { value: cps[2] }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 }))],
      [key.publicHex],
    );
    expect(cpOf(r, 2).map((c) => c.verdict)).toEqual(['failed', 'failed']);
    const c3 = cpOf(r, 3)[0]!;
    expect(c3.checks.continuity).toBe('pass');
    expect(c3.checks.chain).toBe('pass');
    expect(codes(r)).toContain('checkpoint_equivocation');
    expect(r.problems.map((p) => p.message).join('\n')).not.toMatch(/missing/);
  });

  it('checkpoint 1 must start at entry 1 and name no predecessor', async () => {
    const c = checkpoint({ seq: 1, start: 5, leaves: [good(5)].map(leafOf), key });
    const r = await verify([{ value: c }]);
    expect(r.checkpoints[0]!.checks.continuity).toBe('fail');
  });
});

describe('the chain check (chio-format.md §16.3)', () => {
  it('a chain of five v2 checkpoints: every chain_root recomputes', async () => {
    const { receipts, cps } = chainV2(5);
    const r = await verify([...cps.map((value) => ({ value })), ...receipts.map((x, i) => ({ value: x, seq: i + 1 }))], [key.publicHex]);
    expect(r.ok).toBe(true);
    expect(r.checkpoints.map((c) => c.checks.chain)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(r.receipts.every((x) => x.verdict === 'verified')).toBe(true);
  });

  it('a chain_root over another prefix, re-signed by the kernel: checkpoint_chain_invalid, its receipts not verified', async () => {
    const { receipts, cps, chain } = chainV2(3);
    const bad = resign({ ...cps[2]!.body, chain_root: '0x' + toHex(rootFromLeafHashes([chain[1]!, chain[0]!, chain[2]!])!) });
    const r = await verify([{ value: cps[0] }, { value: cps[1] }, { value: bad }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 }))], [key.publicHex]);
    expect(cpOf(r, 3)[0]!.checks.chain).toBe('fail');
    expect(cpOf(r, 3)[0]!.verdict).toBe('failed');
    expect(codes(r)).toEqual(['checkpoint_chain_invalid']);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified', 'verified', 'unverified', 'unverified']);
    expect(r.ok).toBe(false);
  });

  it('a v1 → v2 upgrade midway: the first v2 checkpoint commits to the v1 checkpoints before it', async () => {
    const receipts = Array.from({ length: 6 }, (_, i) => good(i + 1));
    const b = (s: number) => receipts.slice(2 * (s - 1), 2 * s).map(leafOf);
    const cp1 = checkpoint({ seq: 1, start: 1, leaves: b(1), key });
    const cp2 = checkpoint({ seq: 2, start: 3, leaves: b(2), key, previous: cp1.body });
    const cp3 = checkpointV2({ seq: 3, start: 5, leaves: b(3), key, previous: cp2.body, chainBefore: [chainLeafOf(cp1.body), chainLeafOf(cp2.body)] });
    const r = await verify([{ value: cp1 }, { value: cp2 }, { value: cp3 }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 }))], [key.publicHex]);
    expect(r.ok).toBe(true);
    expect(r.checkpoints.map((c) => [c.schema, c.checks.chain])).toEqual([
      ['chio.checkpoint_statement.v1', undefined],
      ['chio.checkpoint_statement.v1', undefined],
      ['chio.checkpoint_statement.v2', 'pass'],
    ]);
  });

  it('a v2 successor that drops chain_root: continuity broken; with its predecessor absent: chain skipped (no_chain_commitment)', async () => {
    const { cps } = chainV2(2);
    const { chain_root: _, ...detached } = cps[1]!.body;
    const r = await verify([{ value: cps[0] }, { value: resign(detached) }]);
    expect(cpOf(r, 2)[0]!.checks.continuity).toBe('fail');
    expect(cpOf(r, 2)[0]!.details?.continuity).toMatch(/drops the chain commitment/);
    const alone = await verify([{ value: resign(detached) }]);
    expect(checkCodeOf(cpOf(alone, 2)[0]!.details?.chain)).toBe('no_chain_commitment');
  });

  it('650 checkpoints in one log: each chain from its predecessor frontier (no quadratic rehash)', async () => {
    const chain: Uint8Array[] = [];
    const cps: { body: Plain; signature: string }[] = [];
    for (let s = 1; s <= 650; s++) {
      const cp = checkpointV2({ seq: s, start: s, leaves: [leafOf({ n: s })], key, chainBefore: chain, ...(s > 1 ? { previous: cps[s - 2]!.body } : {}) });
      chain.push(chainLeafOf(cp.body));
      cps.push(cp);
    }
    const r = await verify(cps.map((value) => ({ value })));
    expect(r.checkpoints.filter((c) => c.checks.chain === 'pass')).toHaveLength(650);
  });
});

describe('consistency records (chio-format.md §16.4)', () => {
  const { receipts, cps, chain } = chainV2(3);
  const withDigest = cps.map(decoded);
  const record = buildConsistencyRecordV2(withDigest[1]!, withDigest[2]!, chain)!;
  const recordText = canonicalize(record);
  const rows = (extra: Rec[]) => [...cps.map((value) => ({ value })), ...receipts.map((x, i) => ({ value: x, seq: i + 1 })), ...extra];

  it('a derived v2 record verifies: steps 1–7', async () => {
    const r = await verify(rows([{ raw: recordText, file: 'checkpoint-consistency-proofs.ndjson' }]), [key.publicHex]);
    expect(r.problems).toEqual([]);
    expect(cpOf(r, 3)[0]!.checks.chain).toBe('pass');
  });

  it('the worked example of §16.4 has the shape our builder derives for 1 → 2', () => {
    const rec = buildConsistencyRecordV2(withDigest[0]!, withDigest[1]!, chain)!;
    expect([...rec.keys()]).toEqual([
      'schema',
      'log_id',
      'from_checkpoint_seq',
      'to_checkpoint_seq',
      'from_checkpoint_sha256',
      'to_checkpoint_sha256',
      'from_log_tree_size',
      'to_log_tree_size',
      'appended_entry_start_seq',
      'appended_entry_end_seq',
      'from_chain_root',
      'to_chain_root',
      'chain_proof_hashes',
      'from_leaf_inclusion',
      'to_leaf_inclusion',
    ]);
    expect(rec.get('chain_proof_hashes')).toEqual(['0x' + toHex(chain[1]!)]);
    expect(canonicalize(rec.get('to_leaf_inclusion')!)).toBe(`{"audit_path":["0x${toHex(chain[0]!)}"],"leaf_index":1,"tree_size":2}`);
  });

  const tamper = (edit: (o: Record<string, unknown>) => void): string => {
    const o = JSON.parse(recordText) as Record<string, unknown>;
    edit(o);
    return JSON.stringify(o);
  };
  const bad: [string, string][] = [
    ['a replaced path hash (step 7)', tamper((o) => ((o.chain_proof_hashes as string[])[0] = '0x' + '22'.repeat(32)))],
    ['a wrong from_leaf_inclusion (step 6)', tamper((o) => ((o.from_leaf_inclusion as { audit_path: string[] }).audit_path = ['0x' + '33'.repeat(32)]))],
    ['a wrong appended_entry_start_seq (step 2)', tamper((o) => (o.appended_entry_start_seq = 4))],
    ['a from_chain_root that is not the signed one (step 5)', tamper((o) => (o.from_chain_root = '0x' + '44'.repeat(32)))],
    ['an unknown key', tamper((o) => (o.note = 1))],
  ];
  for (const [name, text] of bad) {
    it(`${name}: checkpoint_chain_invalid at checkpoint 3 and transparency_record_mismatch`, async () => {
      const r = await verify(rows([{ raw: text, file: 'checkpoint-consistency-proofs.ndjson' }]), [key.publicHex]);
      expect(codes(r)).toContain('transparency_record_mismatch');
      if (!name.startsWith('an unknown key')) {
        expect(codes(r)).toContain('checkpoint_chain_invalid');
        expect(cpOf(r, 3)[0]!.verdict).toBe('failed');
      }
      expect(r.ok).toBe(false);
    });
  }

  it('a v1 record between v2 checkpoints is refused (§16.4 step 3)', async () => {
    const v1 = tamper((o) => {
      o.schema = 'chio.checkpoint_consistency_proof.v1';
      for (const k of ['from_chain_root', 'to_chain_root', 'chain_proof_hashes', 'from_leaf_inclusion', 'to_leaf_inclusion']) delete o[k];
    });
    const r = await verify(rows([{ raw: v1, file: 'checkpoint-consistency-proofs.ndjson' }]));
    expect(codes(r)).toContain('transparency_record_mismatch');
  });
});

describe('equivocation records, re-derived (format §9.5, §16.5)', () => {
  const { receipts, cps, chain } = chainV2(2);
  const alt = checkpointV2({
    seq: 2,
    start: 3,
    leaves: [good(3), { ...good(4), tool_name: 'other' }].map(leafOf),
    key,
    chainBefore: chain.slice(0, 1),
    previous: cps[0]!.body,
  });
  const [d1, d2, dAlt] = [cps[0]!, cps[1]!, alt].map(decoded);
  const record = (first: typeof d1, second: typeof d1, kind: string) => ({
    schema: 'chio.checkpoint_equivocation.v1',
    kind,
    first_checkpoint_seq: Number(first!.cp.checkpointSeq),
    second_checkpoint_seq: Number(second!.cp.checkpointSeq),
    first_checkpoint_sha256: first!.sha256,
    second_checkpoint_sha256: second!.sha256,
  });

  it("a true record (two signed checkpoints 2) is the exporter's admission: checkpoint_equivocation, not a mismatch", async () => {
    const r = await verify([
      { value: cps[0] },
      { value: cps[1] },
      { value: alt },
      { value: record(d2, dAlt, 'conflicting_checkpoint_seq'), file: 'checkpoint-equivocations.ndjson' },
    ]);
    expect(codes(r)).toContain('checkpoint_equivocation');
    expect(codes(r)).not.toContain('transparency_record_mismatch');
  });

  it('a false record naming two honest checkpoints is a transparency mismatch; both checkpoints and their receipts stay verified', async () => {
    const r = await verify(
      [
        { value: cps[0] },
        { value: cps[1] },
        ...receipts.map((x, i) => ({ value: x, seq: i + 1 })),
        { value: record(d1, d2, 'conflicting_checkpoint_seq'), file: 'checkpoint-equivocations.ndjson' },
      ],
      [key.publicHex],
    );
    expect(codes(r)).toEqual(['transparency_record_mismatch']);
    expect(r.checkpoints.map((c) => c.verdict)).toEqual(['verified', 'verified']);
    expect(r.receipts.every((x) => x.verdict === 'verified')).toBe(true);
    expect(r.ok).toBe(false);
  });
});

describe('inclusion bound to the checkpoint (contract part 2 §5.2)', () => {
  it('a receipt signed by another key inside a checkpoint: inclusion fails, "receipt signer differs from checkpoint signer"', async () => {
    const rs = [good(1), good(2, other)];
    const leaves = rs.map(leafOf);
    const cp = checkpointV2({ seq: 1, start: 1, leaves, key, chainBefore: [] });
    const r = await verify([
      { value: cp },
      { value: rs[0], seq: 1 },
      { value: rs[1], seq: 2 },
      { value: proof(cp, 1, leaves, 0) },
      { value: proof(cp, 2, leaves, 1) },
    ]);
    expect(r.receipts[1]!.checks.inclusion).toBe('fail');
    expect(r.receipts[1]!.details?.inclusion).toMatch(/receipt signer differs from checkpoint signer/);
    expect(r.receipts[0]!.checks.inclusion).toBe('pass');
    // Without proofs (the batch root recomputed) the same rule holds.
    const noProofs = await verify([{ value: cp }, { value: rs[0], seq: 1 }, { value: rs[1], seq: 2 }]);
    expect(noProofs.receipts.map((x) => x.checks.inclusion)).toEqual(['pass', 'fail']);
  });

  it("a proof whose tree_size is not the checkpoint's but whose path still reaches the root: a warning, and the path decides", async () => {
    const rs = [good(1), good(2), good(3)];
    const leaves = rs.map(leafOf);
    const cp = checkpointV2({ seq: 1, start: 1, leaves, key, chainBefore: [] });
    const p = proof(cp, 1, leaves, 0) as { proof: { tree_size: number } };
    p.proof.tree_size = 4; // index 0's path in a tree of 3 also reaches the root for a claimed 4
    const r = await verify(
      [{ value: cp }, ...rs.map((x, i) => ({ value: x, seq: i + 1 })), { value: p }, { value: proof(cp, 2, leaves, 1) }, { value: proof(cp, 3, leaves, 2) }],
      [key.publicHex],
    );
    expect(r.receipts[0]!.checks.inclusion).toBe('pass');
    expect(codes(r)).toEqual(['inclusion_position_mismatch']);
    expect(r.ok).toBe(true);
  });

  it('a copy of a checkpointed receipt under another seq, whose proof names the original leaf: the copy fails', async () => {
    const rs = [good(1), good(2), good(3)];
    const leaves = rs.map(leafOf);
    const cp = checkpointV2({ seq: 1, start: 1, leaves, key, chainBefore: [] });
    const moved = { ...proof(cp, 3, leaves, 0) };
    const r = await verify(
      [
        { value: cp },
        { value: rs[0], seq: 1 },
        { value: rs[1], seq: 2 },
        { value: rs[0], seq: 3 },
        { value: proof(cp, 1, leaves, 0) },
        { value: proof(cp, 2, leaves, 1) },
        { value: moved },
      ],
      [key.publicHex],
    );
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'failed']);
    expect(codes(r)).toContain('inclusion_position_mismatch');
  });

  it('a scoped export: present receipts carry their own proofs, absent batch members raise nothing', async () => {
    const rs = [good(1), good(2), good(3), good(4)];
    const leaves = rs.map(leafOf);
    const cp = checkpointV2({ seq: 1, start: 1, leaves, key, chainBefore: [] });
    const r = await verify([{ value: cp }, { value: rs[2], seq: 3 }, { value: proof(cp, 3, leaves, 2) }], [key.publicHex]);
    expect(r.problems).toEqual([]);
    expect(r.receipts[0]!.verdict).toBe('verified');
  });
});
