// Chio tool receipts, Gen A (0.1.0, chio-format.md §4) and Gen B (0.1.2, §5):
// generation detection, the typed projection Rust signs, and the Gen B id
// input and signing body. Sub-types per §6.
import type { JsonObject } from '../json/value';
import { ObjectProjector, type ProjectionSink, taggedEnum } from './fields';
import { normalizeKernelKey } from './keys';
import { parseFinancial } from './financial';
import type { DecisionVerdict, DecodedReceiptCommon, DecodedToolReceipt, GuardEvidence } from './types';

export const TRUST_LEVELS = ['mediated', 'verified', 'advisory'] as const;
export const RECEIPT_KINDS = ['mediated_decision', 'trace_observation', 'advisory_evaluation'] as const;
export const BOUNDARY_CLASSES = ['prevent', 'detect_only', 'advisory_only', 'cannot_see'] as const;
export const OBSERVATION_OUTCOMES = ['observed', 'evaluated', 'dropped'] as const;
/** `chio_internal` (format §16.11): executed within Chio's trusted runtime; it confers no extra authority. */
export const TOOL_ORIGINS = ['caller_executed', 'host_executed_provider_reported', 'host_executed_unmediated', 'chio_internal'] as const;
export const REDACTION_MODES = ['none', 'summary', 'redacted'] as const;
export const SIGNING_ALGORITHMS = ['ed25519', 'p256', 'p384', 'hybrid'] as const;

/** Keys whose presence marks Gen B (§0: Gen B always serializes them; Gen A never has them). */
const GEN_B_MARKERS = ['receipt_kind', 'boundary_class', 'tool_origin', 'redaction_mode'];

export function isGenB(receipt: JsonObject): boolean {
  return GEN_B_MARKERS.some((k) => receipt.has(k));
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; issues: { path: string; message: string }[] };

/** Decodes a tool receipt object found at `path`. */
export function decodeToolReceipt(src: JsonObject, path = '$'): DecodeResult<DecodedToolReceipt> {
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const genB = isGenB(src);
  const p = new ObjectProjector(src, path, sink);

  const id = p.string('id');
  const timestamp = p.u64('timestamp');
  const capabilityId = p.string('capability_id');
  const toolServer = p.string('tool_server');
  const toolName = p.string('tool_name');
  let parameters: DecodedToolReceipt['parameters'] = null;
  let parameterHash: string | undefined;
  p.object('action', (a) => {
    parameters = a.any('parameters') ?? null;
    parameterHash = a.string('parameter_hash');
  });
  const decision = readDecision(p, genB);
  const contentHash = p.string('content_hash');
  const policyHash = p.string('policy_hash');
  const evidence = readEvidence(p);
  const metadata = p.optAny('metadata');
  const trustLevel = readTrustLevel(p, genB);
  const tenantId = p.optString('tenant_id');
  const key = readKernelKey(p);
  const algorithm = p.optEnumOf('algorithm', SIGNING_ALGORITHMS);
  p.out.delete('algorithm'); // never part of the body
  const signature = readSignature(p);

  let genBFields: DecodedToolReceipt['genB'];
  if (genB) {
    const receiptKind = p.enumOf('receipt_kind', RECEIPT_KINDS);
    const boundaryClass = p.enumOf('boundary_class', BOUNDARY_CLASSES);
    const observationOutcome = p.optEnumOf('observation_outcome', OBSERVATION_OUTCOMES);
    const toolOrigin = p.enumOf('tool_origin', TOOL_ORIGINS);
    const redactionMode = p.enumOf('redaction_mode', REDACTION_MODES);
    p.vecOmitEmpty('actor_chain', (a) => {
      a.string('actor_id');
      a.optString('actor_kind');
    });
    const bbsProjectionVersion = p.optString('bbs_projection_version');
    const bbsSignature = p.optObject('bbs_signature', readBbsSignature);
    p.out.delete('bbs_signature'); // bound by the signing body, not the id input
    if (receiptKind && boundaryClass && toolOrigin && redactionMode) {
      genBFields = {
        receiptKind,
        boundaryClass,
        toolOrigin,
        redactionMode,
        idInput: new Map(),
        ...(observationOutcome !== undefined ? { observationOutcome } : {}),
        ...(bbsProjectionVersion !== undefined ? { bbsProjectionVersion } : {}),
        ...(bbsSignature !== undefined ? { bbsSignature } : {}),
      };
    }
  }
  p.finish();
  if (sink.issues.length > 0) return { ok: false, issues: sink.issues };

  // `p.out` now holds the body without id/signature handling specific to the generation.
  const body = p.out;
  let signingBody: JsonObject;
  let fullTyped: JsonObject;
  if (genBFields) {
    const idInput: JsonObject = new Map(body);
    idInput.delete('id');
    genBFields.idInput = idInput;
    signingBody = new Map();
    signingBody.set('id', id!);
    signingBody.set('body', idInput);
    if (genBFields.bbsSignature) signingBody.set('bbs_signature', genBFields.bbsSignature);
    fullTyped = new Map(body);
    if (genBFields.bbsSignature) fullTyped.set('bbs_signature', genBFields.bbsSignature);
  } else {
    signingBody = body;
    fullTyped = new Map(body);
  }
  const anchorBody = new Map(fullTyped);
  if (algorithm !== undefined && algorithm !== 'ed25519') fullTyped.set('algorithm', algorithm);
  fullTyped.set('signature', signature!);

  const fin = metadata !== undefined ? parseFinancial(metadata, `${path}.metadata.financial`) : undefined;
  const value: DecodedToolReceipt = {
    type: 'tool',
    generation: genB ? 'B' : 'A',
    id: id!,
    timestamp: timestamp!,
    kernelKey: key.raw,
    kernelKeyNormalized: key.normalized,
    signature: signature!,
    policyHash: policyHash!,
    signingBody,
    fullTyped,
    anchorBody,
    unsigned: sink.unsigned,
    capabilityId: capabilityId!,
    toolServer: toolServer!,
    toolName: toolName!,
    parameters,
    parameterHash: parameterHash!,
    evidence,
    contentHash: contentHash!,
    trustLevel: trustLevel ?? 'mediated',
    ...(algorithm !== undefined ? { algorithm } : {}),
    ...(decision !== undefined ? { decision } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(tenantId !== undefined ? { tenantId } : {}),
    ...(genBFields ? { genB: genBFields } : {}),
    ...(fin?.ok ? { financial: fin.value } : {}),
    ...(fin && !fin.ok ? { financialError: fin.error } : {}),
  };
  return { ok: true, value };
}

function readDecision(p: ObjectProjector, genB: boolean): DecodedToolReceipt['decision'] {
  let reason: string | undefined;
  let guard: string | undefined;
  const tagged = taggedEnum(
    p,
    'decision',
    'verdict',
    {
      allow: () => {},
      deny: (d) => {
        reason = d.string('reason');
        guard = d.string('guard');
      },
      cancelled: (d) => {
        reason = d.string('reason');
      },
      incomplete: (d) => {
        reason = d.string('reason');
      },
    },
    genB, // Gen B: Option<Decision>; Gen A: required
  );
  if (!tagged) return undefined;
  return {
    verdict: tagged.tag as DecisionVerdict,
    ...(reason !== undefined ? { reason } : {}),
    ...(guard !== undefined ? { guard } : {}),
  };
}

export function readEvidence(p: ObjectProjector): GuardEvidence[] {
  const evidence: GuardEvidence[] = [];
  p.vecOmitEmpty('evidence', (e) => {
    const guardName = e.string('guard_name');
    const verdict = e.bool('verdict');
    const details = e.optString('details');
    if (guardName !== undefined && verdict !== undefined) {
      evidence.push({ guardName, verdict, ...(details !== undefined ? { details } : {}) });
    }
  });
  return evidence;
}

function readTrustLevel(p: ObjectProjector, genB: boolean): DecodedToolReceipt['trustLevel'] | undefined {
  if (!p.src.has('trust_level')) {
    // Missing means the default, `mediated`; Gen B always serializes it, Gen A omits it.
    p.known_('trust_level');
    if (genB) p.set('trust_level', 'mediated');
    return 'mediated';
  }
  const level = p.enumOf('trust_level', TRUST_LEVELS);
  if (!genB && level === 'mediated') p.out.delete('trust_level'); // Gen A: skip_serializing_if default
  return level;
}

/** `kernel_key`: required string, re-emitted through `PublicKey::to_hex()` when it parses. */
export function readKernelKey(p: ObjectProjector): { raw: string; normalized: string | null } {
  const raw = p.string('kernel_key') ?? '';
  const normalized = normalizeKernelKey(raw);
  if (normalized !== null) p.out.set('kernel_key', normalized);
  return { raw, normalized };
}

/**
 * The common part of a decoded receipt whose signed body is its whole typed
 * body (Gen A, child, HTTP): the body is signed and is the anchor leaf; the
 * full typed receipt (the kernel leaf) adds `algorithm` (unless default) and `signature`.
 */
export function commonOfBody(
  body: JsonObject,
  r: {
    id: string;
    timestamp: bigint;
    key: { raw: string; normalized: string | null };
    signature: string;
    policyHash: string;
    algorithm?: string | undefined;
    unsigned: string[];
  },
): Omit<DecodedReceiptCommon, 'type' | 'generation'> {
  const fullTyped: JsonObject = new Map(body);
  if (r.algorithm !== undefined && r.algorithm !== 'ed25519') fullTyped.set('algorithm', r.algorithm);
  fullTyped.set('signature', r.signature);
  return {
    id: r.id,
    timestamp: r.timestamp,
    kernelKey: r.key.raw,
    kernelKeyNormalized: r.key.normalized,
    signature: r.signature,
    policyHash: r.policyHash,
    signingBody: body,
    fullTyped,
    anchorBody: new Map(body),
    unsigned: r.unsigned,
    ...(r.algorithm !== undefined ? { algorithm: r.algorithm } : {}),
  };
}

/** `signature`: required string; not part of any body. */
export function readSignature(p: ObjectProjector): string | undefined {
  const v = p.string('signature');
  p.out.delete('signature');
  return v;
}

function readBbsSignature(b: ObjectProjector): void {
  b.string('schema');
  b.string('projection_version');
  b.string('algorithm');
  b.string('ciphersuite');
  b.string('issuer_fingerprint');
  b.string('issuer_public_key_hex');
  b.u32('message_count');
  b.string('signature_hex');
  // `deny_unknown_fields`: extra keys make the struct fail to deserialize.
  for (const key of b.src.keys()) {
    if (!b.out.has(key)) b.sink.issues.push({ path: `${b.path}.${key}`, message: 'unknown field in bbs_signature' });
  }
}
