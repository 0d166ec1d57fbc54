// Intake of receipts carried in envelopes (contract part 2 §2): every shape of
// the table, on the real Claude Code tool-result text and the transcripts
// derived from it (lib/testdata/derived/envelopes/README.md).
import { describe, expect, it } from 'vitest';
import { readTestdataText } from '../../test/support/testdata';
import { intakeRecord } from './intake';

const REAL = readTestdataText('chio/realworld-2026-09/claude-code-tool-result-text.json');
const outcome = () => JSON.parse(REAL) as Record<string, unknown> & { receipt: Record<string, unknown> };
const lines = (name: string) => readTestdataText(`derived/envelopes/${name}`).trimEnd().split('\n');
const RECEIPT_ID = '9be6277d4770f9cf7c3f03f58c5075c3fdf23c7a120e46deb070da5fe64f2ac2';

function items(text: string) {
  const r = intakeRecord(text, 'auto');
  if (!r.ok) throw new Error(`${r.issue.path}: ${r.issue.message}`);
  return r;
}

describe('the derived transcripts (lib/testdata/derived/envelopes/README.md)', () => {
  it('carry the real outcome text byte for byte, and its receipt, result and delivery unchanged', () => {
    const claude = JSON.parse(lines('claude-code-stream.jsonl')[2]!) as {
      message: { content: { content: { text: string }[] }[] };
      tool_use_result: { text: string }[];
    };
    expect(claude.message.content[0]!.content[0]!.text).toBe(REAL);
    expect(claude.tool_use_result[0]!.text).toBe(REAL);
    const codex = JSON.parse(lines('codex-exec.jsonl')[3]!) as { item: { result: { content: { text: string }[] } } };
    expect(codex.item.result.content[0]!.text).toBe(REAL);
    const mcp = JSON.parse(readTestdataText('derived/envelopes/mcp-tool-result.json')) as {
      _meta: { chioEvidence: Record<string, unknown>; chioDelivery: unknown; chio: Record<string, unknown> };
    };
    const o = outcome();
    expect(mcp._meta.chioEvidence.receipt).toEqual(o.receipt);
    expect(mcp._meta.chio.receipt).toEqual(o.receipt);
    expect(mcp._meta.chioEvidence.output).toEqual(o.result);
    expect(mcp._meta.chioDelivery).toEqual(o.delivery);
  });
});

describe('envelopes and host transcripts (contract part 2 §2)', () => {
  it('the real bridge outcome: its receipt, with the result and delivery to check and the claims as written', () => {
    const r = items(REAL);
    expect(r.items).toHaveLength(1);
    const [item] = r.items;
    expect(item).toMatchObject({ kind: 'tool', path: '$.receipt' });
    expect(item!.value.get('id')).toBe(RECEIPT_ID);
    expect(item!.envelopes).toHaveLength(1);
    expect(item!.envelopes![0]).toMatchObject({ kind: 'chio-bridge-outcome', state: 'completed', evidence: 'verified', path: '$', issues: [] });
    expect(item!.envelopes![0]!.output).toBeDefined();
    expect(item!.envelopes![0]!.delivery).toBeDefined();
    expect(r.issues).toBeUndefined();
  });

  it('Claude Code stream-json: init and tool_use lines carry nothing; the tool_result line one receipt, its tool_use_result repeat read once', () => {
    const [init, call, result] = lines('claude-code-stream.jsonl');
    expect(items(init!)).toEqual({ ok: true, items: [] });
    expect(items(call!)).toEqual({ ok: true, items: [] });
    const r = items(result!);
    expect(r.items).toHaveLength(1);
    expect(r.items[0]!.path).toBe('$.message.content[0].content[0].text→$.receipt');
    expect(r.items[0]!.envelopes!.map((e) => [e.kind, e.host])).toEqual([['chio-bridge-outcome', 'claude-code-stream-json']]);
  });

  it('Claude Code: a tool_use_result that differs from the text part is read too, and the same receipt is one item with both envelopes', () => {
    const line = JSON.parse(lines('claude-code-stream.jsonl')[2]!) as { tool_use_result: { text: string }[] };
    const changed = { ...outcome(), state: 'unknown' };
    line.tool_use_result[0]!.text = JSON.stringify(changed);
    const r = items(JSON.stringify(line));
    expect(r.items).toHaveLength(1);
    expect(r.items[0]!.envelopes!.map((e) => [e.state, e.path])).toEqual([
      ['completed', '$.message.content[0].content[0].text→$'],
      ['unknown', '$.tool_use_result[0].text→$'],
    ]);
  });

  it('Codex exec --json: only a completed mcp_tool_call carries a receipt', () => {
    const all = lines('codex-exec.jsonl').map((l) => items(l).items.length);
    expect(all).toEqual([0, 0, 0, 1, 0, 0]);
    const r = items(lines('codex-exec.jsonl')[3]!);
    expect(r.items[0]!.path).toBe('$.item.result.content[0].text→$.receipt');
    expect(r.items[0]!.envelopes![0]!.host).toBe('codex-exec-json');
  });

  it('an MCP tool result: _meta.chio repeats the receipt of _meta.chioEvidence, which is one item', () => {
    const r = items(readTestdataText('derived/envelopes/mcp-tool-result.json'));
    expect(r.items).toHaveLength(1);
    expect(r.items[0]!.path).toBe('$._meta.chioEvidence.receipt');
    expect(r.items[0]!.envelopes![0]).toMatchObject({
      kind: 'mcp-tool-result',
      state: 'completed',
      outputKind: 'value',
      decision: 'allow',
      schema: 'chio.mcp.execution-evidence.v1',
    });
    expect(r.items[0]!.envelopes![0]!.host).toBeUndefined();
  });

  it('an MCP tool result as the result of a JSON-RPC response', () => {
    const mcp = JSON.parse(readTestdataText('derived/envelopes/mcp-tool-result.json')) as unknown;
    const r = items(JSON.stringify({ jsonrpc: '2.0', id: 7, result: mcp }));
    expect(r.items.map((i) => i.path)).toEqual(['$.result._meta.chioEvidence.receipt']);
  });

  it('a different receipt in _meta.chio is verified as its own, and a foreign id is an envelope issue', () => {
    const mcp = JSON.parse(readTestdataText('derived/envelopes/mcp-tool-result.json')) as { _meta: { chio: { receipt: Record<string, unknown> } } };
    mcp._meta.chio.receipt = { ...mcp._meta.chio.receipt, id: 'rcpt-other' };
    const r = items(JSON.stringify(mcp));
    expect(r.items.map((i) => i.path)).toEqual(['$._meta.chioEvidence.receipt', '$._meta.chio.receipt']);
    expect(r.items[1]!.envelopes![0]!.issues[0]).toMatch(/_meta\.chio\.receipt is receipt "rcpt-other", not the receipt "9be6277d/);
    expect(r.items[1]!.envelopes![0]!.output).toBeUndefined();
  });

  it('outcomes without a receipt and plain text results are skipped silently', () => {
    expect(items(JSON.stringify({ state: 'not_dispatched', evidence: 'unverified', requestId: 'r-1', reason: 'kernel unavailable' }))).toEqual({
      ok: true,
      items: [],
    });
    const line = JSON.parse(lines('claude-code-stream.jsonl')[2]!) as { message: { content: { content: { text: string }[] }[] }; tool_use_result: unknown };
    for (const text of ['Successfully wrote to /workspace/x.txt', '{"stdout":"ok"}', '{ not json at all', '[1, 2, 3]']) {
      line.message.content[0]!.content[0]!.text = text;
      line.tool_use_result = text;
      expect(items(JSON.stringify(line)), text).toEqual({ ok: true, items: [] });
    }
  });

  it('a receipt-carrying text that does not parse strictly is reported with its path, never dropped unseen', () => {
    const line = JSON.parse(lines('claude-code-stream.jsonl')[2]!) as { message: { content: { content: { text: string }[] }[] }; tool_use_result: unknown };
    line.message.content[0]!.content[0]!.text = REAL.replace('"tool_name":"write_file"', '"tool_name":"shadow","tool_name":"write_file"');
    delete line.tool_use_result;
    const r = items(JSON.stringify(line));
    expect(r.items).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ code: 'duplicate_key', path: '$.message.content[0].content[0].text→$.receipt.tool_name' })]);
    expect(r.issues![0]!.message).toMatch(/duplicate key "tool_name"/);
  });

  it('a chio-bridge export: the bundle and its snake_case transparency lists', () => {
    const r = items(readTestdataText('derived/envelopes/chio-bridge-export.json'));
    const kinds = r.items.map((i) => i.kind);
    expect(kinds.filter((k) => k === 'tool')).toHaveLength(8);
    expect(kinds.filter((k) => k === 'checkpoint')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'proof')).toHaveLength(8);
    expect(r.items.filter((i) => ['publication', 'witness', 'consistency', 'equivocation'].includes(i.kind)).map((i) => [i.kind, i.path])).toEqual([
      ['publication', '$.transparency.publications[0]'],
      ['publication', '$.transparency.publications[1]'],
      ['witness', '$.transparency.witnesses[0]'],
      ['consistency', '$.transparency.consistency_proofs[0]'],
    ]);
    expect(r.items.every((i) => i.envelopes === undefined)).toBe(true);
    expect(intakeRecord(JSON.stringify({ bundle: { toolReceipts: [] }, transparency: [] }), 'auto')).toMatchObject({
      ok: false,
      issue: { path: '$.transparency' },
    });
  });

  it('a bridge outcome whose receipt is not an object is a located parse_error', () => {
    const r = items(JSON.stringify({ ...outcome(), receipt: 'rcpt-1' }));
    expect(r.items).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ code: 'parse_error', path: '$.receipt' })]);
  });

  it('claims are cut at 100 characters, saying so', () => {
    const r = items(JSON.stringify({ ...outcome(), state: 'x'.repeat(5000) }));
    expect(r.items[0]!.envelopes![0]!.state).toBe(`${'x'.repeat(100)}… (5000 characters)`);
  });
});
