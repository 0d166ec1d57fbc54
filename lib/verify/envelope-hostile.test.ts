// Hostile transcripts through the real loading path (splitter, intake,
// verifier, assembler): a 50 MB junk line, deep nesting inside a text part,
// 10,000 repeated tool results. Each stays bounded in time and memory, names
// its file and line, and leaves the rest of the log verified.
import { describe, expect, it } from 'vitest';
import { loadFile } from '../sources/package';
import { readTestdataText } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from './log-verifier';
import type { VerificationReport } from '../verdict/report';

const KEY = '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917';
const ID = '9be6277d4770f9cf7c3f03f58c5075c3fdf23c7a120e46deb070da5fe64f2ac2';
const CLAUDE = readTestdataText('derived/envelopes/claude-code-stream.jsonl').trimEnd().split('\n');
const CODEX = readTestdataText('derived/envelopes/codex-exec.jsonl').trimEnd().split('\n');
const enc = new TextEncoder();
const MiB = 1 << 20;

async function verifyStream(name: string, chunks: () => AsyncGenerator<Uint8Array>): Promise<VerificationReport> {
  const trust = TrustStore.create([{ key: KEY }]);
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store });
  await loadFile({ name, stream: chunks }, v, 'files');
  return v.finish();
}

/** A Claude tool-result line whose text part is `text` (not repeated in tool_use_result). */
function claudeLineWithText(text: string): string {
  const line = JSON.parse(CLAUDE[2]!) as { message: { content: { content: { text: string }[] }[] }; tool_use_result?: unknown };
  line.message.content[0]!.content[0]!.text = text;
  delete line.tool_use_result;
  return JSON.stringify(line);
}

describe('hostile transcripts', () => {
  it('a 50 MB line of junk text between two real tool results: one parse_error naming file and line, the receipt still verified', async () => {
    const before = enc.encode(`${CLAUDE[0]}\n${CLAUDE[1]}\n`);
    const after = enc.encode(`\n${CLAUDE[2]}\n`);
    const junk = new Uint8Array(MiB).fill(0x7a); // 'z', streamed from one reused buffer: the test never holds 50 MB
    const head = enc.encode('{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"');
    const started = performance.now();
    const r = await verifyStream('session.jsonl', async function* () {
      yield before;
      yield head;
      for (let i = 0; i < 50; i++) yield junk;
      yield enc.encode('"}]}]}}');
      yield after;
    });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(r.problems.map((p) => [p.code, p.file, p.line])).toEqual([['parse_error', 'session.jsonl', 3]]);
    expect(r.problems[0]!.message).toMatch(/over 16 MiB/);
    expect(r.receipts.map((x) => [x.id, x.verdict, x.line])).toEqual([[ID, 'verified', 4]]);
  });

  it('deep nesting inside a receipt-carrying text part: a parse_error at that line, found at the depth limit, not by walking it all', async () => {
    const deep = `{"state":"completed","evidence":"verified","requestId":"r","receipt":${'['.repeat(2_000_000)}`;
    const started = performance.now();
    const r = await verifyStream('deep.jsonl', async function* () {
      yield enc.encode(`${CLAUDE[2]}\n${claudeLineWithText(deep)}\n`);
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.problems.map((p) => [p.code, p.file, p.line])).toEqual([['parse_error', 'deep.jsonl', 2]]);
    expect(r.problems[0]!.message).toMatch(/nesting deeper than 512 levels/);
    expect(r.receipts.map((x) => [x.verdict, x.line])).toEqual([['verified', 1]]);
  });

  it('deep nesting in a plain text result (no receipt in it) is a plain result: skipped, quickly', async () => {
    const started = performance.now();
    const r = await verifyStream('deep.jsonl', async function* () {
      yield enc.encode(`${claudeLineWithText('['.repeat(5_000_000))}\n`);
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.problems).toEqual([]);
    expect(r.receipts).toEqual([]);
  });

  it('10,000 repeated tool results: one record, no problems, no replay failure', async () => {
    const line = enc.encode(`${CODEX[3]}\n`);
    const r = await verifyStream('repeat.jsonl', async function* () {
      for (let i = 0; i < 10_000; i++) yield line;
    });
    expect(r.receipts.map((x) => [x.id, x.verdict, x.line, x.checks.content_hash, x.checks.delivery, x.checks.inclusion])).toEqual([
      [ID, 'verified', 1, 'pass', 'pass', 'skipped'],
    ]);
    expect(r.problems).toEqual([]);
    expect(r.summary.receipts).toBe(1);
  }, 120_000);

  it('repeated tool results whose signature fails: one record and one problem of each kind, not one per copy', async () => {
    // 1,000, not 10,000: a failing Ed25519 signature is re-checked by the strict JS engine (about 5 ms each here).
    const o = JSON.parse(readTestdataText('chio/realworld-2026-09/claude-code-tool-result-text.json')) as { receipt: { tool_name: string } };
    o.receipt.tool_name = 'delete_file';
    const line = enc.encode(`${JSON.stringify(o)}\n`);
    const r = await verifyStream('repeat.jsonl', async function* () {
      for (let i = 0; i < 1_000; i++) yield line;
    });
    expect(r.receipts.map((x) => [x.verdict, x.line])).toEqual([['failed', 1]]);
    // Every copy's delivery no longer binds the changed tool name, in the same words: said once too.
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([
      ['delivery_mismatch', 1],
      ['receipt_id_mismatch', 1],
      ['signature_invalid', 1],
    ]);
  }, 120_000);

  it('copies whose envelope says something else: the problem at the first of them, once', async () => {
    const o = JSON.parse(readTestdataText('chio/realworld-2026-09/claude-code-tool-result-text.json')) as { result: { isError: boolean } };
    o.result.isError = true;
    const r = await verifyStream('mixed.jsonl', async function* () {
      yield enc.encode(`${CODEX[3]}\n${JSON.stringify(o)}\n${CODEX[3]}\n${JSON.stringify(o)}\n`);
    });
    expect(r.receipts.map((x) => [x.line, x.checks.content_hash])).toEqual([[1, 'fail']]);
    // The entry (line 1) did not say it; the two tampered copies say it in the same words: once, at the first.
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([['content_hash_mismatch', 2]]);
  });
});
