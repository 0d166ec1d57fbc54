// Everything the receipt page shows about one receipt, computed from its
// bundle (the record as its source holds it, the checkpoint, the proof): each
// field and whether it is signed, the decision and guard evidence, the
// parameters, every hash with its recomputation, the financial and Gen B
// fields, the signed (canonical) and raw bytes, the request-tree links, and
// the Merkle path from the leaf to the signed checkpoint root. Pure; the
// verdict itself comes from the verifier (verifyBundle / the log's report).
import { toHex, bytesEqual } from '../bytes/hex';
import { chainLeafHash, decodeCheckpoint, decodeInclusionProof, checkpointSha256 } from '../chio/checkpoint';
import { decodeChildReceipt } from '../chio/child-receipt';
import { decodeHttpReceipt } from '../chio/http-receipt';
import { type DecodeResult, decodeToolReceipt } from '../chio/tool-receipt';
import type { DecodedCheckpoint, DecodedInclusionProof, DecodedReceipt } from '../chio/types';
import { sha256Hex } from '../crypto/sha256';
import { canonicalBytes, canonicalize } from '../json/canonicalize';
import { prettyJson, visibleString } from '../json/pretty';
import { type JsonObject, type JsonValue, JsonNumber, isJsonObject, pathKey } from '../json/value';
import { type InclusionStep, leafHash, rootFromInclusionProof } from '../merkle';
import type { ReceiptBundle } from '../sources/receipt-bundle';
import { intakeRecord } from '../verify/intake';
import { LEAF_ANCHOR, LEAF_KERNEL } from '../verdict/check-text';
import { receiptView } from '../verify/receipt-view';

export type FieldStatus = 'signed' | 'signature' | 'not signed';

export interface FieldLine {
  path: string;
  /** The value as JSON text (strings escaped, invisible characters shown). */
  value: string;
  status: FieldStatus;
}

export interface HashLine {
  name: string;
  claimed: string;
  recomputed?: string;
  status: 'match' | 'mismatch' | 'not recomputable';
  note: string;
}

export interface MerklePath {
  checkpointSeq: string;
  leafIndex: string;
  treeSize: string;
  convention: string;
  leaf: string;
  steps: { level: number; sibling: string; side: 'left' | 'right'; node: string }[];
  computedRoot: string | null;
  signedRoot: string;
  matches: boolean;
  error?: string;
}

export interface CheckpointFacts {
  seq: string;
  batch: string;
  treeSize: string;
  root: string;
  issuedAt: string;
  kernelKey: string;
  sha256: string;
  previous?: string;
  /** `chio.checkpoint_statement.v1` or `…v2`. */
  schema: string;
  /** v2: the signed root over the chain leaves of checkpoints 1…seq (`0x` + hex). */
  chainRoot?: string;
  /** This checkpoint's own chain leaf hash (§16.3), `0x` + hex. */
  chainLeaf?: string;
}

/**
 * One field of `metadata.financial`. A money field (`minor` set) is an integer in minor units of
 * the receipt's currency, for the page to format (lib/finance/money) beside its raw digits.
 */
export interface FinancialLine {
  field: string;
  /** The value as given: the decimal digits for a number, the text for a string. */
  text: string;
  minor?: bigint;
}

export interface Dossier {
  type: DecodedReceipt['type'];
  generation?: 'A' | 'B';
  id: string;
  fields: FieldLine[];
  decision?: { verdict: string; reason?: string; guard?: string };
  evidence: { guard: string; passed: boolean; details?: string; blocking: boolean }[];
  evidenceNote?: string;
  parameters?: string;
  hashes: HashLine[];
  financial: FinancialLine[];
  /** `metadata.financial.currency`: the unit of every money line (attacker-controlled text). */
  currency?: string;
  financialError?: string;
  kind: [string, string][];
  canonical: { text: string; bytes: number; sha256: string };
  raw: { text: string; bytes: number; sha256: string };
  links: { sessionId?: string; requestId?: string; parentRequestId?: string; parentReceiptId?: string };
  checkpoint?: CheckpointFacts;
  merkle?: MerklePath;
  /** Why the checkpoint or proof could not be read, when present but broken. */
  notes: string[];
}

export type DossierResult = { ok: true; dossier: Dossier } | { ok: false; message: string };

const encoder = new TextEncoder();
const hex0x = (b: Uint8Array) => `0x${toHex(b)}`;

function firstItem(text: string, role: Parameters<typeof intakeRecord>[1]): { value: JsonObject; seq?: bigint } | string {
  const r = intakeRecord(text, role);
  if (!r.ok) return `${r.issue.path}: ${r.issue.message} (line ${r.issue.line})`;
  const item = r.items[0];
  if (!item) return 'the record holds nothing';
  return { value: item.value, ...(item.seq !== undefined ? { seq: item.seq } : {}) };
}

function decodeReceipt(value: JsonObject, role: ReceiptBundle['role']) {
  return role === 'tool' ? decodeToolReceipt(value) : role === 'child' ? decodeChildReceipt(value) : decodeHttpReceipt(value);
}

export function buildDossier(bundle: ReceiptBundle): DossierResult {
  const item = firstItem(bundle.receipt, bundle.role);
  if (typeof item === 'string') return { ok: false, message: item };
  const decoded = decodeReceipt(item.value, bundle.role);
  if (!decoded.ok)
    return {
      ok: false,
      message: decoded.issues
        .slice(0, 5)
        .map((i) => `${i.path}: ${i.message}`)
        .join('; '),
    };
  const r = decoded.value;
  const signed = canonicalize(r.signingBody);
  const notes: string[] = [];
  const d: Dossier = {
    type: r.type,
    ...(r.type === 'tool' ? { generation: r.generation } : {}),
    id: r.id,
    fields: fieldLines(item.value, r),
    evidence: [],
    hashes: hashLines(r),
    financial: [],
    kind: [],
    canonical: { text: signed, bytes: encoder.encode(signed).length, sha256: sha256Hex(encoder.encode(signed)) },
    raw: { text: bundle.receipt, bytes: encoder.encode(bundle.receipt).length, sha256: sha256Hex(encoder.encode(bundle.receipt)) },
    links: {},
    notes,
  };
  const view = receiptView(r, { order: 0, file: '', line: 0 });
  for (const k of ['sessionId', 'requestId', 'parentRequestId', 'parentReceiptId'] as const) if (view[k] !== undefined) d.links[k] = view[k];
  describeDecision(r, d);

  const cp = bundle.checkpoint !== undefined ? readCompanion(bundle.checkpoint, 'checkpoint', (o) => decodeCheckpoint(o), notes) : undefined;
  if (cp) {
    d.checkpoint = {
      seq: cp.checkpointSeq.toString(),
      batch: `${cp.batchStartSeq}–${cp.batchEndSeq}`,
      treeSize: cp.treeSize.toString(),
      root: cp.merkleRootText,
      issuedAt: cp.issuedAt.toString(),
      kernelKey: cp.kernelKey,
      sha256: checkpointSha256(cp),
      schema: cp.schema,
      ...(cp.previousCheckpointSha256 !== undefined ? { previous: cp.previousCheckpointSha256 } : {}),
      ...(cp.chainRoot ? { chainRoot: hex0x(cp.chainRoot) } : {}),
    };
    const chainLeaf = chainLeafHash(cp);
    if (chainLeaf) d.checkpoint.chainLeaf = hex0x(chainLeaf);
  }
  const proof = bundle.proof !== undefined ? readCompanion(bundle.proof, 'proof', (o) => decodeInclusionProof(o), notes) : undefined;
  if (proof && cp) d.merkle = merklePath(r, proof, cp);
  return { ok: true, dossier: d };
}

/** A companion record (the checkpoint or the proof), or a note saying why it cannot be used. */
function readCompanion<T>(text: string, role: 'checkpoint' | 'proof', decode: (o: JsonObject) => DecodeResult<T>, notes: string[]): T | undefined {
  const what = role === 'checkpoint' ? 'The checkpoint record' : 'The inclusion proof';
  const item = firstItem(text, role);
  if (typeof item === 'string') return void notes.push(`${what} cannot be read: ${item}`);
  const decoded = decode(item.value);
  if (!decoded.ok) return void notes.push(`${what} is malformed: ${decoded.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return decoded.value;
}

/** Each leaf field of the receipt as given, and whether the signature covers it. */
function fieldLines(receipt: JsonObject, r: DecodedReceipt): FieldLine[] {
  const unsigned = new Set(r.unsigned);
  const out: FieldLine[] = [];
  const walk = (v: JsonValue, signedTwin: JsonValue | undefined, path: string, display: string, inherited: FieldStatus | null) => {
    const status: FieldStatus = inherited ?? (display === 'signature' ? 'signature' : unsigned.has(path) || signedTwin === undefined ? 'not signed' : 'signed');
    const leaf = !isJsonObject(v) || v.size === 0 || display === 'action.parameters';
    if (leaf) {
      out.push({ path: display, value: render(v), status });
      return;
    }
    for (const [k, child] of v) {
      const twin = isJsonObject(signedTwin) ? signedTwin.get(k) : undefined;
      walk(child, twin, pathKey(path, k), display ? `${display}.${k}` : k, status === 'signed' ? null : status);
    }
  };
  // What the signature covers, as a tree: the body (Gen A, child, HTTP) or Gen B's id and id input (anchorBody is both).
  walk(receipt, r.anchorBody, '$', '', null);
  return out;
}

function render(v: JsonValue): string {
  if (typeof v === 'string') return visibleString(v);
  if (v instanceof JsonNumber) return v.raw;
  if (v === null || typeof v === 'boolean') return String(v);
  return prettyJson(v);
}

function hashLines(r: DecodedReceipt): HashLine[] {
  const out: HashLine[] = [];
  const compare = (name: string, claimed: string, recomputed: string, note: string) =>
    out.push({ name, claimed, recomputed, status: claimed === recomputed ? 'match' : 'mismatch', note });
  const absent = (name: string, claimed: string, note: string) => out.push({ name, claimed, status: 'not recomputable', note });
  if (r.type === 'tool') {
    compare('action.parameter_hash', r.parameterHash, sha256Hex(canonicalBytes(r.parameters)), 'SHA-256 of the canonical (RFC 8785) parameters');
    if (r.genB)
      compare(
        'id (Gen B)',
        r.id,
        sha256Hex(canonicalBytes(r.genB.idInput)),
        'SHA-256 of the canonical id input (the receipt without its id, its signature and the fields the format leaves out of the id)',
      );
    absent('content_hash', r.contentHash, 'the tool output is not part of the receipt, so its hash cannot be recomputed here');
  }
  if (r.type === 'child') absent('outcome_hash', r.outcomeHash, 'the outcome is not part of the receipt');
  absent('policy_hash', r.policyHash, 'the policy is not part of the log; compare it with the policy you expect');
  out.push({
    name: 'Merkle leaf (kernel convention)',
    claimed: hex0x(leafHash(canonicalBytes(r.fullTyped))),
    status: 'not recomputable',
    note: 'SHA-256(0x00 ‖ canonical full receipt): what the checkpoint commits to; checked against the path below',
  });
  return out;
}

function describeDecision(r: DecodedReceipt, d: Dossier): void {
  if (r.type === 'child') {
    d.decision = { verdict: r.terminalState };
    d.kind.push(['operation_kind', r.operationKind], ['session_id', r.sessionId], ['request_id', r.requestId], ['parent_request_id', r.parentRequestId]);
    return;
  }
  if (r.type === 'http') {
    d.decision = { verdict: r.verdict };
    d.kind.push(['method', r.method], ['route_pattern', r.routePattern], ['response_status', r.responseStatus.toString()], ['request_id', r.requestId]);
    return;
  }
  if (r.decision)
    d.decision = {
      verdict: r.decision.verdict,
      ...(r.decision.reason !== undefined ? { reason: r.decision.reason } : {}),
      ...(r.decision.guard !== undefined ? { guard: r.decision.guard } : {}),
    };
  const blocking = r.decision?.verdict === 'deny' ? (r.decision.guard ?? r.evidence.find((e) => !e.verdict)?.guardName) : undefined;
  let seenBlocker = false;
  for (const e of r.evidence) {
    const isBlocker = !seenBlocker && blocking !== undefined && e.guardName === blocking && !e.verdict;
    if (isBlocker) seenBlocker = true;
    d.evidence.push({ guard: e.guardName, passed: e.verdict, ...(e.details !== undefined ? { details: e.details } : {}), blocking: isBlocker });
  }
  if (r.decision?.verdict === 'deny') {
    d.evidenceNote =
      blocking !== undefined
        ? `Denied by ${blocking}. Guards after it were not evaluated, so they are not listed.`
        : 'Denied, but no guard is named and no guard evidence failed: the reason is the only account.';
  } else if (r.evidence.length === 0) {
    d.evidenceNote = 'No guard evidence in this receipt.';
  }
  if (!(r.parameters === null && r.type !== 'tool')) d.parameters = prettyJson(r.parameters);
  if (r.trustLevel) d.kind.push(['trust_level', r.trustLevel]);
  if (r.tenantId !== undefined) d.kind.push(['tenant_id', r.tenantId]);
  if (r.genB) {
    const b = r.genB;
    d.kind.push(['receipt_kind', b.receiptKind], ['boundary_class', b.boundaryClass]);
    if (b.observationOutcome !== undefined) d.kind.push(['observation_outcome', b.observationOutcome]);
    d.kind.push(['tool_origin', b.toolOrigin], ['redaction_mode', b.redactionMode]);
    if (b.bbsProjectionVersion !== undefined) d.kind.push(['bbs_projection_version', b.bbsProjectionVersion]);
  }
  const f = r.financial;
  if (f) {
    const money = (field: string, minor: bigint): FinancialLine => ({ field, text: minor.toString(), minor });
    const plain = (field: string, text: string): FinancialLine => ({ field, text });
    d.currency = f.currency;
    d.financial.push(
      money('cost_charged', f.costCharged),
      ...(f.attemptedCost !== undefined ? [money('attempted_cost', f.attemptedCost)] : []),
      money('budget_total', f.budgetTotal),
      money('budget_remaining', f.budgetRemaining),
      plain('currency', f.currency),
      plain('grant_index', f.grantIndex.toString()),
      plain('delegation_depth', f.delegationDepth.toString()),
      plain('root_budget_holder', f.rootBudgetHolder),
      plain('settlement_status', f.settlementStatus),
      ...(f.paymentReference !== undefined ? [plain('payment_reference', f.paymentReference)] : []),
    );
  }
  if (r.financialError !== undefined) d.financialError = r.financialError;
}

/** The audit path walked from the leaf to the root, under the leaf convention that reaches the signed root (kernel first). */
function merklePath(r: DecodedReceipt, proof: DecodedInclusionProof, cp: DecodedCheckpoint): MerklePath {
  const base = {
    checkpointSeq: cp.checkpointSeq.toString(),
    leafIndex: proof.leafIndex.toString(),
    treeSize: proof.treeSize.toString(),
    signedRoot: cp.merkleRootText,
  };
  const path = proof.auditPath.filter((h): h is Uint8Array => h !== null);
  const index = Number(proof.leafIndex);
  const size = Number(proof.treeSize);
  const attempt = (convention: string, leaf: Uint8Array): MerklePath => {
    const steps: InclusionStep[] = [];
    const res = rootFromInclusionProof(index, size, leaf, path, (s) => steps.push(s));
    const computed = res.ok ? res.value : null;
    return {
      ...base,
      convention,
      leaf: hex0x(leaf),
      steps: steps.map((s, i) => ({ level: i + 1, sibling: hex0x(s.sibling), side: s.side, node: hex0x(s.node) })),
      computedRoot: computed ? hex0x(computed) : null,
      matches: computed !== null && cp.merkleRoot !== null && bytesEqual(computed, cp.merkleRoot),
      ...(res.ok ? {} : { error: res.detail }),
      ...(path.length !== proof.auditPath.length ? { error: 'the audit path holds entries that are not 32-byte hashes' } : {}),
    };
  };
  if (proof.checkpointSeq !== cp.checkpointSeq) {
    return {
      ...attempt(LEAF_KERNEL, leafHash(canonicalBytes(r.fullTyped))),
      matches: false,
      error: `the proof is for checkpoint ${proof.checkpointSeq}, not ${cp.checkpointSeq}`,
    };
  }
  const kernel = attempt(LEAF_KERNEL, leafHash(canonicalBytes(r.fullTyped)));
  if (kernel.matches) return kernel;
  const anchor = attempt(LEAF_ANCHOR, leafHash(canonicalBytes(r.anchorBody)));
  return anchor.matches ? anchor : kernel;
}
