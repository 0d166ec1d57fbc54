// HttpReceipt of the Chio HTTP sidecar (chio-format.md §7): the signature
// covers JCS of every field but `signature`. The deny verdict's `http_status`
// defaults to 403 when absent, so it is signed even then. The Gen B (0.1.2)
// variant is UNCONFIRMED upstream; this decodes the 0.1.0 shape.
import type { JsonObject } from '../json/value';
import { ObjectProjector, type ProjectionSink, taggedEnum } from './fields';
import { commonOfBody, readEvidence, readKernelKey, readSignature, type DecodeResult } from './tool-receipt';
import type { DecodedHttpReceipt } from './types';

/** True when the object has the keys only an HTTP receipt has. */
export function looksLikeHttpReceipt(o: JsonObject): boolean {
  return o.has('route_pattern') && o.has('method') && o.has('request_id');
}

export function decodeHttpReceipt(src: JsonObject, path = '$'): DecodeResult<DecodedHttpReceipt> {
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const p = new ObjectProjector(src, path, sink);
  const id = p.string('id');
  const requestId = p.string('request_id');
  const routePattern = p.string('route_pattern');
  const method = p.string('method');
  p.string('caller_identity_hash');
  p.optString('session_id');
  const verdict = taggedEnum(p, 'verdict', 'verdict', {
    allow: () => {},
    deny: (v) => {
      v.string('reason');
      v.string('guard');
      v.u16OrDefault('http_status', 403n);
    },
    cancel: (v) => void v.string('reason'),
    incomplete: (v) => void v.string('reason'),
  });
  readEvidence(p);
  const responseStatus = p.u16('response_status');
  const timestamp = p.u64('timestamp');
  p.string('content_hash');
  const policyHash = p.string('policy_hash');
  const capabilityId = p.optString('capability_id');
  p.optAny('metadata');
  const key = readKernelKey(p);
  const signature = readSignature(p);
  p.finish();
  if (sink.issues.length > 0) return { ok: false, issues: sink.issues };

  return {
    ok: true,
    value: {
      type: 'http',
      ...commonOfBody(p.out, { id: id!, timestamp: timestamp!, key, signature: signature!, policyHash: policyHash!, unsigned: sink.unsigned }),
      requestId: requestId!,
      routePattern: routePattern!,
      method: method!,
      verdict: verdict!.tag,
      responseStatus: responseStatus!,
      ...(capabilityId !== undefined ? { capabilityId } : {}),
    },
  };
}
