// The command line on receipts carried in envelopes (contract part 2 §2, §5.4,
// §10), as a user runs it: a real process on the real Claude Code tool-result
// text and on the Claude Code and Codex transcripts derived from it.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readTestdataJson, readTestdataText, testdataPath } from '../../test/support/testdata';
import { runCli as run } from '../../test/support/cli-process';
import { TrustStore } from '../../lib/trust/trust-store';
import type { VerificationReport } from '../../lib/verdict/report';
import { verifyPaths } from './main';

const KEY = '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917';
const ID = '9be6277d4770f9cf7c3f03f58c5075c3fdf23c7a120e46deb070da5fe64f2ac2';
const REAL = 'chio/realworld-2026-09/claude-code-tool-result-text.json';

interface JsonReport {
  ok: boolean;
  receipts: {
    id: string;
    verdict: string;
    line: number;
    checks: Record<string, string>;
    details?: Record<string, string>;
    envelope?: Record<string, unknown>;
  }[];
  problems: { code: string; file?: string; line?: number }[];
}

async function verifyJson(files: string[]): Promise<{ code: number; report: JsonReport }> {
  const r = await run(['verify', ...files, '--trust-key', KEY, '--json']);
  expect(r.stderr).toBe('');
  return { code: r.code, report: JSON.parse(r.stdout) as JsonReport };
}

const ENVELOPE_CHECKS = {
  parse: 'pass',
  signature: 'pass',
  receipt_id: 'pass',
  semantics: 'pass',
  parameter_hash: 'pass',
  content_hash: 'pass',
  delivery: 'pass',
  inclusion: 'skipped',
  signer_trusted: 'pass',
};

describe('receipt-audit verify on receipts in envelopes', () => {
  it('the real tool-result text (§10): exit 0, 9be6277d… unchecked_tail, content_hash and delivery pass, no problems', async () => {
    const { code, report } = await verifyJson([testdataPath(REAL)]);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.receipts).toEqual([
      expect.objectContaining({ id: ID, verdict: 'verified', checks: ENVELOPE_CHECKS, details: { inclusion: 'uncheckpointed' } }),
    ]);
    expect(report.receipts[0]!.envelope).toEqual({ kind: 'chio-bridge-outcome', state: 'completed', evidence: 'verified', claimed: true });
    expect(report.problems).toEqual([]);
  });

  it.each([
    ['the Claude Code stream-json transcript', 'claude-code-stream.jsonl', 3, 'claude-code-stream-json'],
    ['the Codex exec --json transcript', 'codex-exec.jsonl', 4, 'codex-exec-json'],
  ])('%s: exit 0, the receipt once at its tool-result line, every check', async (_, file, line, host) => {
    const { code, report } = await verifyJson([testdataPath(`derived/envelopes/${file}`)]);
    expect(code).toBe(0);
    expect(report.receipts.map((r) => [r.id, r.verdict, r.line, r.checks])).toEqual([[ID, 'verified', line, ENVELOPE_CHECKS]]);
    expect(report.receipts[0]!.envelope).toMatchObject({ host });
    expect(report.problems).toEqual([]);
  });

  it('a transcript whose tool result was changed: exit 1, content_hash fails at that line, and the summary says the claim is contradicted', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'envelopes-'));
    const lines = readTestdataText('derived/envelopes/claude-code-stream.jsonl').trimEnd().split('\n');
    // The text part and its tool_use_result repeat both carry the changed output.
    lines[2] = lines[2]!.split('Successfully wrote to').join('Did not write to');
    const file = path.join(dir, 'tampered.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const { code, report } = await verifyJson([file]);
    expect(code).toBe(1);
    expect(report.receipts.map((r) => [r.verdict, r.checks.signature, r.checks.content_hash, r.checks.delivery])).toEqual([['failed', 'pass', 'fail', 'pass']]);
    expect(report.problems.map((p) => [p.code, p.file, p.line])).toEqual([['content_hash_mismatch', file, 3]]);

    const human = await run(['verify', file, '--trust-key', KEY]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/Envelopes: 1 receipt\(s\) arrived in a wrapper; its words are claimed by the wrapper, not verified/);
    expect(human.stdout).toMatch(/1 in a chio-bridge outcome in a Claude Code stream-json transcript: state completed, evidence verified/);
    expect(human.stdout).toContain(`contradicted by the verdict: ${ID} (${file}:3) is failed, though its wrapper claimed state completed, evidence verified`);
    expect(human.stdout).toMatch(/content_hash\s+0 pass\s+1 fail/);
  });

  it('a transcript named .jsonl, .ndjson or .json reads the same (the CLI and the page share the splitter)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'envelopes-'));
    const text = readTestdataText('derived/envelopes/claude-code-stream.jsonl');
    const trust = TrustStore.create([{ key: KEY }]);
    if (!trust.ok) throw new Error(trust.error);
    const seen: unknown[] = [];
    for (const ext of ['jsonl', 'ndjson', 'json']) {
      const file = path.join(dir, `session.${ext}`);
      writeFileSync(file, text);
      const r = await verifyPaths([file], trust.store);
      seen.push(r.receipts.map((x) => [x.id, x.verdict, x.line, x.checks]));
      expect(r.problems, ext).toEqual([]);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    expect(seen[0]).toEqual([[ID, 'verified', 3, ENVELOPE_CHECKS]]);
  });

  it('the real text, both transcripts and the MCP result in one run: one receipt, exit 0', async () => {
    const files = [REAL, 'derived/envelopes/claude-code-stream.jsonl', 'derived/envelopes/codex-exec.jsonl', 'derived/envelopes/mcp-tool-result.json'].map(
      testdataPath,
    );
    const { code, report } = await verifyJson(files);
    expect(code).toBe(0);
    expect(report.receipts.map((r) => r.id)).toEqual([ID]);
    expect(report.problems).toEqual([]);
  });
});

describe('a chio-bridge export {bundle, transparency} (derived from the two-checkpoint package)', () => {
  const pkg = testdataPath('chio/derived-checkpoints/checkpoint-batch-v1');
  const exported = testdataPath('derived/envelopes/chio-bridge-export.json');
  const keys = [
    readTestdataJson<{ kernel_key: string }>('chio/derived-checkpoints/checkpoint-batch-v1/leaves.json').kernel_key,
    ...readFileSync(path.join(pkg, 'receipts.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { receipt: { kernel_key: string } }).receipt.kernel_key),
  ];
  const trust = () => {
    const t = TrustStore.create([...new Set(keys)].map((key) => ({ key })));
    if (!t.ok) throw new Error(t.error);
    return t.store;
  };
  const outcome = (r: VerificationReport) => ({
    receipts: r.receipts.map((x) => [x.id, x.seq, x.verdict, x.checks]),
    checkpoints: r.checkpoints.map((c) => [c.checkpoint_seq, c.verdict, c.checks]),
  });

  // The package's receipts come from two real kernels and its checkpoints from a test key, so no
  // receipt is included (contract part 2 §5.2: a checkpoint vouches only for its own signer's
  // receipts); the export must say exactly what the package says.
  it('verifies like the package it was built from: every receipt checked against its proof, both checkpoints, its transparency records rebuilt', async () => {
    const fromExport = await verifyPaths([exported], trust());
    const fromPackage = await verifyPaths([pkg], trust());
    expect(outcome(fromExport)).toEqual(outcome(fromPackage));
    expect(fromExport.receipts.map((r) => r.details?.inclusion)).toEqual(
      Array(8).fill(expect.stringMatching(/^receipt signer differs from checkpoint signer/)),
    );
    expect(fromExport.checkpoints.map((c) => c.verdict)).toEqual(['verified', 'verified']);
    expect(new Set(fromExport.problems.map((p) => p.code))).toEqual(new Set(['inclusion_failed']));
  });

  it('a publication changed in its transparency list is caught, at the export', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'export-'));
    const file = path.join(dir, 'export.json');
    const text = readFileSync(exported, 'utf8');
    expect(text).toContain('"published_at": 1777000001');
    writeFileSync(file, text.replace('"published_at": 1777000001', '"published_at": 1777000002'));
    const r = await verifyPaths([file], trust());
    expect(r.ok).toBe(false);
    const mismatch = r.problems.filter((p) => p.code === 'transparency_record_mismatch');
    expect(mismatch.map((p) => [p.file, p.line])).toEqual([[file, 1]]);
    expect(mismatch[0]!.message).toMatch(/publication/);
  });
});
