// A real package's records through RecordVerifier alone (the per-record half of
// verification), as one verify worker would answer for them: for tests of what
// travels from the verify workers to the log worker.
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import { nodeDir } from '../../bin/cli/node-source';
import { loadPackage } from '../../lib/sources/package';
import { TrustStore } from '../../lib/trust/trust-store';
import type { LogSink } from '../../lib/verify/log-sink';
import { recordVerifier } from '../../lib/verify/record-checker';
import { ORDER_STRIDE, type RecordOutput, emptyOutput } from '../../lib/verify/record-output';

/** A real package's records checked, every check settled, as one verify worker's output. */
export async function verifiedOutput(dir: string): Promise<RecordOutput> {
  const verifier = recordVerifier(TrustStore.empty(), { families: DIALECT_FAMILIES });
  const out = emptyOutput();
  const pending: Promise<void>[] = [];
  let order = 0;
  const sink: LogSink = {
    addRecord: async (text, origin) => void pending.push(...verifier.verify(text, origin, order++ * ORDER_STRIDE, out)),
    addProblem: () => undefined,
    addPackage: () => undefined,
    setSpaceNote: () => undefined,
  };
  await loadPackage(nodeDir(dir, dir), sink, 'p');
  await Promise.all(pending);
  return out;
}
