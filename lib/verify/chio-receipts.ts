// Chio's receipts as they stream in (contract §5, part 2 §5.4): a tool, child or
// HTTP receipt decoded, hashed into its two leaves, its own checks run
// (parameter hash, Gen B id and semantics, envelopes, trusted signer) and its
// signature checked, into one ReceiptEntry (and its explorer row). Part of
// Chio's checked family (chio-records.ts); nothing here knows the rest of the log.
import { canonicalBytesPair } from '../json/canonicalize';
import { leafHash } from '../merkle';
import { decodeChildReceipt } from '../chio/child-receipt';
import { decodeHttpReceipt } from '../chio/http-receipt';
import { decodeToolReceipt } from '../chio/tool-receipt';
import type { DecodedReceipt, DecodedToolReceipt } from '../chio/types';
import { type JsonValue, isJsonObject } from '../json/value';
import { type CheckResult, pass } from '../verdict/check';
import { type Problem, type ProblemLocation, makeProblem } from '../verdict/problems';
import type { CheckedFamilyContext } from './checked-family';
import type { Located, ReceiptEntry } from './entries';
import { checkEnvelope, combineResults, envelopeClaims } from './envelope-checks';
import type { Envelope } from './envelope-intake';
import type { LogItem } from './intake';
import { checkParameterHash, checkReceiptId, checkReceiptSignature, checkSemantics } from './receipt-checks';
import { semanticsCode } from './receipt-semantics';
import { receiptView } from './receipt-view';
import { type RecordOrigin, type RecordOutput, own } from './record-output';

/** A receipt's kernel-lane and anchor-lane leaf hashes, in one 64-byte array (ReceiptEntry.leafHashes). */
function leafHashPair(full: Uint8Array, anchor: Uint8Array): Uint8Array {
  const pair = new Uint8Array(64);
  pair.set(leafHash(full), 0);
  pair.set(leafHash(anchor), 32);
  return pair;
}

/** A tool, child or HTTP receipt into `out`; the promise settles its signature check. */
export function checkReceipt(
  item: LogItem,
  origin: RecordOrigin,
  located: Located,
  out: RecordOutput,
  context: CheckedFamilyContext,
): Promise<void> | undefined {
  const kind = item.kind;
  const decoded =
    kind === 'tool'
      ? decodeToolReceipt(item.value, item.path)
      : kind === 'child'
        ? decodeChildReceipt(item.value, item.path)
        : decodeHttpReceipt(item.value, item.path);
  if (!decoded.ok) {
    const id = item.value.get('id');
    shapeProblem(decoded.issues, origin, out, typeof id === 'string' ? id : undefined);
    return undefined;
  }
  const r: DecodedReceipt = decoded.value;
  const seq = item.seq ?? origin.seq;
  const logSeq = origin.logSeq ?? (kind === 'tool' ? item.seq : undefined);
  // Gen A, child and HTTP receipts sign exactly their body, which is also the anchor-lane leaf;
  // the full receipt (the kernel-lane leaf) is that body plus its signature.
  const [anchorBytes, fullBytes] = canonicalBytesPair(r.anchorBody, r.fullTyped);
  const entry: ReceiptEntry = {
    file: located.file,
    line: located.line,
    order: located.order,
    id: own(r.id),
    type: r.type,
    space: origin.space,
    timestamp: r.timestamp,
    kernelKey: r.kernelKeyNormalized, // repeated: EntryCompactor keeps one unsliced copy
    checks: { parse: pass() },
    leafHashes: leafHashPair(fullBytes, anchorBytes),
  };
  if (r.type === 'tool') entry.generation = r.generation;
  if (seq !== undefined) entry.seq = seq;
  if (logSeq !== undefined) entry.logSeq = logSeq;
  const where: ProblemLocation = { receipt_id: entry.id, file: origin.file, line: origin.line };
  const set = (name: keyof ReceiptEntry['checks'], result: CheckResult, code: Problem['code']) => {
    entry.checks[name] = result;
    if (result.status === 'fail') out.problems.push(makeProblem(code, `${entry.id}: ${result.detail}`, where));
  };
  if (r.type === 'tool') {
    // Repeated values: EntryCompactor keeps one unsliced copy of each.
    entry.capabilityId = r.capabilityId;
    if (r.tenantId !== undefined) entry.tenantId = r.tenantId;
    const semantics = semanticsCode(r);
    if (semantics !== undefined) entry.semantics = semantics;
    if (r.decision) entry.decision = r.decision.verdict;
    if (r.financial) {
      const f = r.financial;
      entry.financial = {
        ...f,
        currency: own(f.currency),
        rootBudgetHolder: own(f.rootBudgetHolder),
        settlementStatus: own(f.settlementStatus),
        ...(f.paymentReference !== undefined ? { paymentReference: own(f.paymentReference) } : {}),
      };
    }
    if (r.financialError !== undefined) entry.financialError = r.financialError;
    readAttribution(r.metadata, entry);
    set('parameter_hash', checkParameterHash(r), 'parameter_hash_mismatch');
    if (r.generation === 'B') {
      set('receipt_id', checkReceiptId(r), 'receipt_id_mismatch');
      set('semantics', checkSemantics(r), 'semantics_invalid');
    }
    if (item.envelopes) checkEnvelopes(r, item.envelopes, entry, where, out);
  }
  if (r.unsigned.length > 0) {
    const shown = r.unsigned.slice(0, 20).join(', ') + (r.unsigned.length > 20 ? `, and ${r.unsigned.length - 20} more` : '');
    out.problems.push(makeProblem('unsigned_field', `${entry.id} carries fields outside its signed set (shown, but not signed): ${shown}`, where));
  }
  set('signer_trusted', context.trust.check(r.kernelKeyNormalized, r.timestamp), 'untrusted_signer');
  out.receipts.push(entry);
  if (context.views) out.views.push(receiptView(r, { order: located.order, file: located.file, line: located.line, ...(seq !== undefined ? { seq } : {}) }));
  return checkReceiptSignature(r, where, r.generation === 'B' ? undefined : anchorBytes).then((outcome) => {
    entry.checks.signature = outcome.check;
    out.problems.push(...outcome.problems);
  });
}

/** `metadata.attribution.{subject_key, issuer_key}` of a tool receipt, when written as strings. */
function readAttribution(metadata: JsonValue | undefined, entry: ReceiptEntry): void {
  const a = isJsonObject(metadata) ? metadata.get('attribution') : undefined;
  if (!isJsonObject(a)) return;
  const subject = a.get('subject_key');
  const issuer = a.get('issuer_key');
  // Repeated values: EntryCompactor keeps one unsliced copy of each.
  if (typeof subject === 'string') entry.attributionSubjectKey = subject;
  if (typeof issuer === 'string') entry.attributionIssuerKey = issuer;
}

/**
 * The §5.4 checks of a receipt against every envelope it arrived in (one, or more when the
 * record repeats it): each check keeps the most telling result (fail, then pass, then skipped),
 * and each distinct problem is raised once. The report shows the first envelope's claims.
 */
function checkEnvelopes(r: DecodedToolReceipt, envelopes: Envelope[], entry: ReceiptEntry, where: ProblemLocation, out: RecordOutput): void {
  const raised = new Set<string>();
  for (const env of envelopes) {
    const outcome = checkEnvelope(r, env);
    entry.checks.content_hash = combineResults(entry.checks.content_hash, outcome.content_hash);
    entry.checks.delivery = combineResults(entry.checks.delivery, outcome.delivery);
    for (const p of outcome.problems) {
      const message = `${entry.id}: ${p.message}${envelopes.length > 1 ? ` (envelope at ${env.path})` : ''}`;
      if (raised.has(`${p.code} ${p.message}`)) continue;
      raised.add(`${p.code} ${p.message}`);
      out.problems.push(makeProblem(p.code, message, where));
    }
  }
  const claims = envelopeClaims(envelopes[0]!);
  // Claims are kept past the record: copies that hold no slice of its text.
  for (const k of ['kind', 'host', 'state', 'evidence', 'output_kind', 'decision'] as const) {
    const v = claims[k];
    if (v !== undefined) claims[k] = own(v);
  }
  entry.envelope = claims;
}

export function shapeProblem(issues: { path: string; message: string }[], origin: RecordOrigin, out: RecordOutput, receiptId?: string): void {
  const text =
    issues
      .slice(0, 5)
      .map((i) => `${i.path}: ${i.message}`)
      .join('; ') + (issues.length > 5 ? `; and ${issues.length - 5} more` : '');
  const where: ProblemLocation = { file: origin.file, line: origin.line };
  if (receiptId !== undefined) where.receipt_id = receiptId;
  out.problems.push(makeProblem('parse_error', text, where));
}
