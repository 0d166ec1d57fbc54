// What source loaders feed: records and loader-level facts. LogVerifier, the one
// orchestrator, implements it whichever way its records are checked (inline or
// in workers), so packages, files and stores are read by the same code everywhere.
import type { Problem } from '../verdict/problems';
import type { RecordOrigin } from './record-output';
import type { PackageClaims } from './package-claims';
import type { PackageReport } from '../verdict/report';

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
  /**
   * A package's checks as far as its manifest and query decide them, and `claims`: what the
   * manifest and query say about the receipts of `space`, judged once every receipt settled.
   */
  addPackage(pkg: LoadedPackage, problems: Problem[]): void;
  /** How a source's checkpoints cover its receipts. */
  setSpaceNote(space: string, note: string): void;
  /**
   * The records added from now on come from the source `name` (a package folder or URL, a file, a
   * store), until the next call: problems name it, and the page addresses receipts by it
   * (source-names.ts). Optional: a log whose sources are not named is still verified.
   */
  beginSource?(name: string): void;
}

/** A package as its loader reports it: the report so far, its seq space, and its claims. */
export type LoadedPackage = PackageReport & { space: string; claims?: PackageClaims };
