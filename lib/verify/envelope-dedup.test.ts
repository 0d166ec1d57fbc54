// One receipt reached twice is one record (contract part 2 §2), across lines
// and files, also when the page's Web Workers each see part of the log: the
// merge happens in the whole-log half (LogAssembler), in log order.
import { describe, expect, it } from 'vitest';
import { loadFile, type SourceFile } from '../sources/package';
import { readTestdataText } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from './log-verifier';
import type { ReceiptView } from '../verdict/receipt-view';
import type { VerificationReport } from '../verdict/report';
import { reportToJson } from './report-json';
import { inProcessWorker } from '../../test/support/in-process-worker';
import { poolChecker } from '../workers/pool';

const KEY = '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917';
const ID = '9be6277d4770f9cf7c3f03f58c5075c3fdf23c7a120e46deb070da5fe64f2ac2';
const REAL = readTestdataText('chio/realworld-2026-09/claude-code-tool-result-text.json');
type Outcome = Record<string, unknown> & { receipt: Record<string, unknown>; result: Record<string, unknown> };
const outcome = (): Outcome => JSON.parse(REAL) as Outcome;
const CLAUDE = readTestdataText('derived/envelopes/claude-code-stream.jsonl').trimEnd().split('\n');
const CODEX = readTestdataText('derived/envelopes/codex-exec.jsonl').trimEnd().split('\n');
const MCP = readTestdataText('derived/envelopes/mcp-tool-result.json');

function trust(keys: string[] = [KEY]) {
  const t = TrustStore.create(keys.map((key) => ({ key })));
  if (!t.ok) throw new Error(t.error);
  return t.store;
}

/** Records as [file, text]; lines count per file. */
async function verify(records: [string, string][], keys?: string[]): Promise<VerificationReport> {
  const v = new LogVerifier({ trust: trust(keys) });
  const lines = new Map<string, number>();
  for (const [file, text] of records) {
    const line = (lines.get(file) ?? 0) + 1;
    lines.set(file, line);
    await v.addRecord(text, { file, line, role: 'auto', space: 'files' });
  }
  return v.finish();
}

const summary = (r: VerificationReport) =>
  r.receipts.map((x) => [x.id.slice(0, 8), x.verdict, `${x.file}:${x.line}`, x.checks.content_hash, x.checks.delivery, x.checks.inclusion]);

describe('one receipt reached twice is one record', () => {
  it('the real text, the Claude and Codex transcripts and the MCP result together: one receipt, nothing failed', async () => {
    const r = await verify([
      ...CLAUDE.map((l): [string, string] => ['claude.jsonl', l]),
      ...CODEX.map((l): [string, string] => ['codex.jsonl', l]),
      ['mcp.json', MCP],
      ['outcome.json', REAL],
    ]);
    expect(summary(r)).toEqual([['9be6277d', 'verified', 'claude.jsonl:3', 'pass', 'pass', 'skipped']]);
    expect(r.receipts[0]!.envelope).toMatchObject({ kind: 'chio-bridge-outcome', host: 'claude-code-stream-json' });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('a transcript that repeats the tool result on another line is not a replay: one record, inclusion still the uncheckpointed tail', async () => {
    const r = await verify([
      ['claude.jsonl', CLAUDE[2]!],
      ['claude.jsonl', CLAUDE[2]!],
      ['claude.jsonl', CLAUDE[2]!],
    ]);
    expect(summary(r)).toEqual([['9be6277d', 'verified', 'claude.jsonl:1', 'pass', 'pass', 'skipped']]);
    expect(r.problems).toEqual([]);
  });

  it('a transcript beside the plain receipt: the plain copy stays (a package keeps its seq) and gains the envelope checks', async () => {
    const receipt = JSON.stringify(outcome().receipt);
    const r = await verify([
      ['codex.jsonl', CODEX[3]!],
      ['receipts.ndjson', JSON.stringify({ seq: 7, receipt: JSON.parse(receipt) as unknown })],
    ]);
    expect(summary(r)).toEqual([['9be6277d', 'verified', 'receipts.ndjson:1', 'pass', 'pass', 'skipped']]);
    expect(r.receipts[0]!.seq).toBe(7n);
    expect(r.receipts[0]!.envelope).toMatchObject({ host: 'codex-exec-json' });
    expect(r.problems).toEqual([]);
  });

  it('the plain receipt twice is still a replay (no envelope, no merge)', async () => {
    const receipt = JSON.stringify(outcome().receipt);
    const r = await verify([
      ['r.ndjson', receipt],
      ['r.ndjson', receipt],
    ]);
    expect(r.receipts.map((x) => x.checks.inclusion)).toEqual(['fail', 'fail']);
  });

  it("a copy's envelope that fails joins the record: content_hash fails, named at the copy's line", async () => {
    const o = outcome();
    o.result = { ...o.result, isError: true };
    const r = await verify([
      ['a.jsonl', REAL],
      ['a.jsonl', JSON.stringify(o)],
    ]);
    expect(summary(r)).toEqual([['9be6277d', 'failed', 'a.jsonl:1', 'fail', 'pass', 'skipped']]);
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([['content_hash_mismatch', 2]]);
  });

  it("Claude's tool_use_result carrying another output than its text part: one record, content_hash fails, the envelope named", async () => {
    const line = JSON.parse(CLAUDE[2]!) as { tool_use_result: { text: string }[] };
    const o = outcome();
    o.result = { ...o.result, isError: true };
    line.tool_use_result[0]!.text = JSON.stringify(o);
    const r = await verify([['claude.jsonl', JSON.stringify(line)]]);
    expect(summary(r)).toEqual([['9be6277d', 'failed', 'claude.jsonl:1', 'fail', 'pass', 'skipped']]);
    expect(r.problems.map((p) => p.code)).toEqual(['content_hash_mismatch']);
    expect(r.problems[0]!.message).toMatch(/\(envelope at \$\.tool_use_result\[0\]\.text→\$\)$/);
  });

  it('copies of a receipt whose signature fails raise signature_invalid once, at the record kept', async () => {
    const o = outcome();
    o.receipt.timestamp = 1788992953;
    const text = JSON.stringify(o);
    const r = await verify(Array.from({ length: 5 }, (): [string, string] => ['a.jsonl', text]));
    expect(r.receipts).toHaveLength(1);
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([
      ['receipt_id_mismatch', 1],
      ['signature_invalid', 1],
    ]);
  });

  it('two different bodies under one id: envelope_invalid, both verified on their own, and neither placed by a checkpoint', async () => {
    const o = outcome();
    o.receipt.tool_name = 'delete_file';
    const r = await verify([
      ['a.jsonl', REAL],
      ['b.jsonl', JSON.stringify(o)],
    ]);
    // The replay rule (inclusion.ts) still holds: two uncheckpointed copies under one id are not two entries.
    expect(r.receipts.map((x) => [x.file, x.verdict, x.checks.signature, x.checks.content_hash, x.checks.inclusion])).toEqual([
      ['a.jsonl', 'failed', 'pass', 'pass', 'fail'],
      ['b.jsonl', 'failed', 'fail', 'pass', 'fail'],
    ]);
    const invalid = r.problems.filter((p) => p.code === 'envelope_invalid');
    expect(invalid).toEqual([expect.objectContaining({ receipt_id: ID, file: 'b.jsonl', line: 1 })]);
    expect(invalid[0]!.message).toMatch(/also names a different body at a\.jsonl:1/);
    expect(r.ok).toBe(false);
  });

  it('two different bodies under one id inside one MCP result (_meta.chio vs chioEvidence): envelope_invalid', async () => {
    const mcp = JSON.parse(MCP) as { _meta: { chio: { receipt: Record<string, unknown> } } };
    mcp._meta.chio.receipt = { ...mcp._meta.chio.receipt, policy_hash: '0'.repeat(64) };
    const r = await verify([['mcp.json', JSON.stringify(mcp)]]);
    expect(r.receipts.map((x) => [x.line, x.checks.signature, x.checks.content_hash, x.checks.delivery])).toEqual([
      [1, 'pass', 'pass', 'pass'],
      [1, 'fail', 'skipped', 'skipped'],
    ]);
    expect(r.problems.filter((p) => p.code === 'envelope_invalid')).toHaveLength(1);
  });
});

describe('across Web Workers', () => {
  it("copies in different workers' batches: the single-thread report, and the explorer's rows are the report's receipts, one to one", async () => {
    const o = outcome();
    o.receipt = { ...o.receipt, tool_name: 'delete_file' };
    const lines = [...CLAUDE, ...CODEX, REAL, CLAUDE[2]!, JSON.stringify(o), REAL];
    const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
    const file = (): SourceFile => ({
      name: 'host.jsonl',
      stream: async function* () {
        yield bytes;
      },
    });

    const singleViews: ReceiptView[] = [];
    const single = new LogVerifier({ trust: trust(), onViews: (v) => singleViews.push(...v) });
    await loadFile(file(), single, 'files');
    const expected = await single.finish();
    expect(expected.receipts.map((x) => x.line)).toEqual([3, 12]);

    const rows: ReceiptView[] = [];
    const checker = poolChecker(() => inProcessWorker(), { workers: 3, batchSize: 2 });
    const pool = new LogVerifier({ trust: trust(), checker, onViews: (v) => rows.push(...v) });
    await loadFile(file(), pool, 'files');
    const report = await pool.finish();
    expect(reportToJson(report)).toBe(reportToJson(expected));
    for (const views of [rows, singleViews]) {
      const inOrder = [...views].sort((a, b) => a.order - b.order);
      expect(inOrder.map((v) => [v.id, v.file, v.line])).toEqual(report.receipts.map((x) => [x.id, x.file, x.line]));
    }
  });
});
