// The per-record half of verification (contract §5): everything a record's own
// bytes decide (parse, signature, hashes, Gen B id and semantics, trust), with
// no knowledge of the rest of the log. Stateless apart from the trust store, so
// it runs in any number of Web Workers; LogAssembler does the whole-log half.
// Its output is structured-clone safe: plain objects, bigint, Uint8Array.
import { canonicalBytes, canonicalBytesPair, canonicalize } from '../json/canonicalize';
import { compactJson } from '../json/pretty';
import { leafHash } from '../merkle';
import { checkpointFacts, decodeCheckpoint, decodeInclusionProof } from '../chio/checkpoint';
import { oversizedPath } from '../chio/consistency-proof';
import { decodeChildReceipt } from '../chio/child-receipt';
import { decodeHttpReceipt } from '../chio/http-receipt';
import { decodeLineageRow } from '../chio/lineage-row';
import { decodeToolReceipt } from '../chio/tool-receipt';
import type { DecodedReceipt, DecodedToolReceipt } from '../chio/types';
import { verifyChioSignature } from '../crypto/chio-signature';
import { sha256Hex } from '../crypto/sha256';
import { type JsonValue, isJsonNumber, isJsonObject } from '../json/value';
import type { TrustStore } from '../trust/trust-store';
import { readBundleClaims } from './bundle-claims';
import { type CheckResult, pass, skipped } from '../verdict/check';
import type { AuditedFamily } from '../verdict/family';
import type { CheckpointEntry, LineageEntry, ReceiptEntry, TransparencyEntry } from './entries';
import { checkEnvelope, combineResults, envelopeClaims } from './envelope-checks';
import type { Envelope } from './envelope-intake';
import { type LogItem, intakeRecord } from './intake';
import { type RecordOrigin, type RecordOutput, own } from './record-output';
import { addFailure, checkTokenSignature, judgeLineageRow } from './lineage';
import { type Problem, type ProblemLocation, makeProblem } from '../verdict/problems';
import { checkParameterHash, checkReceiptId, checkReceiptSignature, checkSemantics, signatureFailure } from './receipt-checks';
import { receiptView } from './receipt-view';
import { semanticsCode } from './receipt-semantics';

/** The fields of a consistency record that hold paths of hashes. */
const PATH_FIELDS = new Set(['chain_proof_hashes', 'from_leaf_inclusion', 'to_leaf_inclusion']);

/**
 * The longest field (canonical text) or key a transparency record may have. The longest honest
 * field is a consistency record's path, 64 hashes (about 4.4 KB); every other is a number, a
 * digest, an identity or a short object.
 */
const MAX_TRANSPARENCY_FIELD = 64 * 1024;

/** A receipt's kernel-lane and anchor-lane leaf hashes, in one 64-byte array (ReceiptEntry.leafHashes). */
function leafHashPair(full: Uint8Array, anchor: Uint8Array): Uint8Array {
  const pair = new Uint8Array(64);
  pair.set(leafHash(full), 0);
  pair.set(leafHash(anchor), 32);
  return pair;
}

export class RecordVerifier {
  /** `views`: also produce each receipt's display fields (ReceiptView). `families`: other runtimes' records to recognise and set aside. */
  constructor(
    private readonly trust: TrustStore,
    private readonly options: { views?: boolean; families?: readonly AuditedFamily[] } = {},
  ) {}

  /**
   * Verifies one record into `out`. The returned promises settle the async
   * checks (signatures) on entries already in `out`; never rejects on input.
   */
  verify(text: string, origin: RecordOrigin, order: number, out: RecordOutput): Promise<void>[] {
    const result = intakeRecord(text, origin.role, this.options.families);
    if (!result.ok) {
      const { issue } = result;
      const line = origin.line + issue.line - 1;
      out.problems.push(makeProblem(issue.code, `${issue.path}: ${issue.message}`, { file: origin.file, line }));
      return [];
    }
    for (const issue of result.issues ?? []) {
      out.problems.push(makeProblem(issue.code, `${issue.path}: ${issue.message}`, { file: origin.file, line: origin.line + issue.line - 1 }));
    }
    const pending: Promise<void>[] = [];
    const { items } = result;
    items.forEach((item, i) => {
      const located = { file: origin.file, line: origin.line, order: order + i };
      if (item.kind === 'bundle') {
        // Its receipts are the `items` right after it (intake.ts collectBundle).
        const from = order + i + 1;
        out.bundles.push(
          readBundleClaims(item.value, { space: origin.space, file: origin.file, line: origin.line, orderFrom: from, orderTo: from + (item.items ?? 0) }),
        );
        return;
      }
      const p = this.item(item, origin, located, out);
      if (p) pending.push(p);
    });
    return pending;
  }

  private item(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): Promise<void> | undefined {
    switch (item.kind) {
      case 'tool':
      case 'child':
      case 'http':
        return this.receipt(item, origin, located, out);
      case 'checkpoint':
        return this.checkpoint(item, origin, located, out);
      case 'proof': {
        const decoded = decodeInclusionProof(item.value, item.path);
        if (!decoded.ok) shapeProblem(decoded.issues, origin, out);
        // Literals, not spreads, here and below: a spread builds an object of a roomier shape (a
        // kept proof cost 640 bytes instead of 320), and a hostile log keeps millions of them.
        else out.proofs.push({ file: located.file, line: located.line, order: located.order, space: origin.space, proof: decoded.value });
        return undefined;
      }
      case 'publication':
      case 'witness':
      case 'consistency':
      case 'equivocation': {
        // Canonical text per field, so the record survives a structured clone intact. A record that
        // no honest producer writes (a consistency path longer than any tree, a field or key larger
        // than any honest one) keeps why it is refused and its other fields: never the large ones.
        let refused = item.kind === 'consistency' ? oversizedPath(item.value) : null;
        const fields: Record<string, string> = {};
        for (const [k, v] of item.value) {
          if (refused !== null && item.kind === 'consistency' && PATH_FIELDS.has(k)) continue;
          const text = k.length > MAX_TRANSPARENCY_FIELD ? '' : canonicalize(v);
          if (k.length > MAX_TRANSPARENCY_FIELD || text.length > MAX_TRANSPARENCY_FIELD) {
            refused ??= `its field ${JSON.stringify(k.slice(0, 80))}${k.length > 80 ? '…' : ''} is ${Math.max(k.length, text.length)} characters long; no field of an honest ${item.kind} record is over ${MAX_TRANSPARENCY_FIELD}`;
            continue;
          }
          fields[k] = text;
        }
        const t: TransparencyEntry = { file: located.file, line: located.line, order: located.order, space: origin.space, kind: item.kind, fields };
        if (refused !== null) t.refused = refused;
        out.transparency.push(t);
        return undefined;
      }
      case 'lineage':
        return this.lineage(item, origin, located, out);
      case 'export-problem':
        exportProblem(item, origin, out);
        return undefined;
      case 'bundle': // read in verify()
        return undefined;
      case 'family':
        // Kept as text that parses back to the same tree (numbers as written: ZeroClaw's MAC input depends on `1.0`).
        out.dialect.push({
          file: located.file,
          line: located.line,
          order: located.order,
          family: item.family!,
          kind: item.familyKind!,
          text: item.text ?? compactJson(item.value),
          path: item.path,
          space: origin.space,
        });
        return undefined;
    }
  }

  private receipt(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): Promise<void> | undefined {
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
    set('signer_trusted', this.trust.check(r.kernelKeyNormalized, r.timestamp), 'untrusted_signer');
    out.receipts.push(entry);
    if (this.options.views)
      out.views.push(receiptView(r, { order: located.order, file: located.file, line: located.line, ...(seq !== undefined ? { seq } : {}) }));
    return checkReceiptSignature(r, where, r.generation === 'B' ? undefined : anchorBytes).then((outcome) => {
      entry.checks.signature = outcome.check;
      out.problems.push(...outcome.problems);
    });
  }

  /** A capability-lineage row: the rules its own fields decide now, its token's signature once checked. */
  private lineage(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): Promise<void> | undefined {
    const local = origin.localStore === true;
    const decoded = decodeLineageRow(item.value, item.path, local);
    if (!decoded.ok) {
      shapeProblem(decoded.issues, origin, out);
      return undefined;
    }
    const row = decoded.row;
    const judged = judgeLineageRow(row, local);
    if (judged.context) return undefined;
    const entry: LineageEntry = {
      file: located.file,
      line: located.line,
      order: located.order,
      space: origin.space,
      capabilityId: own(row.capabilityId),
      provenance: row.provenance,
      subjectKey: row.subjectKey,
      issuerKey: row.issuerKey,
      failures: judged.failures,
    };
    out.lineage.push(entry);
    if (!judged.token) return undefined;
    return checkTokenSignature(judged.token).then((result) => {
      if (result.status === 'fail') addFailure(entry.failures, 'lineage_signature_invalid', result.detail);
      else if (result.status === 'skipped') entry.skipped = result.detail;
    });
  }

  private checkpoint(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): Promise<void> | undefined {
    const decoded = decodeCheckpoint(item.value, item.path);
    if (!decoded.ok) {
      shapeProblem(decoded.issues, origin, out);
      return undefined;
    }
    const decodedCp = decoded.value;
    // The body's canonical bytes, once: its digest (checkpoint_sha256, §16.2) and what is signed.
    // Only its typed fields are kept (CheckpointFacts): the parsed body and the record's text go.
    const signed = canonicalBytes(decodedCp.body);
    const cp = checkpointFacts(decodedCp, own);
    const entry: CheckpointEntry = {
      file: located.file,
      line: located.line,
      order: located.order,
      space: origin.space,
      cp,
      sha256: sha256Hex(signed),
      checks: {},
    };
    const where: ProblemLocation = { checkpoint_seq: cp.checkpointSeq, file: origin.file, line: origin.line };
    entry.checks.signer_trusted = this.trust.check(cp.kernelKeyNormalized, cp.issuedAt);
    if (entry.checks.signer_trusted.status === 'fail') {
      out.problems.push(makeProblem('untrusted_signer', `checkpoint ${cp.checkpointSeq}: ${entry.checks.signer_trusted.detail}`, where));
    }
    out.checkpoints.push(entry);
    return verifyChioSignature(decodedCp.kernelKey, decodedCp.signature, signed).then((res) => {
      if (res.status === 'pass') entry.checks.signature = pass();
      else if (res.status === 'skipped') entry.checks.signature = skipped('signature_not_checked', res.reason);
      else {
        entry.checks.signature = signatureFailure(res.reason, res.detail, { checkpointSeq: cp.checkpointSeq });
        out.problems.push(makeProblem('checkpoint_signature_invalid', entry.checks.signature.detail!, where));
      }
    });
  }
}

interface Located {
  file: string;
  line: number;
  order: number;
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

const EXPORT_TABLE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * A row the exporting server says it could not export: a `parse_error` at `<table>`, line = its
 * seq, so it is reported where a store's own unreadable row is (lib/sources/store.ts). The
 * server's words are a claim; they are clipped and shown as its message, never a verdict.
 */
function exportProblem(item: LogItem, origin: RecordOrigin, out: RecordOutput): void {
  const table = item.value.get('table');
  const seq = item.value.get('seq');
  const message = item.value.get('message');
  const n = isJsonNumber(seq) && seq.isIntegerLiteral && !seq.raw.startsWith('-') ? BigInt(seq.raw) : null;
  if (typeof table !== 'string' || !EXPORT_TABLE.test(table) || n === null || typeof message !== 'string') {
    shapeProblem([{ path: item.path, message: 'an export problem needs a table name, a non-negative integer seq and a message' }], origin, out);
    return;
  }
  const said = message.length > 300 ? `${message.slice(0, 299)}…` : message;
  const where: ProblemLocation = { file: table };
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) where.line = Number(n);
  out.problems.push(makeProblem('parse_error', `${table} seq ${n}: the server could not export this row (it says: ${said})`, where));
}

function shapeProblem(issues: { path: string; message: string }[], origin: RecordOrigin, out: RecordOutput, receiptId?: string): void {
  const text =
    issues
      .slice(0, 5)
      .map((i) => `${i.path}: ${i.message}`)
      .join('; ') + (issues.length > 5 ? `; and ${issues.length - 5} more` : '');
  const where: ProblemLocation = { file: origin.file, line: origin.line };
  if (receiptId !== undefined) where.receipt_id = receiptId;
  out.problems.push(makeProblem('parse_error', text, where));
}
