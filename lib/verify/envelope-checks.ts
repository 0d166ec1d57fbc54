// The checks of a receipt delivered in an envelope (contract part 2 §5.4;
// chio-format-v2.md §16.10.2): `content_hash` (the carried output hashes to
// the signed `content_hash`), `delivery` (the kernel's acknowledgement binds
// this receipt, its request and its result), and the envelope rules that raise
// `envelope_invalid` (a requestId other than the signed one, a wrong
// `chioEvidence.schema`). The envelope is attacker-controlled and unsigned; the
// receipt was decoded from signed bytes. Pure; never throws on input.
import { sha256Hex } from '../crypto/sha256';
import { canonicalBytes } from '../json/canonicalize';
import { type JsonValue, isJsonObject, jsonObject } from '../json/value';
import type { DecodedToolReceipt } from '../chio/types';
import { type CheckResult, fail, pass, skipped } from '../verdict/check';
import { type Envelope, show } from './envelope-intake';
import type { ReportEnvelope } from '../verdict/report';

export const EVIDENCE_SCHEMA = 'chio.mcp.execution-evidence.v1';
export const DELIVERY_SCHEMA = 'chio.mcp.delivery-ack.v1';
/** 32 bytes as unpadded base64url. How the kernel computes it is UNCONFIRMED upstream, so it is checked as opaque. */
const ACKNOWLEDGEMENT = /^[A-Za-z0-9_-]{43}$/;

export interface EnvelopeProblem {
  code: 'content_hash_mismatch' | 'delivery_mismatch' | 'envelope_invalid';
  message: string;
}

export interface EnvelopeOutcome {
  content_hash: CheckResult;
  delivery: CheckResult;
  problems: EnvelopeProblem[];
}

/** Every §5.4 check of `r` against one envelope it arrived in. */
export function checkEnvelope(r: DecodedToolReceipt, env: Envelope): EnvelopeOutcome {
  const problems: EnvelopeProblem[] = env.issues.map((message) => ({ code: 'envelope_invalid', message }));
  const requestId = typeof env.requestId === 'string' ? env.requestId : undefined;
  const signedRequestId = receiptRequestId(r);
  if (requestId === undefined) {
    problems.push({ code: 'envelope_invalid', message: `the ${kindName(env)} has no requestId string (${show(env.requestId)})` });
  } else if (signedRequestId !== undefined && signedRequestId !== requestId) {
    problems.push({
      code: 'envelope_invalid',
      message: `the ${kindName(env)}'s requestId ${show(requestId)} differs from the signed metadata.receipt_context.request_id ${show(signedRequestId)}`,
    });
  }
  if (env.kind === 'mcp-tool-result' && env.schema !== EVIDENCE_SCHEMA) {
    problems.push({ code: 'envelope_invalid', message: `_meta.chioEvidence.schema is ${show(env.schema)}, not ${EVIDENCE_SCHEMA}` });
  }
  const content_hash = checkContentHash(r, env);
  if (content_hash.status === 'fail') problems.push({ code: 'content_hash_mismatch', message: content_hash.detail! });
  const delivery = checkDelivery(r, env, requestId, signedRequestId);
  if (delivery.status === 'fail') problems.push({ code: 'delivery_mismatch', message: delivery.detail! });
  return { content_hash, delivery, problems };
}

/** `metadata.receipt_context.request_id`, signed with the receipt. */
function receiptRequestId(r: DecodedToolReceipt): string | undefined {
  const context = isJsonObject(r.metadata) ? r.metadata.get('receipt_context') : undefined;
  const id = isJsonObject(context) ? context.get('request_id') : undefined;
  return typeof id === 'string' ? id : undefined;
}

function kindName(env: Envelope): string {
  return env.kind === 'chio-bridge-outcome' ? 'bridge outcome' : 'MCP tool result';
}

/**
 * `content_hash`: sha256 hex of RFC 8785 of the whole output (the bridge's `result`, or
 * `chioEvidence.output`: for the fs tool server itself an MCP CallToolResult) equals the
 * receipt's `content_hash`. Skipped, with the reason, when there is nothing to hash.
 */
export function checkContentHash(r: DecodedToolReceipt, env: Envelope): CheckResult {
  if (isRedactedDenial(r)) return skipped('redacted_profile');
  if (env.outputKind === 'stream') return skipped('stream_output');
  if (env.outputKind === 'none' || env.output === undefined) return skipped('no_output');
  const got = sha256Hex(canonicalBytes(env.output));
  if (got === r.contentHash) return pass();
  return fail('content_hash_mismatch', env.kind === 'chio-bridge-outcome', got, show(r.contentHash));
}

/** A denial under the redacted delivery-mismatch profile commits to a digest, not to an output (part 2 §5.4). */
function isRedactedDenial(r: DecodedToolReceipt): boolean {
  if (r.decision?.verdict !== 'deny' || !isJsonObject(r.metadata)) return false;
  const contract = r.metadata.get('delivery_contract');
  return isJsonObject(contract) && contract.get('result') === 'mismatched';
}

/**
 * `delivery`: every binding of the kernel's delivery acknowledgement, each one that fails
 * named. `requestHash` is recomputed over the `tools/call` request the bridge sent; a request
 * that carried approval members (`chioGovernedIntent`, `chioApprovalToken`) hashes them too,
 * and no envelope carries them, so such a request cannot be matched here.
 */
export function checkDelivery(r: DecodedToolReceipt, env: Envelope, requestId: string | undefined, signedRequestId: string | undefined): CheckResult {
  const d = env.delivery;
  if (d === undefined) return skipped('no_delivery');
  if (!isJsonObject(d)) return fail('delivery_not_object', show(d));
  const wrong: string[] = [];
  if (d.get('schema') !== DELIVERY_SCHEMA) wrong.push(`schema is ${show(d.get('schema'))}, not ${DELIVERY_SCHEMA}`);
  const ackRequestId = d.get('requestId');
  if (ackRequestId !== requestId) wrong.push(`requestId ${show(ackRequestId)} is not the ${kindName(env)}'s ${show(requestId)}`);
  if (signedRequestId === undefined) wrong.push('the receipt has no signed metadata.receipt_context.request_id to bind the requestId to');
  else if (ackRequestId !== signedRequestId) wrong.push(`requestId ${show(ackRequestId)} is not the signed request_id ${show(signedRequestId)}`);
  if (d.get('receiptId') !== r.id) wrong.push(`receiptId ${show(d.get('receiptId'))} is not the receipt's id ${show(r.id)}`);
  if (d.get('resultHash') !== r.contentHash) wrong.push(`resultHash ${show(d.get('resultHash'))} is not the signed content_hash ${show(r.contentHash)}`);
  const hashedId = requestId ?? (typeof ackRequestId === 'string' ? ackRequestId : undefined);
  let requestHashUnknown = false;
  if (hashedId === undefined) wrong.push('requestHash cannot be recomputed without a requestId');
  else {
    const expected = requestHash(r.toolName, r.parameters, hashedId);
    if (d.get('requestHash') !== expected) {
      // A governed call's request carried approval members (chioGovernedIntent, chioApprovalToken)
      // that no envelope holds: its hash cannot be recomputed here, which is not a mismatch.
      if (isGoverned(r)) requestHashUnknown = true;
      else
        wrong.push(
          `requestHash ${show(d.get('requestHash'))} is not ${expected}, the sha256 of the canonical tools/call request (name ${show(r.toolName)}, the signed parameters, _meta.chioRequestId)`,
        );
    }
  }
  const ack = d.get('acknowledgement');
  if (typeof ack !== 'string' || !ACKNOWLEDGEMENT.test(ack)) wrong.push(`acknowledgement ${show(ack)} is not 43 base64url characters`);
  if (wrong.length > 0) return fail('delivery_unbound', wrong);
  return requestHashUnknown ? skipped('approval_members_unknown') : pass();
}

/** A governed call (signed `metadata.governed_transaction`): its request may have carried approval members. */
function isGoverned(r: DecodedToolReceipt): boolean {
  return isJsonObject(r.metadata) && r.metadata.has('governed_transaction');
}

/** sha256 hex of RFC 8785 `{"method":"tools/call","params":{"name","arguments","_meta":{"chioRequestId"}}}` (chio-format-v2.md §16.10.2). */
export function requestHash(toolName: string, parameters: JsonValue, requestId: string): string {
  const meta = jsonObject([['chioRequestId', requestId]]);
  const params = jsonObject([
    ['name', toolName],
    ['arguments', parameters],
    ['_meta', meta],
  ]);
  return sha256Hex(
    canonicalBytes(
      jsonObject([
        ['method', 'tools/call'],
        ['params', params],
      ]),
    ),
  );
}

/** What the report shows of an envelope: its claims, marked as claims. */
export function envelopeClaims(env: Envelope): ReportEnvelope {
  return {
    kind: env.kind,
    ...(env.host !== undefined ? { host: env.host } : {}),
    ...(env.state !== undefined ? { state: env.state } : {}),
    ...(env.evidence !== undefined ? { evidence: env.evidence } : {}),
    ...(env.outputKind !== undefined ? { output_kind: env.outputKind } : {}),
    ...(env.decision !== undefined ? { decision: env.decision } : {}),
    claimed: true,
  };
}

const RANK: Record<CheckResult['status'], number> = { skipped: 0, pass: 1, fail: 2 };

/** Of two results of one check for one receipt (reached in two envelopes): a failure wins, then a pass, then a skip. */
export function combineResults(a: CheckResult | undefined, b: CheckResult | undefined): CheckResult | undefined {
  if (!a) return b;
  if (!b) return a;
  return RANK[b.status] > RANK[a.status] ? b : a;
}
