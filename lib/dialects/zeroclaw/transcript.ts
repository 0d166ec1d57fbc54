// Where ZeroClaw receipts appear in text (other-dialects.md §1.7, §1.10): a
// tool result's `[receipt: …]` trailer, the `Tool receipts:` block after (or
// sent beside) a reply, a receipt a model echoes in its reply, and the debug
// log line "Tool receipt generated". Pure string work; no verdicts here.

/** The trailer ZeroClaw appends to a tool result: `<output>\n\n[receipt: <receipt>]`, at the very end. */
const TRAILER = /\n\n\[receipt: (zc-receipt-[^\]\n]*)\]$/;
/** Anything shaped like a receipt (ZeroClaw's own leak-detector pattern), to find receipts quoted in free text. */
const LOOSE = /zc-receipt-\d+-[A-Za-z0-9_-]+/g;
const BLOCK_HEAD = '---\nTool receipts:';
/** The debug line, as documented and as the structured logger renders its attributes. */
const DEBUG_LINE = /Tool receipt generated\b.*?\btool=(\S+).*?\breceipt=(zc-receipt-[A-Za-z0-9_.-]+)/;

export interface Trailer {
  /** The tool output the model saw (after ZeroClaw's truncation), without the trailer. */
  output: string;
  receipt: string;
}

/** A tool result's trailer, if it ends with one. In prompt (XML) mode the result is wrapped in `<tool_result name="…">`; the name comes back too. */
export function toolResultTrailer(content: string): (Trailer & { toolName?: string }) | null {
  const xml = /^<tool_result name="([^"]*)">\n([\s\S]*)\n<\/tool_result>\n?$/.exec(content);
  const body = xml ? xml[2]! : content;
  const m = TRAILER.exec(body);
  if (!m) return null;
  return { output: body.slice(0, m.index), receipt: m[1]!, ...(xml ? { toolName: xml[1]! } : {}) };
}

export interface BlockEntry {
  toolName: string;
  receipt: string;
  /** 0-based line of the entry within the text. */
  line: number;
}

export interface ReceiptsBlock {
  /** The reply before the block (ZeroClaw joins them with a blank line), or '' when the block was sent alone. */
  reply: string;
  entries: BlockEntry[];
  /** Lines of the block that are not `  <tool>: <receipt>` entries (shown as problems, never dropped). */
  malformed: { line: number; text: string }[];
}

/**
 * The last `---\nTool receipts:` block of a reply: each entry is `  <tool>: <receipt>` (a tool name
 * may itself hold `: `, so the split is at the last ": zc-receipt-"). A model asked to repeat
 * receipts may write a second block of its own; the runtime's comes last.
 */
export function receiptsBlock(text: string): ReceiptsBlock | null {
  const at = text.lastIndexOf(BLOCK_HEAD);
  if (at < 0 || (at > 0 && text[at - 1] !== '\n')) return null;
  const before = text.slice(0, at).replace(/\n\n$/, '');
  const firstLine = before === '' && at === 0 ? 0 : text.slice(0, at).split('\n').length - 1;
  const lines = text
    .slice(at + BLOCK_HEAD.length)
    .split('\n')
    .slice(1);
  const entries: BlockEntry[] = [];
  const malformed: { line: number; text: string }[] = [];
  lines.forEach((l, i) => {
    const line = firstLine + 2 + i;
    if (l.trim() === '') return;
    const split = l.lastIndexOf(': zc-receipt-');
    if (!l.startsWith('  ') || split < 2) {
      malformed.push({ line, text: l });
      return;
    }
    entries.push({ toolName: l.slice(2, split), receipt: l.slice(split + 2).trimEnd(), line });
  });
  return { reply: before, entries, malformed };
}

/** Every receipt-shaped string in free text, in order, with its offset. */
export function quotedReceipts(text: string): { receipt: string; at: number }[] {
  return [...text.matchAll(LOOSE)].map((m) => ({ receipt: m[0], at: m.index }));
}

/** A "Tool receipt generated" debug line's tool and receipt. */
export function debugLine(line: string): { toolName: string; receipt: string } | null {
  const m = DEBUG_LINE.exec(line);
  return m ? { toolName: m[1]!, receipt: m[2]! } : null;
}
