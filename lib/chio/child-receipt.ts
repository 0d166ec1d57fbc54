// ChildRequestReceipt (chio-format.md §7): the same in both generations; the
// body is everything but `algorithm` and `signature`, signed over JCS.
import type { JsonObject } from '../json/value';
import { ObjectProjector, type ProjectionSink, taggedEnum } from './fields';
import { SIGNING_ALGORITHMS, commonOfBody, readKernelKey, readSignature, type DecodeResult } from './tool-receipt';
import type { DecodedChildReceipt } from './types';

export const OPERATION_KINDS = [
  'tool_call',
  'create_message',
  'create_elicitation',
  'list_roots',
  'list_resources',
  'read_resource',
  'list_resource_templates',
  'list_prompts',
  'get_prompt',
  'complete',
  'list_capabilities',
  'heartbeat',
] as const;

/** True when the object has the keys only a child receipt has. */
export function looksLikeChildReceipt(o: JsonObject): boolean {
  return o.has('operation_kind') && o.has('terminal_state');
}

export function decodeChildReceipt(src: JsonObject, path = '$'): DecodeResult<DecodedChildReceipt> {
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const p = new ObjectProjector(src, path, sink);
  const id = p.string('id');
  const timestamp = p.u64('timestamp');
  const sessionId = p.string('session_id');
  const parentRequestId = p.string('parent_request_id');
  const requestId = p.string('request_id');
  const operationKind = p.enumOf('operation_kind', OPERATION_KINDS);
  const terminal = taggedEnum(p, 'terminal_state', 'state', {
    completed: () => {},
    cancelled: (t) => void t.string('reason'),
    incomplete: (t) => void t.string('reason'),
  });
  const outcomeHash = p.string('outcome_hash');
  const policyHash = p.string('policy_hash');
  p.optAny('metadata');
  const key = readKernelKey(p);
  const algorithm = p.optEnumOf('algorithm', SIGNING_ALGORITHMS);
  p.out.delete('algorithm');
  const signature = readSignature(p);
  p.finish();
  if (sink.issues.length > 0) return { ok: false, issues: sink.issues };

  return {
    ok: true,
    value: {
      type: 'child',
      ...commonOfBody(p.out, { id: id!, timestamp: timestamp!, key, signature: signature!, policyHash: policyHash!, algorithm, unsigned: sink.unsigned }),
      sessionId: sessionId!,
      parentRequestId: parentRequestId!,
      requestId: requestId!,
      operationKind: operationKind!,
      terminalState: terminal!.tag,
      outcomeHash: outcomeHash!,
    },
  };
}
