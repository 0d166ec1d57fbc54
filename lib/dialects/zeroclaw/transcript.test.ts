// Finding ZeroClaw receipts in text, on the real strings of its docs and tests
// (lib/testdata/zeroclaw/doc-and-test-examples.json) and the shapes the code
// writes (other-dialects.md §1.7).
import { describe, expect, it } from 'vitest';
import { readTestdataText } from '../../../test/support/testdata';
import { debugLine, quotedReceipts, receiptsBlock, toolResultTrailer } from './transcript';

const examples = JSON.parse(readTestdataText('zeroclaw/doc-and-test-examples.json')) as Record<string, { value: string }>;
const R = 'zc-receipt-1774608496-gzpEBuUIRYX1vd4fQl4oYkqhq4-GnoJDStmlYzvQiWA';

describe('tool result trailers', () => {
  it('the trailer of the real example, and the output before it', () => {
    expect(toolResultTrailer(examples.tool_result_trailer_example!.value)).toEqual({ output: 'The date is Fri Mar 27.', receipt: R });
  });

  it('prompt (XML) mode: the same trailer inside <tool_result>, with the tool name', () => {
    expect(toolResultTrailer(`<tool_result name="shell">\nok\n\n[receipt: ${R}]\n</tool_result>\n`)).toEqual({ output: 'ok', receipt: R, toolName: 'shell' });
  });

  it.each([
    [`output [receipt: ${R}]`, 'not after a blank line'],
    [`output\n\n[receipt: ${R}]\nmore`, 'not at the end'],
    ['output', 'none at all'],
  ])('%j has no trailer (%s)', (text) => {
    expect(toolResultTrailer(text)).toBeNull();
  });

  it('a trailer holding a malformed receipt is still found (the receipt is judged later)', () => {
    expect(toolResultTrailer('x\n\n[receipt: zc-receipt-12-short]')?.receipt).toBe('zc-receipt-12-short');
  });
});

describe('Tool receipts blocks', () => {
  it('the real reply: the text before, and one entry', () => {
    const b = receiptsBlock(examples.response_block_example!.value);
    expect(b).toEqual({ reply: "Here's the weather in Istanbul: 16°C, sunny.", entries: [{ toolName: 'weather', receipt: R, line: 4 }], malformed: [] });
  });

  it('sent alone (the channel path), several entries in order, a tool name holding ": "', () => {
    const b = receiptsBlock(`---\nTool receipts:\n  shell: ${R}\n  mcp: fs: read: ${R}`);
    expect(b?.reply).toBe('');
    expect(b?.entries.map((e) => [e.toolName, e.line])).toEqual([
      ['shell', 2],
      ['mcp: fs: read', 3],
    ]);
  });

  it('a line that is not an entry is kept as malformed, not dropped', () => {
    const b = receiptsBlock(`answer\n\n---\nTool receipts:\n  shell: ${R}\nshell ${R}`);
    expect(b?.entries).toHaveLength(1);
    expect(b?.malformed).toEqual([{ line: 5, text: `shell ${R}` }]);
  });

  it('no block, or "---" not at a line start', () => {
    expect(receiptsBlock('just an answer')).toBeNull();
    expect(receiptsBlock(`a---\nTool receipts:\n  shell: ${R}`)).toBeNull();
  });
});

describe('receipts quoted in free text and debug lines', () => {
  it('finds each receipt-shaped string with its offset', () => {
    expect(quotedReceipts(`I ran it (${R}) and again ${R}.`).map((q) => q.at)).toEqual([10, 11 + R.length + 11]);
  });

  it('the documented debug line and the structured logger form', () => {
    expect(debugLine(`DEBUG Tool receipt generated tool=shell receipt=${R}`)).toEqual({ toolName: 'shell', receipt: R });
    expect(debugLine(examples.debug_log_example_as_documented!.value)).toEqual({ toolName: 'shell', receipt: 'zc-receipt-1774604899-fVRG...' });
    expect(debugLine('DEBUG something else tool=shell')).toBeNull();
  });
});
