// Signs the demo's receipts: Gen A (0.1.0) and Gen B (0.1.2) tool receipts and child receipts, each as raw_json in Rust struct order with its Merkle leaf hash.
//
// What is signed (chio-format.md §4, §5, §7; lib/chio/tool-receipt.ts verifies the same):
//   Gen A and child receipts: Ed25519 over JCS(receipt minus signature);
//   Gen B: id = sha256 hex of JCS(receipt minus id/signature), signature over JCS({"id", "body"}).
// The leaf of a checkpoint batch is leafHash(JCS(the complete receipt, signature included)) (§9.2).
import type { ChildReceiptInput, ToolReceiptInput } from '../../lib/sources/sqlite-store-writer';
import { canonicalBytes, canonicalize } from '../../lib/json/canonicalize';
import type { JsonObject, JsonValue } from '../../lib/json/value';
import { sha256HexOfText } from '../../lib/crypto/sha256';
import { leafHash } from '../../lib/merkle';
import type { Agent } from './actors';
import { compactJson, int, jcsSha256Hex, NULL_CONTENT_HASH, struct, value } from './json-tree';
import type { ToolEvent } from './model';
import type { ChildEvent } from './sessions';
import type { DemoKey } from './sign';

export interface SignedTool {
  row: ToolReceiptInput;
  leaf: Uint8Array;
  /** For a bridged call: the whole value the tool server returned (an MCP CallToolResult), as bound by `content_hash`. */
  result?: JsonValue;
}

/**
 * What an MCP tool server returns for a call (format §16.10.2): the output as a text part and as
 * `structuredContent`. The kernel binds `content_hash` to this whole value, not to the output alone.
 */
export function callToolResult(output: unknown): JsonValue {
  return value({ content: [{ type: 'text', text: JSON.stringify(output) }], isError: false, structuredContent: output });
}

const TOOL_ORIGIN = {
  mediated_decision: 'caller_executed',
  trace_observation: 'host_executed_provider_reported',
  advisory_evaluation: 'host_executed_unmediated',
} as const;
const BOUNDARY = { mediated_decision: 'prevent', trace_observation: 'detect_only', advisory_evaluation: 'advisory_only' } as const;
const TRUST = { mediated_decision: 'mediated', trace_observation: 'verified', advisory_evaluation: 'advisory' } as const;
const OUTCOME = { mediated_decision: undefined, trace_observation: 'observed', advisory_evaluation: 'evaluated' } as const;
const encoder = new TextEncoder();

export function signToolReceipt(ev: ToolEvent, kernel: DemoKey): SignedTool {
  const agent = ev.cap.agent;
  const parameters = value(ev.parameters);
  const parameterHash = jcsSha256Hex(parameters);
  const result = ev.bridge && ev.output ? callToolResult(ev.output) : undefined;
  const contentHash = result ? jcsSha256Hex(result) : ev.output ? jcsSha256Hex(value(ev.output)) : NULL_CONTENT_HASH;
  const d = ev.decision;
  const decision =
    d &&
    struct([
      ['verdict', d.verdict],
      ['reason', d.reason],
      ['guard', d.guard],
    ]);
  const evidence =
    ev.evidence.length > 0
      ? ev.evidence.map((e) =>
          struct([
            ['guard_name', e.guard_name],
            ['verdict', e.verdict],
            ['details', e.details],
          ]),
        )
      : undefined;
  const metadata = value({
    attribution: { subject_key: agent.subjectKey, issuer_key: ev.cap.issuerKey, delegation_depth: ev.cap.depth, grant_index: ev.grantIndex },
    chio_receipt_signing_nonce: ev.generation === 'B' ? ev.nonce : undefined,
    financial: ev.financial,
    governed_transaction: ev.session && governed(ev, parameterHash),
    // A call through chio-bridge: the kernel's admission record and the request it answered (§16.10.2).
    admission_operation: ev.bridge && {
      schema: 'chio.admission-receipt.v1',
      request_id: ev.bridge.requestId,
      projected_state: 'completed',
      projected_dispatch_state: 'terminal',
      tool_outcome_id: `outcome-${ev.nonce.slice('rcpt-'.length)}`,
    },
    receipt_context: ev.bridge && { request_id: ev.bridge.requestId },
  });
  const head: [string, JsonValue | undefined][] = [
    ['timestamp', int(ev.timestamp)],
    ['capability_id', ev.cap.id],
    ['tool_server', ev.tool.server],
    ['tool_name', ev.tool.tool],
    [
      'action',
      struct([
        ['parameters', parameters],
        ['parameter_hash', parameterHash],
      ]),
    ],
    ['decision', decision],
  ];
  const tail: [string, JsonValue | undefined][] = [
    ['content_hash', contentHash],
    ['policy_hash', ev.policyHash],
    ['evidence', evidence],
    ['metadata', metadata],
  ];
  let full: JsonObject;
  let id: string;
  if (ev.generation === 'A') {
    id = ev.nonce;
    // Gen A omits trust_level when it is `mediated`, which every Gen A receipt here is.
    const body = struct([['id', id], ...head, ...tail, ['tenant_id', agent.org.tenantId], ['kernel_key', kernel.publicHex]]);
    full = struct([...body, ['signature', kernel.sign(canonicalBytes(body))]]);
  } else {
    const idInput = struct([
      ...head,
      ['receipt_kind', ev.kind],
      ['boundary_class', BOUNDARY[ev.kind]],
      ['observation_outcome', OUTCOME[ev.kind]],
      ['tool_origin', TOOL_ORIGIN[ev.kind]],
      ['redaction_mode', ev.redactionMode],
      ['actor_chain', ev.cap.depth > 0 ? actorChain(agent) : undefined],
      ...tail,
      ['trust_level', TRUST[ev.kind]],
      ['tenant_id', agent.org.tenantId],
      ['kernel_key', kernel.publicHex],
    ]);
    const idInputJcs = canonicalize(idInput);
    id = sha256HexOfText(idInputJcs);
    // JCS({"id", "body"}) without re-canonicalizing the body: "body" sorts before "id", and the id is plain hex.
    const signature = kernel.sign(encoder.encode(`{"body":${idInputJcs},"id":"${id}"}`));
    full = struct([['id', id], ...idInput, ['signature', signature]]);
  }
  const row: ToolReceiptInput = {
    rawJson: compactJson(full),
    receiptId: id,
    timestamp: ev.timestamp,
    capabilityId: ev.cap.id,
    toolServer: ev.tool.server,
    toolName: ev.tool.tool,
    decisionKind: d?.verdict ?? 'none',
    policyHash: ev.policyHash,
    contentHash,
    subjectKey: agent.subjectKey,
    issuerKey: ev.cap.issuerKey,
    ...(ev.grantIndex !== undefined ? { grantIndex: ev.grantIndex } : {}),
    ...(agent.org.tenantId ? { tenantId: agent.org.tenantId } : {}),
  };
  return { row, leaf: leafHash(canonicalBytes(full)), ...(result !== undefined ? { result } : {}) };
}

/** metadata.governed_transaction of a session's tool call: the governed intent and its place in the request tree. */
function governed(ev: ToolEvent, parameterHash: string): Record<string, unknown> {
  const intent = { intent_id: `intent-${ev.nonce.slice('rcpt-'.length)}`, purpose: ev.session!.purpose, server_id: ev.tool.server, tool_name: ev.tool.tool };
  return { ...intent, intent_hash: jcsSha256Hex(value({ ...intent, parameter_hash: parameterHash })), call_chain: ev.session!.chain };
}

/** Gen B actor_chain of a delegated capability: the organization, then each delegating agent, then the caller. */
function actorChain(agent: Agent): JsonValue[] {
  const agents: Agent[] = [];
  for (let a: Agent | undefined = agent; a; a = a.parent) agents.unshift(a);
  return [
    struct([
      ['actor_id', agent.org.id],
      ['actor_kind', 'organization'],
    ]),
    ...agents.map((a) =>
      struct([
        ['actor_id', `did:chio:${a.subjectKey}`],
        ['actor_kind', 'agent'],
      ]),
    ),
  ];
}

/** A signed ChildRequestReceipt (the same in both generations) as a store row. */
export function signChildReceipt(ev: ChildEvent, kernel: DemoKey): ChildReceiptInput {
  const outcomeHash = ev.outcome ? jcsSha256Hex(value(ev.outcome)) : NULL_CONTENT_HASH;
  const body = struct([
    ['id', ev.id],
    ['timestamp', int(ev.timestamp)],
    ['session_id', ev.sessionId],
    ['parent_request_id', ev.parentRequestId],
    ['request_id', ev.requestId],
    ['operation_kind', ev.operationKind],
    [
      'terminal_state',
      struct([
        ['state', ev.terminal.state],
        ['reason', ev.terminal.reason],
      ]),
    ],
    ['outcome_hash', outcomeHash],
    ['policy_hash', ev.policyHash],
    ['kernel_key', kernel.publicHex],
  ]);
  const full = struct([...body, ['signature', kernel.sign(canonicalBytes(body))]]);
  return {
    rawJson: compactJson(full),
    receiptId: ev.id,
    timestamp: ev.timestamp,
    sessionId: ev.sessionId,
    parentRequestId: ev.parentRequestId,
    requestId: ev.requestId,
    operationKind: ev.operationKind,
    terminalState: ev.terminal.state,
    policyHash: ev.policyHash,
    outcomeHash,
  };
}
