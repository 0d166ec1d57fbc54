// What source loaders feed: records and loader-level facts. LogVerifier (one
// thread) and the browser's worker pool both implement it, so packages, files
// and stores are read by the same code everywhere.
import type { Problem } from './problems';
import type { RecordOrigin } from './record-verifier';
import type { PackageReport } from './report';

/** A record's bytes in a Blob: `start` to `end` decode (UTF-8) to exactly its text. */
export interface RecordBytes {
  blob: Blob;
  start: number;
  end: number;
}

export interface LogSink {
  /**
   * One record's text. Awaiting it applies backpressure. `at`: where the text's UTF-8 bytes can
   * be read again, so that the browser's verify workers read them there rather than receive the
   * text in a message (Chromium keeps a message's bytes until a full garbage collection).
   */
  addRecord(text: string, origin: RecordOrigin, at?: RecordBytes): Promise<void>;
  /** A problem found by a loader (unreadable line, oversized record, bad row). */
  addProblem(problem: Problem): void;
  /** A package's `manifest` check. */
  addPackage(pkg: PackageReport & { space: string }, problems: Problem[]): void;
  /** The manifest's `uncheckpointedReceipts` for `space`. */
  expectUnprovenToolReceipts(space: string, count: bigint): void;
  /** How a source's checkpoints cover its receipts. */
  setSpaceNote(space: string, note: string): void;
}
