// What the per-record half of verification (contract §5) produces for the
// whole-log half: where a record came from (`RecordOrigin`) and what its items
// gave (`RecordOutput`), shared by RecordVerifier, the families that check
// records one by one (checked-family.ts), the workers' wire form and
// LogAssembler. Structured-clone safe: plain objects, bigint, Uint8Array.
import type { DialectItem } from '../verdict/family';
import type { Problem } from '../verdict/problems';
import type { ReceiptView } from '../verdict/receipt-view';
import type { BundleClaims } from './bundle-claims';
import type { CheckpointEntry, LineageEntry, ProofEntry, ReceiptEntry, TransparencyEntry } from './entries';
import type { RecordRole } from './intake';

/** Where one record came from. */
export interface RecordOrigin {
  /** Display path of the file (relative to its package), or `store.sqlite3#table`. */
  file: string;
  /** 1-based line (or row) where the record starts. */
  line: number;
  role: RecordRole;
  /** Seq space: one per source (package, store, or the loose files given together). */
  space: string;
  /** For store rows: the row's seq, when the record itself has no wrapper. */
  seq?: bigint;
  /** The position checkpoints cover (store: claim log entry_seq). Defaults to the wrapper seq of tool receipts. */
  logSeq?: bigint;
  /** A row of the local SQLite store's `capability_lineage`, where `legacy_projection` is allowed (format §16.9). */
  localStore?: boolean;
}

/** What one or more records produced, for LogAssembler. */
export interface RecordOutput {
  receipts: ReceiptEntry[];
  /** Display fields per receipt, when the verifier was asked for them (the browser's explorer). */
  views: ReceiptView[];
  checkpoints: CheckpointEntry[];
  proofs: ProofEntry[];
  transparency: TransparencyEntry[];
  /** Capability-lineage rows with their `lineage` check (contract part 2 §5.3.1). */
  lineage: LineageEntry[];
  /** Records of other runtimes' families (ZeroClaw, CodeWhale), audited once the whole log is in (lib/verdict/family.ts). */
  dialect: DialectItem[];
  /** Export bundles' own claims (uncheckpointedReceipts, query), judged once proofs are matched (bundle-claims.ts). */
  bundles: BundleClaims[];
  problems: Problem[];
  /**
   * Set by packHashes: the one buffer every hash above is a view of. Once the
   * output is taken in (LogAssembler copies what it keeps), the log worker frees
   * it at once rather than leaving it to the garbage collector.
   */
  hashes?: ArrayBuffer;
}

export function emptyOutput(): RecordOutput {
  return { receipts: [], views: [], checkpoints: [], proofs: [], transparency: [], lineage: [], dialect: [], bundles: [], problems: [] };
}

/** Items of one record get orders `order`, `order + 1`, … (a record expands to at most this many). */
export const ORDER_STRIDE = 1_000_000;

/**
 * Once a batch's checks are done: marks the views of receipts a check of the
 * record itself failed, so the page shows them failed while the log is still
 * being read.
 */
export function markFailedViews(out: RecordOutput): void {
  if (out.views.length === 0) return;
  // Paired by order: the log assembler may have taken envelope receipts' views out already.
  const failed = new Set<number>();
  for (const r of out.receipts) if (Object.values(r.checks).some((c) => c?.status === 'fail')) failed.add(r.order);
  for (const v of out.views) if (failed.has(v.order)) v.failedEarly = true;
}

/**
 * A copy of `s` that holds no reference to the text it was parsed from. V8 keeps a substring of
 * 13 or more characters as a slice of its parent, so an id kept in an entry would keep the whole
 * record's text alive (about 2 KB a receipt, in-process in the CLI).
 */
export function own(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
