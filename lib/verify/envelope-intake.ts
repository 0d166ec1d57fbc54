// Receipts carried inside envelopes (contract part 2 §2; chio-format-v2.md
// §16.10): chio-bridge's outcome `{state, evidence, requestId, receipt, result,
// delivery}`, an MCP tool result with `_meta.chioEvidence` (and `chioDelivery`,
// `chio`), and the host transcripts that carry them as text: Claude Code
// `stream-json` lines and Codex `exec --json` lines. Each receipt found comes
// with its Envelope: the unsigned claims and the output and delivery
// acknowledgement that §5.4 checks against the signed receipt.
//
// Attacker-controlled input. Text parts are parsed with the same lossless
// parser as everything else. A text part that is not JSON is a plain tool
// result and is skipped; one that looks like a receipt-carrying object
// (`{` … `"receipt"`) but does not parse strictly is reported, never dropped
// unseen (a duplicate key there is read differently by the bridge's JSON.parse).
import { canonicalize } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { type JsonObject, type JsonValue, isJsonArray, isJsonObject, jsonTypeName } from '../json/value';

export type EnvelopeKind = 'chio-bridge-outcome' | 'mcp-tool-result';
export type HostKind = 'claude-code-stream-json' | 'codex-exec-json';

/** The unsigned wrapper around one receipt. Nothing here is trusted: §5.4 checks it against the receipt. */
export interface Envelope {
  kind: EnvelopeKind;
  /** The host transcript the envelope was found in, as text. */
  host?: HostKind;
  /** Field path of the envelope in its record. */
  path: string;
  /** Claims, as written: the bridge's `state`/`evidence`; the MCP edge's `terminalState`, `outputKind`, `_meta.chio.decision`. */
  state?: string;
  evidence?: string;
  outputKind?: string;
  decision?: string;
  /** The bridge's `requestId`, or `chioEvidence.requestId`. */
  requestId?: JsonValue;
  /** The output the receipt's `content_hash` commits to (the bridge's `result`, `chioEvidence.output`); absent when none is carried. */
  output?: JsonValue;
  /** The delivery acknowledgement (`delivery`, `_meta.chioDelivery`); absent when none is carried. */
  delivery?: JsonValue;
  /** `chioEvidence.schema` (MCP only). */
  schema?: JsonValue;
  /** Where this envelope contradicts itself (each raises `envelope_invalid` on its receipt). */
  issues: string[];
}

/** A problem of a record that is not about one receipt: a text part that does not parse, a receipt-less envelope. */
export interface RecordIssue {
  code: 'parse_error' | 'duplicate_key' | 'envelope_invalid';
  message: string;
  path: string;
  line: number;
  column: number;
}

export interface EnvelopeReceipt {
  value: JsonObject;
  path: string;
  /** One or more: the same receipt reached twice in one record (identical canonical bytes) keeps every envelope. */
  envelopes: Envelope[];
}

export interface EnvelopeRead {
  receipts: EnvelopeReceipt[];
  issues: RecordIssue[];
}

const CLAUDE_LINE_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event']);
const CODEX_EVENT = /^(thread|turn|item)\.[a-z_]+$/;
/** Claims are enum words; a longer one is kept only this long (it is shown, never trusted). */
const MAX_CLAIM_CHARS = 100;

/**
 * Reads `v` as a host transcript line or an envelope. Null when it is neither (the caller
 * classifies it as before); otherwise the receipts it carries, possibly none (an init line,
 * a tool call, a plain text result, an outcome that was never dispatched).
 */
export function readEnvelopes(v: JsonObject, path: string): EnvelopeRead | null {
  const out: EnvelopeRead = { receipts: [], issues: [] };
  const host = hostOf(v);
  if (host) {
    const seen = new Set<string>();
    for (const t of hostTexts(v, path, host)) readText(t.text, t.path, host, out, seen);
  } else if (!readEnvelope(v, path, undefined, out)) return null;
  out.receipts = mergeSameReceipts(out.receipts);
  return out;
}

function hostOf(v: JsonObject): HostKind | null {
  const type = v.get('type');
  if (typeof type !== 'string') return null;
  if (CLAUDE_LINE_TYPES.has(type) && (typeof v.get('session_id') === 'string' || isJsonObject(v.get('message')))) return 'claude-code-stream-json';
  if (CODEX_EVENT.test(type) || (type === 'error' && typeof v.get('message') === 'string')) return 'codex-exec-json';
  return null;
}

interface TextPart {
  text: string;
  path: string;
}

/**
 * The text parts a host line carries tool results in. Claude: `message.content[]` items of type
 * `tool_result` (content a string or `[{type: text, text}]`), and the line's `tool_use_result`,
 * which repeats them. Codex: `item.result.content[].text` of a completed `mcp_tool_call`.
 */
function hostTexts(v: JsonObject, path: string, host: HostKind): TextPart[] {
  const parts: TextPart[] = [];
  if (host === 'codex-exec-json') {
    const item = v.get('item');
    if (v.get('type') !== 'item.completed' || !isJsonObject(item) || item.get('type') !== 'mcp_tool_call') return parts;
    const result = item.get('result');
    if (isJsonObject(result)) textsOf(result.get('content'), `${path}.item.result.content`, parts);
    return parts;
  }
  if (v.get('type') !== 'user') return parts;
  const message = v.get('message');
  const content = isJsonObject(message) ? message.get('content') : undefined;
  if (isJsonArray(content)) {
    content.forEach((c, i) => {
      if (isJsonObject(c) && c.get('type') === 'tool_result') textsOf(c.get('content'), `${path}.message.content[${i}].content`, parts);
    });
  }
  textsOf(v.get('tool_use_result'), `${path}.tool_use_result`, parts);
  return parts;
}

/** A string, or the `text` of `{type: "text"}` items of an array. */
function textsOf(v: JsonValue | undefined, path: string, parts: TextPart[]): void {
  if (typeof v === 'string') parts.push({ text: v, path });
  else if (isJsonArray(v)) {
    v.forEach((c, i) => {
      const text = isJsonObject(c) && c.get('type') === 'text' ? c.get('text') : undefined;
      if (typeof text === 'string') parts.push({ text, path: `${path}[${i}].text` });
    });
  }
}

/** One text part: parsed as JSON, then read as an envelope; a repeat of a text already read is skipped. */
function readText(text: string, path: string, host: HostKind, out: EnvelopeRead, seen: Set<string>): void {
  if (seen.has(text)) return;
  seen.add(text);
  const parsed = parseJson(text);
  if (!parsed.ok) {
    if (!looksLikeReceiptText(text)) return; // a plain text result
    const { issue } = parsed;
    const message = `the text holds a receipt-carrying object that does not parse strictly: ${issue.message} (line ${issue.line}, column ${issue.column} of the text)`;
    out.issues.push({ code: issue.code, message, path: `${path}→${issue.path}`, line: 1, column: 1 });
    return;
  }
  if (isJsonObject(parsed.value)) readEnvelope(parsed.value, `${path}→$`, host, out);
}

/** An object opening the text and naming a receipt: what an envelope's text looks like, parsed or not. */
function looksLikeReceiptText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b && text.includes('"receipt"');
  }
  return false;
}

/** A bridge outcome or an MCP tool result (bare, or the `result` of a JSON-RPC response); false when `v` is neither. */
function readEnvelope(v: JsonObject, path: string, host: HostKind | undefined, out: EnvelopeRead): boolean {
  if (typeof v.get('state') === 'string' && typeof v.get('evidence') === 'string' && v.has('requestId')) {
    readBridgeOutcome(v, path, host, out);
    return true;
  }
  if (hasChioEvidence(v)) {
    readMcpResult(v, path, host, out);
    return true;
  }
  const rpc = v.get('result');
  if (v.has('jsonrpc') && isJsonObject(rpc) && hasChioEvidence(rpc)) {
    readMcpResult(rpc, `${path}.result`, host, out);
    return true;
  }
  return false;
}

function hasChioEvidence(v: JsonObject): boolean {
  const meta = v.get('_meta');
  return isJsonObject(meta) && meta.has('chioEvidence');
}

function claim(v: JsonValue | undefined): string | undefined {
  if (typeof v !== 'string') return undefined;
  return v.length > MAX_CLAIM_CHARS ? `${v.slice(0, MAX_CLAIM_CHARS)}… (${v.length} characters)` : v;
}

/** Sets `key` only when `v` is present and not null (absent and null both mean "not carried"). */
function carried(envelope: Envelope, key: 'output' | 'delivery', v: JsonValue | undefined): void {
  if (v !== undefined && v !== null) envelope[key] = v;
}

function readBridgeOutcome(v: JsonObject, path: string, host: HostKind | undefined, out: EnvelopeRead): void {
  const receipt = v.get('receipt');
  // `not_dispatched` (and some `unknown`) outcomes carry no receipt: nothing to verify.
  if (receipt === undefined || receipt === null) return;
  if (!isJsonObject(receipt)) {
    out.issues.push({ code: 'parse_error', message: `receipt must be an object, found ${jsonTypeName(receipt)}`, path: `${path}.receipt`, line: 1, column: 1 });
    return;
  }
  const envelope: Envelope = { kind: 'chio-bridge-outcome', path, requestId: v.get('requestId'), issues: [] };
  if (host) envelope.host = host;
  setClaim(envelope, 'state', v.get('state'));
  setClaim(envelope, 'evidence', v.get('evidence'));
  carried(envelope, 'output', v.get('result'));
  carried(envelope, 'delivery', v.get('delivery'));
  out.receipts.push({ value: receipt, path: `${path}.receipt`, envelopes: [envelope] });
}

function setClaim(envelope: Envelope, key: 'state' | 'evidence' | 'outputKind' | 'decision', v: JsonValue | undefined): void {
  const c = claim(v);
  if (c !== undefined) envelope[key] = c;
}

/**
 * `_meta.chioEvidence` {schema, requestId, receipt, outputKind, output, terminalState}, with
 * `_meta.chioDelivery` and `_meta.chio` {receipt, receiptId, decision, terminalState}. The receipt
 * in `_meta.chio` must be the one in `chioEvidence`; a different one is still verified, as its own.
 */
function readMcpResult(v: JsonObject, path: string, host: HostKind | undefined, out: EnvelopeRead): void {
  const meta = v.get('_meta') as JsonObject;
  const mpath = `${path}._meta`;
  const evidence = meta.get('chioEvidence');
  if (!isJsonObject(evidence)) {
    out.issues.push({
      code: 'envelope_invalid',
      message: `_meta.chioEvidence must be an object, found ${jsonTypeName(evidence)}`,
      path: `${mpath}.chioEvidence`,
      line: 1,
      column: 1,
    });
    return;
  }
  const chio = meta.get('chio');
  const projection = isJsonObject(chio) ? chio : undefined;
  const envelope: Envelope = { kind: 'mcp-tool-result', path, requestId: evidence.get('requestId'), schema: evidence.get('schema'), issues: [] };
  if (host) envelope.host = host;
  setClaim(envelope, 'state', evidence.get('terminalState') ?? projection?.get('terminalState'));
  setClaim(envelope, 'outputKind', evidence.get('outputKind'));
  setClaim(envelope, 'decision', projection?.get('decision'));
  carried(envelope, 'output', evidence.get('output'));
  carried(envelope, 'delivery', meta.get('chioDelivery'));

  const inEvidence = evidence.get('receipt');
  const inProjection = projection?.get('receipt');
  const primary = isJsonObject(inEvidence) ? inEvidence : isJsonObject(inProjection) ? inProjection : undefined;
  if (!primary) {
    out.issues.push({
      code: 'envelope_invalid',
      message: '_meta.chioEvidence carries no receipt object (nor does _meta.chio)',
      path: `${mpath}.chioEvidence.receipt`,
      line: 1,
      column: 1,
    });
    return;
  }
  const primaryPath = primary === inEvidence ? `${mpath}.chioEvidence.receipt` : `${mpath}.chio.receipt`;
  if (primary !== inEvidence) envelope.issues.push('_meta.chioEvidence carries no receipt; the one in _meta.chio was verified');
  const receiptId = projection?.get('receiptId');
  if (receiptId !== undefined && receiptId !== primary.get('id'))
    envelope.issues.push(`_meta.chio.receiptId ${show(receiptId)} is not the receipt's id ${show(primary.get('id'))}`);
  out.receipts.push({ value: primary, path: primaryPath, envelopes: [envelope] });

  // The projection's copy, when it is not the same receipt, is verified too: as what it is, with no output of its own.
  if (isJsonObject(inProjection) && inProjection !== primary && canonicalize(inProjection) !== canonicalize(primary)) {
    const copy: Envelope = { ...envelope, issues: [] };
    delete copy.output;
    delete copy.delivery;
    if (inProjection.get('id') !== primary.get('id')) {
      copy.issues.push(`_meta.chio.receipt is receipt ${show(inProjection.get('id'))}, not the receipt ${show(primary.get('id'))} of _meta.chioEvidence`);
    }
    out.receipts.push({ value: inProjection, path: `${mpath}.chio.receipt`, envelopes: [copy] });
  }
}

/**
 * One receipt reached twice in one record (a text part and its repeat, `_meta.chio` beside
 * `chioEvidence`) with identical canonical bytes is one item carrying both envelopes. Canonical
 * text is computed only for receipts whose ids collide. Different bodies under one id stay
 * apart: the log assembler raises `envelope_invalid` for them.
 */
function mergeSameReceipts(receipts: EnvelopeReceipt[]): EnvelopeReceipt[] {
  if (receipts.length < 2) return receipts;
  const kept: EnvelopeReceipt[] = [];
  const byId = new Map<JsonValue | undefined, EnvelopeReceipt[]>();
  const canonical = new Map<EnvelopeReceipt, string>();
  const canon = (r: EnvelopeReceipt) => {
    let c = canonical.get(r);
    if (c === undefined) canonical.set(r, (c = canonicalize(r.value)));
    return c;
  };
  for (const r of receipts) {
    const id = r.value.get('id');
    const sameId = byId.get(id);
    const same = sameId?.find((k) => k.value === r.value || canon(k) === canon(r));
    if (same) same.envelopes.push(...r.envelopes);
    else {
      kept.push(r);
      if (sameId) sameId.push(r);
      else byId.set(id, [r]);
    }
  }
  return kept;
}

/** A value for a message: JSON, at most 80 characters of it. */
export function show(v: JsonValue | undefined): string {
  if (v === undefined) return '(absent)';
  const s = typeof v === 'string' ? JSON.stringify(v) : canonicalize(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
