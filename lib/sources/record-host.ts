// After a log is verified, the receipt page asks for one receipt again, with
// the checkpoint that covers it and its inclusion proof: a ReceiptBundle. The
// host keeps the opened sources (package folders, loose files, SQLite stores)
// and finds the record where the report says it is (file and line), so no
// record text is held in memory for the whole log. Stores keep no proofs: the
// proof is computed from the checkpoint's batch, and the bundle says so. The
// bundle is verified again by whoever reads it; nothing here is trusted.
import { DIALECT_FAMILIES } from '../dialects/families';
import { type JsonObject, type JsonValue, isJsonNumber, isJsonObject } from '../json/value';
import { canonicalBytes, canonicalize } from '../json/canonicalize';
import { decodeInclusionProof } from '../chio/checkpoint';
import { decodeToolReceipt } from '../chio/tool-receipt';
import { leafHash, verifyInclusion } from '../merkle';
import type { BundleRole, ReceiptBundle } from './receipt-bundle';
import { type ItemKind, type LogItem, type RecordRole, intakeRecord } from '../verify/intake';
import { type SourceDir, type SourceFile, roleForFileName } from './package';
import { splitRecords } from './records';
import { type ChioStoreReader, type CheckpointRow, type ClaimLogRow, isRowError } from './sqlite-rows';
import { type CoverageOrder, batchLeaves, checkpointRecordText, coverageOrder, inclusionProofText } from './store';

export interface BundleQuery {
  id: string;
  /** The report's file and line for the receipt. */
  file: string;
  line: number;
  /**
   * The source it was read from, as named when it was added: two sources can hold the same file
   * name and line (two packages both have `receipts.ndjson`), and a forged copy of a receipt must
   * never be answered with the genuine one's bytes. Without it, the first source that has the
   * record answers.
   */
  source?: string;
}

export type BundleAnswer = { ok: true; bundle: ReceiptBundle; note?: string } | { ok: false; message: string };

/** What a store's bundles need beyond the receipt itself, read on the first request. */
interface StoreContext {
  claimLog: ClaimLogRow[];
  checkpoints: CheckpointRow[];
  order: CoverageOrder;
}

/** `source`: the name of the source it belongs to (LogSink.beginSource), when the caller names them. */
type Held = { source?: string } /** The listing is read on the first request (loading the log already listed the folder once). */ & (
  | { kind: 'package'; dir: SourceDir; names?: Promise<Set<string>> }
  | { kind: 'file'; file: SourceFile; name: string }
  | { kind: 'store'; name: string; store: ChioStoreReader; context?: StoreContext }
);

interface Found {
  item: LogItem;
  /** The record's own text when it is exactly this item, else the item re-serialized. */
  text: string;
  whole: boolean;
}

const RECEIPT_KINDS: readonly ItemKind[] = ['tool', 'child', 'http'];

export class RecordHost {
  private readonly held: Held[] = [];

  constructor(private readonly sourceLabel: string) {}

  /** `source`: the name of the source it belongs to, as the rows name it (bundles then name it as their origin). */
  addPackage(dir: SourceDir, source?: string): void {
    this.held.push({ kind: 'package', dir, ...(source !== undefined ? { source } : {}) });
  }

  addFile(file: SourceFile, name: string, source?: string): void {
    this.held.push({ kind: 'file', file, name, ...(source !== undefined ? { source } : {}) });
  }

  /** Keeps the store open until close(). */
  addStore(name: string, store: ChioStoreReader, source?: string): void {
    this.held.push({ kind: 'store', name, store, ...(source !== undefined ? { source } : {}) });
  }

  close(): void {
    for (const h of this.held) if (h.kind === 'store') h.store.close();
    this.held.length = 0;
  }

  async bundle(q: BundleQuery): Promise<BundleAnswer> {
    for (const h of this.held) {
      if (q.source !== undefined && h.source !== undefined && h.source !== q.source) continue;
      const label = h.source ?? this.sourceLabel;
      if (h.kind === 'store') {
        if (q.file.startsWith(`${h.name}#`)) {
          const answer = storeBundle(h, q, label);
          if (answer) return answer;
        }
        continue;
      }
      const file = h.kind === 'package' ? ((await listing(h)).has(q.file) ? h.dir.open(q.file) : null) : h.name === q.file ? h.file : null;
      if (!file) continue;
      const found = await findRecord(file, roleForFileName(q.file), q.line, (it) => it.value.get('id') === q.id && RECEIPT_KINDS.includes(it.kind));
      if (!found) continue;
      const role = found.item.kind as BundleRole;
      const bundle: ReceiptBundle = { v: 1, role, receipt: found.text, origin: { source: label, file: q.file, line: q.line } };
      if (found.item.seq !== undefined && !found.whole) bundle.logSeq = found.item.seq.toString();
      const logSeq = found.item.seq;
      if (logSeq !== undefined && role === 'tool') await this.attachProof(h, bundle, logSeq);
      else if (logSeq === undefined && role === 'tool' && h.kind === 'file') await this.attachProofByLeaf(bundle, found.item.value);
      return { ok: true, bundle, ...(found.whole ? {} : { note: 'extracted from a larger record of the source; shown re-serialized (canonical)' }) };
    }
    return {
      ok: false,
      message: `${q.file}:${q.line}${q.source !== undefined ? ` in ${q.source}` : ''} no longer holds receipt ${q.id} in the opened sources`,
    };
  }

  /**
   * A receipt that came with no seq (a loose `receipt.json`): the proof among the loose files whose
   * path takes this receipt's leaf to the root it names (contract part 2 §5.2: matched by leaf), and
   * the checkpoint with that seq and root. The verifier decides; this only finds the records.
   */
  private async attachProofByLeaf(bundle: ReceiptBundle, receipt: JsonObject): Promise<void> {
    const decoded = decodeToolReceipt(receipt);
    if (!decoded.ok) return;
    const leaf = leafHash(canonicalBytes(decoded.value.fullTyped));
    const reaches = (it: LogItem): boolean => {
      if (it.kind !== 'proof') return false;
      const p = decodeInclusionProof(it.value);
      if (!p.ok || p.value.merkleRoot === null || p.value.auditPath.some((x) => x === null) || p.value.treeSize > BigInt(Number.MAX_SAFE_INTEGER)) return false;
      return verifyInclusion(Number(p.value.leafIndex), Number(p.value.treeSize), leaf, p.value.auditPath as Uint8Array[], p.value.merkleRoot).ok;
    };
    const files = this.held.flatMap((o) => (o.kind === 'file' ? [[o.file, roleForFileName(o.name)] as const] : []));
    let proof: Found | null = null;
    for (const [f, role] of files) {
      if (role !== 'proof' && role !== 'auto') continue;
      proof = await findRecord(f, role, null, reaches, '"receipt_seq"');
      if (proof) break;
    }
    if (!proof) return;
    bundle.proof = proof.text;
    const cpSeq = u64(proof.item.value.get('checkpoint_seq'));
    const norm = (v: JsonValue | undefined) => (typeof v === 'string' ? v.replace(/^0[xX]/, '').toLowerCase() : null);
    const root = norm(proof.item.value.get('merkle_root'));
    for (const [f, role] of files) {
      if (role !== 'checkpoint' && role !== 'auto') continue;
      const named = (it: LogItem) =>
        it.kind === 'checkpoint' &&
        isJsonObject(it.value.get('body')) &&
        u64((it.value.get('body') as JsonObject).get('checkpoint_seq')) === cpSeq &&
        root !== null &&
        norm((it.value.get('body') as JsonObject).get('merkle_root')) === root;
      const cp = await findRecord(f, role, null, named, cpSeq !== undefined ? `"checkpoint_seq":${cpSeq}` : undefined);
      if (cp) {
        bundle.checkpoint = cp.text;
        return;
      }
    }
  }

  /** The proof for `logSeq` and its checkpoint, from the package's files (or, for loose files, from any loose file). */
  private async attachProof(h: Held, bundle: ReceiptBundle, logSeq: bigint): Promise<void> {
    const files: [SourceFile, RecordRole][] = [];
    if (h.kind === 'package') {
      const names = await listing(h);
      for (const name of ['inclusion-proofs.ndjson', 'checkpoints.ndjson']) if (names.has(name)) files.push([h.dir.open(name)!, roleForFileName(name)]);
    } else {
      for (const o of this.held) if (o.kind === 'file') files.push([o.file, roleForFileName(o.name)]);
    }
    let proof: Found | null = null;
    for (const [f, role] of files) {
      if (role !== 'proof' && role !== 'auto') continue;
      proof = await findRecord(f, role, null, (it) => it.kind === 'proof' && u64(it.value.get('receipt_seq')) === logSeq, `"receipt_seq":${logSeq}`);
      if (proof) break;
    }
    let cpSeq: bigint | undefined;
    if (proof) {
      bundle.proof = proof.text;
      cpSeq = u64(proof.item.value.get('checkpoint_seq'));
    }
    for (const [f, role] of files) {
      if (role !== 'checkpoint' && role !== 'auto') continue;
      const covers = (it: LogItem) => {
        if (it.kind !== 'checkpoint') return false;
        const body = it.value.get('body');
        if (!isJsonObject(body)) return false;
        if (cpSeq !== undefined) return u64(body.get('checkpoint_seq')) === cpSeq;
        const start = u64(body.get('batch_start_seq'));
        const end = u64(body.get('batch_end_seq'));
        return start !== undefined && end !== undefined && start <= logSeq && logSeq <= end;
      };
      const cp = await findRecord(f, role, null, covers, cpSeq !== undefined ? `"checkpoint_seq":${cpSeq}` : undefined);
      if (cp) {
        bundle.checkpoint = cp.text;
        break;
      }
    }
  }
}

function listing(h: Extract<Held, { kind: 'package' }>): Promise<Set<string>> {
  h.names ??= h.dir.list().then((names) => new Set(names));
  return h.names;
}

function u64(v: JsonValue | undefined): bigint | undefined {
  return isJsonNumber(v) ? (v.toBigInt() ?? undefined) : undefined;
}

/**
 * Streams a file's records and returns the first item `match` accepts, at
 * `line` when given. `hint` is a substring every matching record contains in
 * the usual compact form; records without it are skipped unparsed (a fast path
 * only: a record written differently is still parsed when the hint is absent).
 */
async function findRecord(file: SourceFile, role: RecordRole, line: number | null, match: (it: LogItem) => boolean, hint?: string): Promise<Found | null> {
  const tryText = (text: string): Found | null => {
    const r = intakeRecord(text, role, DIALECT_FAMILIES);
    if (!r.ok) return null;
    const item = r.items.find(match);
    if (!item) return null;
    // The record is the receipt itself (or its `{seq, receipt}` wrapper) only when the item is at the
    // top: a receipt read out of an envelope (a transcript line, a bridge outcome) is taken alone.
    const whole = r.items.length === 1 && (item.path === '$' || (item.path === '$.receipt' && item.seq !== undefined));
    return { item, text: whole ? text : canonicalize(item.value), whole };
  };
  let hinted: Found | null = null;
  const unhinted: string[] = [];
  for await (const ev of splitRecords(file.name, file.stream())) {
    if (ev.kind !== 'record') continue;
    if (line !== null) {
      if (ev.line === line) return tryText(ev.text);
      if (ev.line > line) return null;
      continue;
    }
    if (hint === undefined || ev.text.replace(/\s+/g, '').includes(hint)) {
      hinted = tryText(ev.text);
      if (hinted) return hinted;
    } else if (unhinted.length < 64) {
      unhinted.push(ev.text);
    }
  }
  // A hint can miss a record written with other spacing or number forms: parse what was skipped (bounded).
  for (const t of unhinted) {
    const f = tryText(t);
    if (f) return f;
  }
  return null;
}

/** A store receipt with its checkpoint and a proof computed from the checkpoint's batch. */
function storeBundle(h: Extract<Held, { kind: 'store' }>, q: BundleQuery, sourceLabel: string): BundleAnswer | null {
  const { store, name } = h;
  const table = q.file.slice(name.length + 1);
  const origin = { source: sourceLabel, file: q.file, line: q.line };
  if (table === 'http_receipts') {
    let index = 0;
    for (const row of store.httpReceipts()) {
      index++;
      if (index === q.line && !isRowError(row)) return { ok: true, bundle: { v: 1, role: 'http', receipt: row.receiptJson, origin } };
    }
    return null;
  }
  const role = table === 'chio_tool_receipts' ? 'tool' : table === 'chio_child_receipts' ? 'child' : null;
  if (!role) return null;
  let raw: string | undefined;
  for (const row of role === 'tool' ? store.toolReceipts() : store.childReceipts()) {
    if (isRowError(row) || row.seq !== q.line || row.receiptId !== q.id) continue;
    raw = row.rawJson;
    break;
  }
  if (raw === undefined) return null;
  const bundle: ReceiptBundle = { v: 1, role, receipt: raw, origin };
  const { claimLog, checkpoints, order } = (h.context ??= storeContext(store));
  const claimKind = role === 'tool' ? 'tool_receipt' : 'child_receipt';
  const logSeq =
    order === 'tool-seq' ? (role === 'tool' ? q.line : undefined) : claimLog.find((e) => e.receiptKind === claimKind && e.receiptId === q.id)?.entrySeq;
  if (logSeq === undefined) return { ok: true, bundle, note: 'this store does not checkpoint child receipts' };
  bundle.logSeq = String(logSeq);
  const cp = checkpoints.find((c) => c.batchStartSeq <= logSeq && logSeq <= c.batchEndSeq);
  if (!cp) return { ok: true, bundle, note: 'no checkpoint covers this receipt yet (the uncheckpointed tail)' };
  bundle.checkpoint = checkpointRecordText(cp);
  const proof = inclusionProofText(cp, logSeq, logSeq - cp.batchStartSeq, batchLeaves(store, claimLog, cp, order));
  if (!proof) return { ok: true, bundle, note: `the store lacks a readable receipt of checkpoint ${cp.checkpointSeq}'s batch, so no proof can be computed` };
  bundle.proof = proof;
  return {
    ok: true,
    bundle,
    note: "this store keeps no inclusion proofs: the proof was computed from the checkpoint's batch in the store, and is checked against the signed root like any other",
  };
}

function storeContext(store: ChioStoreReader): StoreContext {
  const claimLog: ClaimLogRow[] = [];
  for (const row of store.claimLog()) if (!isRowError(row)) claimLog.push(row);
  const checkpoints: CheckpointRow[] = [];
  for (const row of store.checkpoints()) if (!isRowError(row)) checkpoints.push(row);
  return { claimLog, checkpoints, order: coverageOrder(store, claimLog, checkpoints) };
}
