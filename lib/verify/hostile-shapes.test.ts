// Hostile SHAPES (issue 20, part 5): input that is valid JSON, or nearly, whose shape would make the
// verifier hold or print far more than the log is worth. Each test is small; the sizes the bounds
// are about are measured by `npm run bench:hostile` (BENCHMARKS.md), not here.
import { describe, expect, it } from 'vitest';
import { loadFile } from '../sources/package';
import { type Plain, checkpoint, genAReceipt, keyFromSeed, leafOf, proof, signHex, tree } from '../../test/support/forge';
import { canonicalBytes } from '../json/canonicalize';
import { MAX_PROOF_LEVELS } from '../merkle';
import { LogAssembler } from './log-assembler';
import { MAX_PROBLEM_MESSAGE, makeProblem } from '../verdict/problems';
import { recordVerifier } from './record-checker';
import { emptyOutput } from './record-output';
import type { VerificationReport } from '../verdict/report';
import { TrustStore } from '../trust/trust-store';
import { pinnedVerifier } from '../../test/support/verify-records';

const key = keyFromSeed(0x5a);

/** Four signed receipts in a checkpoint, with their proofs: the lines of a log that must verify. */
function honestLog(): { lines: string[]; cp: { body: Plain; signature: string } } {
  const receipts = [1, 2, 3, 4].map((seq) => genAReceipt({ seq, key }));
  const leaves = receipts.map(leafOf);
  const cp = checkpoint({ seq: 1, start: 1, leaves, key });
  const lines = [
    JSON.stringify(cp),
    ...receipts.map((r, i) => JSON.stringify({ seq: i + 1, receipt: r })),
    ...leaves.map((_, i) => JSON.stringify(proof(cp, i + 1, leaves, i))),
  ];
  return { lines, cp };
}

async function verifyLines(name: string, lines: string[]): Promise<VerificationReport> {
  const text = new TextEncoder().encode(lines.join('\n') + '\n');
  // The log's key pinned: a receipt is `verified` only under a pinned key (contract part 2 §11).
  const v = pinnedVerifier([key.publicHex]);
  await loadFile(
    {
      name,
      async *stream() {
        yield text;
      },
    },
    v,
    'files',
  );
  return v.finish();
}

const hashes = (n: number) => Array.from({ length: n }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);

describe('proofs with absurd path lengths', () => {
  it('an inclusion proof of 10,000 levels is refused at its file and line; the rest of the log verifies', async () => {
    const { lines, cp } = honestLog();
    const deep = (receiptSeq: number) =>
      JSON.stringify({
        checkpoint_seq: 1,
        receipt_seq: receiptSeq,
        leaf_index: 1,
        merkle_root: cp.body.merkle_root,
        proof: { tree_size: 4, leaf_index: 1, audit_path: hashes(10_000) },
      });
    // One names an honest receipt (a second proof would fail it), one names no receipt.
    const all = [...lines, deep(2), deep(99)];
    const report = await verifyLines('deep.ndjson', all);
    expect(report.summary).toMatchObject({ receipts: 4, verified: 4, failed: 0 });
    expect(report.problems.map((p) => [p.code, p.file, p.line])).toEqual([
      ['parse_error', 'deep.ndjson', lines.length + 1],
      ['parse_error', 'deep.ndjson', lines.length + 2],
    ]);
    expect(report.problems[0]!.message).toBe(
      `$.proof.audit_path: 10000 entries; a tree of at most 2^64 leaves needs at most ${MAX_PROOF_LEVELS}, so this proof cannot be honest`,
    );
  });

  it('a consistency record of 10,000 chain hashes fails without its path being kept', async () => {
    const record = {
      schema: 'chio.checkpoint_consistency_proof.v2',
      log_id: 'local-log-x',
      from_checkpoint_seq: 1,
      to_checkpoint_seq: 2,
      from_checkpoint_sha256: '00'.repeat(32),
      to_checkpoint_sha256: '11'.repeat(32),
      from_log_tree_size: 4,
      to_log_tree_size: 8,
      appended_entry_start_seq: 5,
      appended_entry_end_seq: 8,
      chain_proof_hashes: hashes(10_000),
    };
    const out = emptyOutput();
    recordVerifier(TrustStore.empty()).verify(JSON.stringify(record), { file: 'c.ndjson', line: 3, role: 'auto', space: 's' }, 0, out);
    const [t] = out.transparency;
    expect(t!.fields.chain_proof_hashes).toBeUndefined();
    expect(t!.refused).toBe('chain_proof_hashes has 10000 entries; a chain of 2^64 checkpoints needs at most 64');
    expect(JSON.stringify(t).length).toBeLessThan(2_000);

    const { lines } = honestLog();
    const report = await verifyLines('c.ndjson', [...lines, JSON.stringify(record)]);
    expect(report.summary).toMatchObject({ verified: 4, failed: 0 });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ code: 'transparency_record_mismatch', file: 'c.ndjson', line: lines.length + 1 });
    expect(report.problems[0]!.message).toContain('chain_proof_hashes has 10000 entries');
  });

  it('a witness record with a 100 KB field is refused without keeping the field', () => {
    const out = emptyOutput();
    const witness = { schema: 'chio.checkpoint_witness.v1', checkpoint_seq: 1, junk: 'x'.repeat(100_000) };
    recordVerifier(TrustStore.empty()).verify(JSON.stringify(witness), { file: 'w.ndjson', line: 1, role: 'auto', space: 's' }, 0, out);
    expect(out.transparency[0]!.fields.junk).toBeUndefined();
    expect(out.transparency[0]!.refused).toMatch(/^its field "junk" is 100002 characters long/);
  });
});

describe('names of built-in object properties', () => {
  it('records whose schema or type is "constructor", "__proto__" or "toString" are parse problems; the rest of the log verifies', async () => {
    const { lines } = honestLog();
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    const hostile = names.flatMap((n) => [JSON.stringify({ schema: n }), JSON.stringify({ type: n, schema: n })]);
    const report = await verifyLines('builtins.ndjson', [...lines, ...hostile]);
    expect(report.summary).toMatchObject({ receipts: 4, verified: 4, failed: 0 });
    expect(report.problems.map((p) => [p.code, p.line])).toEqual(hostile.map((_, i) => ['parse_error', lines.length + 1 + i]));
  });
});

describe('deep nesting', () => {
  it('records nested 100,000 levels deep are parse problems with a short message; the rest of the log verifies', async () => {
    const { lines } = honestLog();
    const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
    const objects = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const report = await verifyLines('nested.ndjson', [...lines, arrays, objects]);
    expect(report.summary).toMatchObject({ receipts: 4, verified: 4, failed: 0 });
    expect(report.problems.map((p) => [p.code, p.line])).toEqual([
      ['parse_error', lines.length + 1],
      ['parse_error', lines.length + 2],
    ]);
    expect(report.problems[0]!.message).toBe('$[0][0][0][0][0][0][0][0][0][0][0][0]…(496 levels)…[0][0][0][0]: nesting deeper than 512 levels');
    expect(report.problems[1]!.message).toBe('$.a.a.a.a.a.a.a.a.a.a.a.a…(496 levels)….a.a.a.a: nesting deeper than 512 levels');
  });

  it('a JSON array file with an element nested 100,000 deep between two receipts: both receipts verify', async () => {
    const r1 = genAReceipt({ seq: 1, key });
    const r2 = genAReceipt({ seq: 2, key });
    const text = `[${JSON.stringify(r1)},${'['.repeat(100_000)}${']'.repeat(100_000)},${JSON.stringify(r2)}]`;
    const report = await verifyLines('nested.json', [text]);
    expect(report.summary).toMatchObject({ receipts: 2, verified: 2 });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ code: 'parse_error', file: 'nested.json' });
    expect(report.problems[0]!.message.length).toBeLessThan(200);
  });
});

describe('problems per code and file are capped', () => {
  it('250 proofs that point at nothing and 250 witness records that match nothing: 100 of each and a counted summary', async () => {
    const { lines } = honestLog();
    const first = lines.length + 1;
    const noise: string[] = [];
    for (let i = 0; i < 250; i++) {
      noise.push(
        JSON.stringify({
          checkpoint_seq: 1,
          receipt_seq: 1000 + i,
          leaf_index: 0,
          merkle_root: `0x${'00'.repeat(32)}`,
          proof: { tree_size: 1, leaf_index: 0, audit_path: [] },
        }),
      );
      noise.push(JSON.stringify({ schema: 'chio.checkpoint_witness.v1', checkpoint_seq: 1000 + i }));
    }
    const report = await verifyLines('noise.ndjson', [...lines, ...noise]);
    expect(report.summary).toMatchObject({ receipts: 4, verified: 4, failed: 0 });
    for (const [code, offset] of [
      ['missing_receipt', 0],
      ['transparency_record_mismatch', 1],
    ] as const) {
      const list = report.problems.filter((p) => p.code === code);
      expect(list).toHaveLength(101);
      // The first hundred by line, then the summary at the first line left out.
      const kept = Array.from({ length: 100 }, (_, i) => first + 2 * i + offset);
      const firstMore = first + 200 + offset;
      const lastMore = first + 2 * 249 + offset;
      expect(list.map((p) => p.line)).toEqual([...kept.slice(0, 100), firstMore].sort((a, b) => a - b));
      expect(list.find((p) => p.message.startsWith('…'))).toMatchObject({
        line: firstMore,
        severity: 'error',
        message: `… and 150 more ${code} problems in noise.ndjson (first at line ${firstMore}, last at line ${lastMore}); only the first 100 are listed`,
      });
    }
    expect(report.ok).toBe(false);
  });

  it('problems that name a receipt are never capped (each receipt row keeps its code)', async () => {
    const bad = Array.from({ length: 120 }, (_, i) => {
      const r = genAReceipt({ seq: i + 1, key });
      return JSON.stringify({ seq: i + 1, receipt: { ...r, signature: '00'.repeat(64) } });
    });
    const report = await verifyLines('bad.ndjson', bad);
    expect(report.summary).toMatchObject({ receipts: 120, failed: 120 });
    expect(report.problems.filter((p) => p.code === 'signature_invalid')).toHaveLength(120);
  });
});

describe('many tiny items', () => {
  it('an export bundle of 50,000 empty witness records: 100 problems and one counted summary', async () => {
    const { lines } = honestLog();
    const bundle = `{"bundle":{"toolReceipts":[]},"transparency":{"witnesses":[${Array(50_000).fill('{}').join(',')}]}}`;
    const report = await verifyLines('bundle.ndjson', [...lines, bundle]);
    expect(report.summary).toMatchObject({ receipts: 4, verified: 4 });
    const mismatches = report.problems.filter((p) => p.code === 'transparency_record_mismatch');
    expect(mismatches).toHaveLength(101);
    expect(mismatches.at(-1)!.message).toBe(
      `… and 49900 more transparency_record_mismatch problems in bundle.ndjson (first at line ${lines.length + 1}, last at line ${lines.length + 1}); only the first 100 are listed`,
    );
  });

  it('600,000 items of one batch reach the assembler without a stack overflow (the CLI died on 3,000,000 tiny records)', () => {
    // More than a call takes arguments: `list.push(...items)` threw RangeError.
    const out = emptyOutput();
    for (let i = 0; i < 600_000; i++) out.transparency.push({ file: 'tiny.ndjson', line: i + 1, order: i, space: 's', kind: 'witness', fields: {} });
    const assembler = new LogAssembler();
    assembler.add(out);
    const report = assembler.finish(false);
    expect(report.problems).toHaveLength(101);
    expect(report.problems.at(-1)!.message).toMatch(
      /^… and 599900 more transparency_record_mismatch problems in tiny\.ndjson \(first at line 101, last at line 600000\)/,
    );
  });
});

describe('what is kept of each record', () => {
  it('a checkpoint is kept as its typed fields: not its parsed body, signature or text', () => {
    const { lines } = honestLog();
    const out = emptyOutput();
    recordVerifier(TrustStore.empty()).verify(lines[0]!, { file: 'c.ndjson', line: 1, role: 'auto', space: 's' }, 0, out);
    const cp = out.checkpoints[0]!.cp;
    expect(Object.keys(cp)).not.toContain('body');
    expect(Object.keys(cp)).not.toContain('signature');
    expect(Object.keys(cp)).not.toContain('merkleRootText');
    expect(cp.checkpointSeq).toBe(1n);
  });

  it('a checkpoint with a 1 MB unknown key fails structure, quoting the key cut short', async () => {
    const { lines } = honestLog();
    const body = { ...(JSON.parse(lines[0]!) as { body: Plain }).body, ['k'.repeat(1_000_000)]: 1 };
    const cp = { body, signature: signHex(key.secret, canonicalBytes(tree(body))) };
    const report = await verifyLines('huge-key.ndjson', [JSON.stringify(cp)]);
    expect(report.checkpoints[0]).toMatchObject({ verdict: 'failed', checks: { structure: 'fail' } });
    expect(report.checkpoints[0]!.details!.structure!.length).toBeLessThan(400);
    for (const p of report.problems) expect(p.message.length).toBeLessThanOrEqual(MAX_PROBLEM_MESSAGE);
  });

  it('a problem message of a megabyte is cut to MAX_PROBLEM_MESSAGE characters, saying by how much', () => {
    const p = makeProblem('parse_error', `duplicate key "${'é'.repeat(1_000_000)}"`);
    expect(MAX_PROBLEM_MESSAGE).toBe(4096);
    expect(p.message.length).toBeLessThanOrEqual(4096);
    expect(p.message).toMatch(/… \(\d+ more characters\)$/);
  });
});
