// Messages between the page, the log worker (reads sources, assembles the log)
// and the verify workers (check records). Everything here survives a
// structured clone: plain objects, bigint, Uint8Array, File.
import type { RecordOrigin } from '../verify/record-output';
import type { RowDelta } from '../query/row-encoder';
import type { VerificationReport } from '../verdict/report';
import type { ReceiptColumns } from '../verify/receipt-columns';
import type { VerifiedCheckpoint } from '../trust/verified-checkpoint';
import type { PinnedKey } from '../trust/trust-store';
import type { RememberedBatch } from '../verify/inclusion';

/** A remembered checkpoint's batch, with the key that signed it. */
export type RememberedBatchOf = RememberedBatch & { key: string };
import type { BundleAnswer, BundleQuery } from '../sources/record-host';
import type { LineageSet } from '../sources/lineage';
import type { WireBatch, WireOutput } from './wire';

/** A source the page opens: files the user picked or dropped (with folder paths), a URL, or this server's store. */
export type LogSource =
  | { kind: 'files'; files: { file: File; path: string }[] }
  | { kind: 'url'; url: string }
  | { kind: 'server' }
  /** A page of this server's fleet (CLICKHOUSE_URL): `query` is the /v1/receipts/query string (filters, cursor, limit). */
  | { kind: 'fleet'; query: string };

/** What a fleet page said about itself: index figures, not verified ones. */
export interface FleetPageInfo {
  /** The index's count of receipts matching the filters (decimal). */
  totalCount: string;
  nextCursor: string | null;
  /** Receipts on this page, and how many each kernel's log holds of them ('' for receipts no kernel group claimed). */
  receipts: number;
  kernels: { kernelKey: string; receipts: number }[];
}

/**
 * A log's sources for people. `count` (the page's label): "3 files". `names`
 * (where a load or a shared receipt came from, read later or elsewhere): the
 * picked files' top folders or names; with `server` given, this server's log
 * is named by that address rather than "this server's receipt store".
 */
export function describeSources(sources: readonly LogSource[], detail: { files: 'count' | 'names'; server?: string } = { files: 'count' }): string {
  return sources
    .map((s) => {
      if (s.kind === 'server') return detail.server ?? "this server's receipt store";
      if (s.kind === 'url') return s.url;
      if (s.kind === 'fleet') return `this server's fleet${s.query ? ` (${s.query})` : ''}`;
      if (detail.files === 'count') return `${s.files.length} file${s.files.length === 1 ? '' : 's'}`;
      const names = [...new Set(s.files.map((f) => f.path.split('/')[0] || f.file.name))];
      return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
    })
    .join(' + ');
}

export interface RecordTask {
  /** The record's text; empty when `at` says where its bytes are instead (in the batch's blob). */
  text: string;
  origin: RecordOrigin;
  order: number;
  at?: { start: number; end: number };
}

/** Batches and their outputs travel in the compact form of ./wire.ts. */
/**
 * `views`: also produce each receipt's row (the page wants them; the command line does not).
 * `families`: the names of the receipt families the log is read with, in the orchestrator's order.
 */
export type VerifyRequest = { type: 'init'; trust: PinnedKey[]; views?: boolean; families?: string[] } | { type: 'batch'; id: number; records: WireBatch };
export type VerifyResponse = { type: 'result'; id: number; output: WireOutput } | { type: 'error'; id: number; message: string };

export interface Progress {
  /** Bytes read from the sources so far, and in all (when known). */
  bytesRead: number;
  bytesTotal: number | null;
  /** Records handed to the verify workers, and records whose checks came back. */
  recordsRead: number;
  recordsVerified: number;
  workers: number;
  elapsedMs: number;
  phase: 'reading' | 'assembling' | 'done';
}

export type LogRequest =
  /**
   * `serverToken`: the bearer token for this server's /v1 API, sent only with the `server`
   * source's requests (same origin by construction), never with a URL source's. It is not part
   * of `LogSource`, so it never reaches a share link, a label or the stored last source.
   */
  /** `remembered`: the checkpoints this browser verified in earlier loads, per kernel key (part 2 §12). */
  | { type: 'open'; sources: LogSource[]; trust: PinnedKey[]; serverToken?: string; dialect?: DialectInputs; remembered?: RememberedBatchOf[] }
  | { type: 'cancel' }
  /** After `done`: one receipt again, with its checkpoint and proof. */
  | { type: 'bundle'; req: number; query: BundleQuery };

/**
 * What the user supplies for other runtimes' receipts, kept in the page's memory only (never in a
 * URL, a share link or storage): ZeroClaw's HMAC key, and the diff CodeWhale review receipts are
 * checked against (`maxChars`: the `--max-chars` the review ran with, default 200,000).
 */
export interface DialectInputs {
  hmacKey?: Uint8Array;
  diff?: { name: string; data: Blob; maxChars?: number };
}

/** A ZeroClaw or CodeWhale receipt's labelled facts, for its page (they are not in the report). */
export interface DialectFacts {
  id: string;
  type: string;
  /** Where the receipt was read (two receipts can share an id). */
  file: string;
  line: number;
  facts: [string, string][];
}

export type LogEvent =
  | { type: 'progress'; progress: Progress }
  /** The receipts read since the last event, as explorer rows (typed arrays, transferred). */
  | { type: 'rows'; delta: RowDelta }
  /** `report.receipts` is empty here: the receipts travel as `receipts` columns (see receipt-columns.ts). */
  /**
   * `lineage`: the capability lineage the sources carried. Unsigned context,
   * not part of the report (which stays the command line's, byte for byte).
   */
  | {
      type: 'done';
      report: VerificationReport;
      receipts: ReceiptColumns;
      progress: Progress;
      verifiedCheckpoints: VerifiedCheckpoint[];
      lineage: LineageSet;
      dialectFacts: DialectFacts[];
    }
  | { type: 'error'; message: string }
  /** A fleet page was read: its index figures (sent before its receipts are verified). */
  | { type: 'fleet'; page: FleetPageInfo }
  /** This server's API answered 401: a token is needed (`tokenSent` false) or the one sent was refused. */
  | { type: 'unauthorized'; tokenSent: boolean }
  | { type: 'bundle'; req: number; answer: BundleAnswer };
