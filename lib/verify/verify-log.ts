// One log's verification as a list of calls (contract §5–§9), the shape of
// sigstore-js's verifier: load the sources into the orchestrator (whose checker
// checks each record as it arrives, inline or in workers), then assemble the whole
// log and build the report. The command line and the page's log worker both run it.
import { sha256Ready } from '../crypto/sha256';
import type { LogSink } from './log-sink';
import type { LogVerifier } from './log-verifier';
import type { ReportReceipt, VerificationReport } from '../verdict/report';

/** Reads a log's sources into `sink`: lib/sources/load-sources.ts, given the platform's inputs. */
export type LoadSources = (sink: LogSink) => Promise<void>;

export async function verifyLog(log: LogVerifier, loadSources: LoadSources, onReceipt?: (r: ReportReceipt) => void): Promise<VerificationReport> {
  try {
    await sha256Ready(); // the WebAssembly SHA-256, before the first record
    await loadSources(log); // each record is checked as it arrives
    return await log.finish(onReceipt); // every check settled; the whole log assembled; the report
  } finally {
    log.close(); // the workers stop, whether the log verified or a source failed
  }
}
