// ZeroClaw's receipts gathered from every shape a log can hold them in
// (other-dialects.md §1.7, §1.10, §1.11; issue 8): tool-call records
// `{tool_name, args, result, timestamp?, receipt}`, chat transcripts (messages
// with a role; a user message starts a turn), runtime-trace LogEvent lines
// ("Tool receipt generated", the turn in `trace_id`), and text: a reply with
// its `Tool receipts:` block, a terminal log's debug lines. What comes out is
// the tool results that carry a receipt (calls) and the receipts replies quote
// (claims), each with its file and line. Pure.
import { parseJson } from '../../json/parse';
import { type JsonObject, type JsonValue, isJsonArray, isJsonObject } from '../../json/value';
import type { ZcCall, ZcClaim } from './claims';
import { debugLine, quotedReceipts, receiptsBlock, toolResultTrailer } from './transcript';

export interface ZcItem {
  kind: 'zc-call' | 'zc-message' | 'zc-trace' | 'zc-text';
  /** The record (JSON kinds) or the text (`zc-text`). */
  value: JsonObject | string;
  file: string;
  line: number;
  order: number;
}

/** A tool result with what the tag covers, as far as the log holds it. */
export interface ZcCallData extends ZcCall {
  order: number;
  via: 'record' | 'trailer' | 'trace' | 'debug';
  args?: JsonValue;
  /** The output: raw in a tool-call record; in a transcript, as the model saw it (ZeroClaw may have cut or rewritten it). */
  result?: string;
}

export interface ZcImport {
  calls: ZcCallData[];
  claims: (ZcClaim & { order: number })[];
  /** Lines that look like receipt records but cannot be read (file, line, why). */
  malformed: { file: string; line: number; message: string }[];
}

/** A message's text: a string, or the text parts of a content array (`{type: "text", text}`). */
function contentText(content: JsonValue | undefined): string | null {
  if (typeof content === 'string') return content;
  if (!isJsonArray(content)) return null;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (isJsonObject(part) && typeof part.get('text') === 'string' && (part.get('type') ?? 'text') === 'text') parts.push(part.get('text') as string);
  }
  return parts.join('');
}

const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** Call arguments as a JSON value: an object as it is, or a JSON string (OpenAI's `function.arguments`) parsed. */
function argsValue(v: JsonValue | undefined): JsonValue | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return v;
  const parsed = parseJson(v);
  return parsed.ok ? parsed.value : undefined;
}

const XML_RESULT = /<tool_result name="([^"]*)">\n([\s\S]*?)\n<\/tool_result>/g;
/** A trailer anywhere in text (a terminal log or a pasted transcript). */
const TRAILER_ANYWHERE = /\[receipt: (zc-receipt-[^\]\s]*)\]/g;
/** The structured logger's attributes on a "Tool receipt generated" line. */
const ZC_ATTRS_RECEIPT = /"receipt":"(zc-receipt-[^"]*)"/;
const ZC_ATTRS_TOOL = /"tool":"((?:[^"\\]|\\.)*)"/;

/**
 * The 0-based line of an offset in `text`, by binary search over its newlines (found once): a
 * terminal log of 16 MiB with a receipt on every line must not be rescanned from the start per receipt.
 */
function lineIndex(text: string): (at: number) => number {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines.push(i);
  return (at) => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newlines[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function importZeroclaw(items: readonly ZcItem[]): ZcImport {
  const out: ZcImport = { calls: [], claims: [], malformed: [] };
  /** Per transcript file: the current turn and the calls announced by assistant messages, by id. */
  const transcripts = new Map<string, { turn: number; pending: Map<string, { name?: string; args?: JsonValue }> }>();
  for (const item of [...items].sort((a, b) => a.order - b.order)) {
    if (item.kind === 'zc-text') text(item.value as string, item, out);
    else if (item.kind === 'zc-call') record(item.value as JsonObject, item, out);
    else if (item.kind === 'zc-trace') trace(item.value as JsonObject, item, out);
    else {
      let t = transcripts.get(item.file);
      if (!t) transcripts.set(item.file, (t = { turn: 0, pending: new Map() }));
      message(item.value as JsonObject, item, t, out);
    }
  }
  return out;
}

function record(o: JsonObject, item: ZcItem, out: ZcImport): void {
  const receipt = o.get('receipt') as string;
  const toolName = str(o.get('tool_name'));
  const result = o.get('result');
  const turn = str(o.get('turn_id')) ?? str(o.get('trace_id'));
  if (toolName === undefined) out.malformed.push({ file: item.file, line: item.line, message: `tool_name must be a string (receipt ${receipt})` });
  const args = argsValue(o.get('args'));
  out.calls.push({
    scope: item.file,
    receipt,
    file: item.file,
    line: item.line,
    order: item.order,
    via: 'record',
    ...(turn !== undefined ? { turn } : {}),
    ...(toolName !== undefined ? { toolName } : {}),
    ...(args !== undefined ? { args } : {}),
    ...(typeof result === 'string' ? { result } : {}),
  });
}

function trace(o: JsonObject, item: ZcItem, out: ZcImport): void {
  const attrs = o.get('attributes') as JsonObject;
  const receipt = str(attrs.get('receipt'));
  if (receipt === undefined) return; // one of the trace's other events
  const toolName = str(attrs.get('tool'));
  const turn = str(o.get('trace_id'));
  out.calls.push({
    scope: 'trace',
    receipt,
    file: item.file,
    line: item.line,
    order: item.order,
    via: 'trace',
    ...(turn !== undefined ? { turn } : {}),
    ...(toolName !== undefined ? { toolName } : {}),
  });
}

function message(o: JsonObject, item: ZcItem, t: { turn: number; pending: Map<string, { name?: string; args?: JsonValue }> }, out: ZcImport): void {
  const role = o.get('role');
  const content = o.get('content');
  const explicit = str(o.get('turn_id')) ?? str(o.get('trace_id'));
  const body = contentText(content);
  const at = { scope: item.file, file: item.file, line: item.line, order: item.order };
  const turnNow = () => explicit ?? String(t.turn);
  const addCall = (receipt: string, output: string, toolName?: string, announced?: { name?: string; args?: JsonValue }) => {
    const name = toolName ?? announced?.name;
    out.calls.push({
      ...at,
      turn: turnNow(),
      receipt,
      via: 'trailer',
      result: output,
      ...(name !== undefined ? { toolName: name } : {}),
      ...(announced?.args !== undefined ? { args: announced.args } : {}),
    });
  };
  if (role === 'user') {
    // Prompt (XML) mode returns tool results in a user message; that does not start a turn.
    const xml = body !== null ? [...body.matchAll(XML_RESULT)] : [];
    const blocks = isJsonArray(content) ? content.filter((p): p is JsonObject => isJsonObject(p) && p.get('type') === 'tool_result') : [];
    if (xml.length === 0 && blocks.length === 0) {
      if (explicit === undefined) t.turn++;
      return;
    }
    for (const m of xml) {
      const trailer = toolResultTrailer(m[2]!);
      if (trailer) addCall(trailer.receipt, trailer.output, m[1]!);
    }
    for (const b of blocks) {
      const trailer = toolResultTrailer(contentText(b.get('content')) ?? '');
      const id = str(b.get('tool_use_id'));
      if (trailer) addCall(trailer.receipt, trailer.output, undefined, id !== undefined ? t.pending.get(id) : undefined);
    }
    return;
  }
  if (role === 'tool') {
    const trailer = body !== null ? toolResultTrailer(body) : null;
    if (!trailer) return; // a failed, denied or skipped call carries no receipt
    const id = str(o.get('tool_call_id'));
    addCall(trailer.receipt, trailer.output, trailer.toolName ?? str(o.get('name')), id !== undefined ? t.pending.get(id) : undefined);
    return;
  }
  if (role !== 'assistant') return;
  // Calls the reply announces (OpenAI `tool_calls`, Anthropic `tool_use` parts), for their results' names and arguments.
  const toolCalls = o.get('tool_calls');
  if (isJsonArray(toolCalls)) {
    for (const c of toolCalls) {
      if (!isJsonObject(c)) continue;
      const fn = c.get('function');
      const f = isJsonObject(fn) ? fn : c;
      const id = str(c.get('id'));
      const args = argsValue(f.get('arguments'));
      if (id !== undefined)
        t.pending.set(id, { ...(str(f.get('name')) !== undefined ? { name: str(f.get('name'))! } : {}), ...(args !== undefined ? { args } : {}) });
    }
  }
  if (isJsonArray(content)) {
    for (const p of content) {
      if (!isJsonObject(p) || p.get('type') !== 'tool_use') continue;
      const id = str(p.get('id'));
      const input = p.get('input');
      if (id !== undefined)
        t.pending.set(id, { ...(str(p.get('name')) !== undefined ? { name: str(p.get('name'))! } : {}), ...(input !== undefined ? { args: input } : {}) });
    }
  }
  if (body !== null) replyClaims(body, { ...at, turn: turnNow() }, () => item.line, out);
}

/** The claims of a reply's text: its `Tool receipts:` block's entries, and receipts quoted before it. */
function replyClaims(
  body: string,
  at: { scope: string; file: string; order: number; turn?: string },
  lineAt: (textLine: number) => number,
  out: ZcImport,
  skip: (offset: number) => boolean = () => false,
): void {
  const block = receiptsBlock(body);
  const reply = block ? body.slice(0, body.lastIndexOf('---\nTool receipts:')) : body;
  const lineOf = lineIndex(body);
  for (const q of quotedReceipts(reply)) {
    if (skip(q.at)) continue;
    out.claims.push({ ...at, receipt: q.receipt, via: 'reply', line: lineAt(lineOf(q.at)) });
  }
  if (!block) return;
  for (const e of block.entries) out.claims.push({ ...at, receipt: e.receipt, toolName: e.toolName, via: 'block', line: lineAt(e.line) });
  for (const m of block.malformed) {
    out.malformed.push({
      file: at.file,
      line: lineAt(m.line),
      message: `a line of the Tool receipts block is not "  <tool>: <receipt>": ${JSON.stringify(m.text.slice(0, 200))}`,
    });
  }
}

/** A text file: debug lines and `[receipt: …]` trailers are tool results; the rest are a reply's claims. No turns. */
function text(body: string, item: ZcItem, out: ZcImport): void {
  const base = { scope: item.file, file: item.file, order: item.order };
  const used: [number, number][] = [];
  let offset = 0;
  body.split('\n').forEach((l, i) => {
    const start = offset;
    offset += l.length + 1;
    if (!l.includes('Tool receipt generated')) return;
    const plain = debugLine(l);
    const receipt = plain?.receipt ?? ZC_ATTRS_RECEIPT.exec(l)?.[1];
    if (receipt === undefined) return;
    const tool = plain?.toolName ?? ZC_ATTRS_TOOL.exec(l)?.[1];
    out.calls.push({ ...base, line: item.line + i, receipt, via: 'debug', ...(tool !== undefined ? { toolName: tool } : {}) });
    used.push([start, offset]);
  });
  const lineOf = lineIndex(body);
  for (const m of body.matchAll(TRAILER_ANYWHERE)) {
    out.calls.push({ ...base, line: item.line + lineOf(m.index), receipt: m[1]!, via: 'trailer' });
    used.push([m.index, m.index + m[0].length]);
  }
  // Whether a quote sits inside a debug line or trailer already read as a tool result (ranges sorted, searched).
  used.sort((x, y) => x[0] - y[0]);
  const skip = (at: number) => {
    let lo = 0;
    let hi = used.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (used[mid]![0] <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && at < used[lo - 1]![1];
  };
  replyClaims(body, base, (n) => item.line + n, out, skip);
}
