// ZeroClaw's receipts from each shape a log holds them in: tool-call records,
// chat transcripts (native tool calls, prompt/XML mode, content parts), trace
// LogEvents and text (replies, terminal logs), with their turns, tools,
// arguments and outputs.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../json/parse';
import { type JsonObject, toPlain } from '../../json/value';
import { readTestdataText } from '../../../test/support/testdata';
import { type ZcItem, importZeroclaw } from './import';

const A = 'zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY';
const B = 'zc-receipt-1711547700-LZniHOMTlFRBe-r9T2jjeeyxYXy9xoffkla74BTC9eQ';
const C = 'zc-receipt-1711547700-G1bdhVeWQitz1SqiChJsSX_0WdfunQBHwornTg3K9xw';

const obj = (v: unknown): JsonObject => {
  const p = parseJson(JSON.stringify(v));
  if (!p.ok) throw new Error(p.issue.message);
  return p.value as JsonObject;
};
const messages = (file: string, ms: unknown[]): ZcItem[] => ms.map((m, i) => ({ kind: 'zc-message', value: obj(m), file, line: i + 1, order: i * 1_000_000 }));

describe('tool-call records', () => {
  it('the HMAC vectors: tool, arguments, raw output, each at its line', () => {
    const parsed = parseJson(readTestdataText('zeroclaw/synthesized/hmac-test-vectors.json'));
    if (!parsed.ok) throw new Error(parsed.issue.message);
    const items = (parsed.value as JsonObject[]).map((value, i): ZcItem => ({ kind: 'zc-call', value, file: 'v.json', line: 2 + 12 * i, order: i }));
    const { calls, claims, malformed } = importZeroclaw(items);
    expect(claims).toEqual([]);
    expect(malformed).toEqual([]);
    expect(calls.map((c) => [c.toolName, c.via, c.result, c.turn])).toEqual([
      ['shell', 'record', 'Mon Mar 27', undefined],
      ['shell', 'record', 'output', undefined],
      ['web_search', 'record', 'results', undefined],
      ['file_read', 'record', expect.any(String), undefined],
    ]);
    expect(toPlain(calls[0]!.args!)).toEqual({ command: 'date' });
  });

  it('a record without a string tool_name is named as malformed, and its receipt still counts', () => {
    const { calls, malformed } = importZeroclaw([
      { kind: 'zc-call', value: obj({ tool_name: 7, args: {}, result: 'x', receipt: A }), file: 'c.ndjson', line: 3, order: 0 },
    ]);
    expect(malformed).toEqual([{ file: 'c.ndjson', line: 3, message: expect.stringMatching(/tool_name must be a string/) }]);
    expect(calls.map((c) => c.receipt)).toEqual([A]);
  });
});

describe('chat transcripts', () => {
  it('native tool calling: the result takes its name and arguments from the call that announced it; a user message starts a turn', () => {
    const { calls, claims } = importZeroclaw(
      messages('t.jsonl', [
        { role: 'system', content: 'Every tool result includes a `[receipt: ...]` field.' },
        { role: 'user', content: 'date?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":"date"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: `Mon Mar 27\n\n[receipt: ${A}]` },
        { role: 'tool', tool_call_id: 'c2', content: 'error: permission denied' },
        { role: 'assistant', content: `It is Monday (${A}).\n\n---\nTool receipts:\n  shell: ${A}` },
        { role: 'user', content: 'and now?' },
        { role: 'assistant', content: `Still Monday, see ${B}.` },
      ]),
    );
    expect(calls).toEqual([
      expect.objectContaining({ scope: 't.jsonl', turn: '1', receipt: A, toolName: 'shell', result: 'Mon Mar 27', line: 4, via: 'trailer' }),
    ]);
    expect(toPlain(calls[0]!.args!)).toEqual({ command: 'date' });
    expect(claims.map((c) => [c.turn, c.via, c.receipt, c.toolName, c.line])).toEqual([
      ['1', 'reply', A, undefined, 6],
      ['1', 'block', A, 'shell', 6],
      ['2', 'reply', B, undefined, 8],
    ]);
  });

  it('prompt (XML) mode: tool results come back in a user message, which does not start a turn', () => {
    const { calls, claims } = importZeroclaw(
      messages('x.jsonl', [
        { role: 'user', content: 'search' },
        { role: 'assistant', content: '<tool_call>{"name":"web_search"}</tool_call>' },
        {
          role: 'user',
          content: `<tool_result name="web_search">\nresults\n\n[receipt: ${C}]\n</tool_result>\n<tool_result name="shell">\nok\n\n[receipt: ${B}]\n</tool_result>\n`,
        },
        { role: 'assistant', content: `Done.\n\n---\nTool receipts:\n  web_search: ${C}\n  shell: ${B}` },
      ]),
    );
    expect(calls.map((c) => [c.turn, c.toolName, c.result, c.receipt])).toEqual([
      ['1', 'web_search', 'results', C],
      ['1', 'shell', 'ok', B],
    ]);
    expect(claims.map((c) => [c.turn, c.toolName])).toEqual([
      ['1', 'web_search'],
      ['1', 'shell'],
    ]);
  });

  it('content parts: tool_use announces, tool_result carries; an explicit turn_id wins over counting', () => {
    const { calls, claims } = importZeroclaw(
      messages('p.jsonl', [
        { role: 'user', content: [{ type: 'text', text: 'go' }], turn_id: 'T9' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'shell', input: { command: 'date' } }], turn_id: 'T9' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: `Mon\n\n[receipt: ${A}]` }] }], turn_id: 'T9' },
        { role: 'assistant', content: [{ type: 'text', text: `Monday.\n\n---\nTool receipts:\n  shell: ${A}` }], turn_id: 'T9' },
      ]),
    );
    expect(calls.map((c) => [c.turn, c.toolName, c.result])).toEqual([['T9', 'shell', 'Mon']]);
    expect(toPlain(calls[0]!.args!)).toEqual({ command: 'date' });
    expect(claims.map((c) => [c.turn, c.via, c.toolName])).toEqual([['T9', 'block', 'shell']]);
  });

  it('a malformed line of the Tool receipts block is named, never dropped', () => {
    const { claims, malformed } = importZeroclaw(messages('m.jsonl', [{ role: 'assistant', content: `ok\n\n---\nTool receipts:\n  shell: ${A}\nshell ${B}` }]));
    expect(claims.map((c) => c.receipt)).toEqual([A]);
    expect(malformed).toEqual([{ file: 'm.jsonl', line: 1, message: expect.stringMatching(/not " {2}<tool>: <receipt>": "shell zc-receipt/) }]);
  });
});

describe('trace logs and text', () => {
  it('runtime-trace LogEvents: the "Tool receipt generated" event is a tool result, its turn the trace id; other events are passed over', () => {
    const ev = (attributes: unknown, trace_id = 'turn-7') =>
      obj({ schema_version: 2, severity_text: 'DEBUG', event: { category: 'tool', action: 'note' }, message: 'Tool receipt generated', trace_id, attributes });
    const { calls } = importZeroclaw([
      { kind: 'zc-trace', value: ev({ receipt: A, tool: 'shell', _file: 'results_collect.rs', _line: 131 }), file: 'runtime-trace.jsonl', line: 1, order: 0 },
      { kind: 'zc-trace', value: ev({ tool: 'shell' }), file: 'runtime-trace.jsonl', line: 2, order: 1_000_000 },
    ]);
    expect(calls).toEqual([expect.objectContaining({ scope: 'trace', turn: 'turn-7', receipt: A, toolName: 'shell', via: 'trace', line: 1 })]);
  });

  it('text: debug lines (plain and zc_attrs) and trailers are tool results; the block and other quotes are claims, each at its line', () => {
    const text = [
      '2026-03-27T10:00:00Z DEBUG Tool receipt generated tool=shell receipt=' + A,
      `[zeroclaw] 2026-03-27T10:00:01Z DEBUG zeroclaw_log_event: Tool receipt generated zc_attrs={"receipt":"${B}","tool":"web_search"}`,
      `tool output\n\n[receipt: ${C}]`,
      `Here you go, as ${A} shows.`,
      '',
      '---',
      'Tool receipts:',
      `  shell: ${A}`,
      `  web: search: ${B}`,
    ].join('\n');
    const { calls, claims } = importZeroclaw([{ kind: 'zc-text', value: text, file: 'reply.txt', line: 1, order: 0 }]);
    expect(calls.map((c) => [c.via, c.toolName, c.receipt, c.line])).toEqual([
      ['debug', 'shell', A, 1],
      ['debug', 'web_search', B, 2],
      ['trailer', undefined, C, 5],
    ]);
    expect(claims.map((c) => [c.via, c.toolName, c.receipt, c.line, c.turn])).toEqual([
      ['reply', undefined, A, 6, undefined],
      ['block', 'shell', A, 10, undefined],
      ['block', 'web: search', B, 11, undefined],
    ]);
  });
});
