// The demo's Claude Code session (format §16.10): the tool calls an agent host made through
// chio-bridge, as `claude --output-format stream-json` writes them. Each tool result's text is the
// bridge's ExecutionOutcome `{state, evidence, requestId, receipt, result, delivery}` around a
// receipt the kernel also stored, so opening the transcript with the store (or its package) shows
// one receipt per call, with its output and delivery acknowledgement checked against it.
// Deterministic: ids come from the receipts, times from their timestamps.
import { createHash } from 'node:crypto';
import { canonicalBytes } from '../../lib/json/canonicalize';
import type { JsonValue } from '../../lib/json/value';
import { sha256Hex } from '../../lib/crypto/sha256';
import { compactJson, value } from './json-tree';

export interface BridgedCall {
  /** The receipt exactly as the store holds it. */
  rawJson: string;
  receiptId: string;
  contentHash: string;
  requestId: string;
  toolName: string;
  parameters: Record<string, unknown>;
  /** The CallToolResult the receipt's content_hash binds. */
  result: JsonValue;
  timestamp: number;
}

export const TRANSCRIPT_FILE = 'claude-code-session.jsonl';

const iso = (unixSeconds: number, ms = 0) => new Date(unixSeconds * 1000 + ms).toISOString();

/** `requestHash` of the delivery acknowledgement: sha256 of RFC 8785 of the `tools/call` request (§16.10.2). */
export function bridgeRequestHash(toolName: string, parameters: Record<string, unknown>, requestId: string): string {
  return sha256Hex(canonicalBytes(value({ method: 'tools/call', params: { name: toolName, arguments: parameters, _meta: { chioRequestId: requestId } } })));
}

/** The transcript's lines: init, then per call the assistant's tool_use and the tool result, then the session's result. */
export function claudeCodeTranscript(calls: readonly BridgedCall[], sessionId: string): string {
  const tools = [...new Set(calls.map((c) => `mcp__chio__${c.toolName}`))].sort();
  const lines: unknown[] = [
    {
      type: 'system',
      subtype: 'init',
      cwd: '/workspace',
      session_id: sessionId,
      tools,
      mcp_servers: [{ name: 'chio', status: 'connected' }],
      model: 'claude-sonnet-4-5',
      permissionMode: 'dontAsk',
    },
  ];
  calls.forEach((c, i) => {
    const toolUseId = `toolu_demo_${String(i + 1).padStart(3, '0')}`;
    // The kernel's acknowledgement is opaque here (how it is computed is not published): 32 bytes, base64url.
    const acknowledgement = createHash('sha256').update(`ack:${c.requestId}:${c.receiptId}`).digest('base64url');
    const delivery = {
      schema: 'chio.mcp.delivery-ack.v1',
      requestId: c.requestId,
      requestHash: bridgeRequestHash(c.toolName, c.parameters, c.requestId),
      receiptId: c.receiptId,
      resultHash: c.contentHash,
      acknowledgement,
    };
    // The receipt goes in as the store's exact text; the rest is plain JSON.
    const outcome = `{"state":"completed","evidence":"verified","requestId":${JSON.stringify(c.requestId)},"receipt":${c.rawJson},"result":${compactJson(c.result)},"delivery":${JSON.stringify(delivery)}}`;
    lines.push({
      type: 'assistant',
      message: {
        id: `msg_demo_${i + 1}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: toolUseId, name: `mcp__chio__${c.toolName}`, input: c.parameters }],
      },
      parent_tool_use_id: null,
      session_id: sessionId,
      timestamp: iso(c.timestamp),
    });
    lines.push({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: toolUseId, type: 'tool_result', content: [{ type: 'text', text: outcome }] }] },
      parent_tool_use_id: null,
      session_id: sessionId,
      timestamp: iso(c.timestamp, 400),
      tool_use_result: [{ type: 'text', text: outcome }],
    });
  });
  lines.push({
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: calls.length,
    result: `${calls.length} tool calls through chio`,
    session_id: sessionId,
  });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
