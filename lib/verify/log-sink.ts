// What source loaders feed: records and loader-level facts. LogVerifier (one
// thread) and the browser's worker pool both implement it, so packages, files
// and stores are read by the same code everywhere.
import type { Problem } from './problems';
import type { RecordOrigin } from './record-verifier';
import type { PackageReport } from './report';

export interface LogSink {
  /** One record's text. Awaiting it applies backpressure. */
  addRecord(text: string, origin: RecordOrigin): Promise<void>;
  /** A problem found by a loader (unreadable line, oversized record, bad row). */
  addProblem(problem: Problem): void;
  /** A package's `manifest` check. */
  addPackage(pkg: PackageReport & { space: string }, problems: Problem[]): void;
  /** The manifest's `uncheckpointedReceipts` for `space`. */
  expectUnprovenToolReceipts(space: string, count: bigint): void;
  /** How a source's checkpoints cover its receipts. */
  setSpaceNote(space: string, note: string): void;
}
