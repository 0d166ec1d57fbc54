// Chio as a checked receipt family (checked-family.ts; chio-format.md §4–§9,
// v2 §16): each of Chio's records decoded and checked as it streams in, from
// its own bytes alone, in any number of workers. Receipts are chio-receipts.ts;
// here are the rest: checkpoints (signature, trusted signer), inclusion proofs
// and transparency records (kept for the whole-log checks), capability-lineage
// rows (the rules their own fields decide, their token's signature), and rows
// the exporting server could not export. The whole-log half is LogAssembler's.
import { canonicalBytes, canonicalize } from '../json/canonicalize';
import { checkpointFacts, decodeCheckpoint, decodeInclusionProof } from '../chio/checkpoint';
import { oversizedPath } from '../chio/consistency-proof';
import { chioFamily } from '../chio/family';
import { decodeLineageRow } from '../chio/lineage-row';
import { verifyChioSignature } from '../crypto/chio-signature';
import { sha256Hex } from '../crypto/sha256';
import { isJsonNumber } from '../json/value';
import { pass, skipped } from '../verdict/check';
import { type ProblemLocation, makeProblem } from '../verdict/problems';
import type { CheckedFamily, CheckedFamilyContext, CheckedFamilyFactory } from './checked-family';
import { checkReceipt, shapeProblem } from './chio-receipts';
import type { CheckpointEntry, LineageEntry, Located, TransparencyEntry } from './entries';
import type { LogItem } from './intake';
import { addFailure, checkTokenSignature, judgeLineageRow } from './lineage';
import { signatureFailure } from './receipt-checks';
import { type RecordOrigin, type RecordOutput, own } from './record-output';

/** The fields of a consistency record that hold paths of hashes. */
const PATH_FIELDS = new Set(['chain_proof_hashes', 'from_leaf_inclusion', 'to_leaf_inclusion']);

/**
 * The longest field (canonical text) or key a transparency record may have. The longest honest
 * field is a consistency record's path, 64 hashes (about 4.4 KB); every other is a number, a
 * digest, an identity or a short object.
 */
const MAX_TRANSPARENCY_FIELD = 64 * 1024;

/** Chio's checked family, built once per verifier with its trust store and whether rows are wanted. */
export const chioRecords: CheckedFamilyFactory = (context) => new ChioRecords(context);

class ChioRecords implements CheckedFamily {
  readonly name = chioFamily.name;
  readonly recognise = chioFamily.recognise;

  constructor(private readonly context: CheckedFamilyContext) {}

  check(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): Promise<void> | undefined {
    switch (item.kind) {
      case 'tool':
      case 'child':
      case 'http':
        return checkReceipt(item, origin, located, out, this.context);
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
      case 'bundle': // RecordVerifier's own: bundle claims, and records set aside for other families
      case 'family':
        return undefined;
    }
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
    entry.checks.signer_trusted = this.context.trust.check(cp.kernelKeyNormalized, cp.issuedAt);
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
