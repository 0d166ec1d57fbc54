// Test support: verifies a handful of records as one log, the way the CLI would, with the
// forge's kernel key pinned by default (a receipt is `verified` only under a pinned key,
// contract part 2 §11). Pass `[]` to verify with nothing pinned. Other runtimes' records are
// read with the families the CLI reads them with (lib/dialects/families.ts).
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import { TrustStore } from '../../lib/trust/trust-store';
import type { RecordRole } from '../../lib/verify/intake';
import { LogVerifier, type RecordOrigin } from '../../lib/verify/log-verifier';
import type { VerificationReport } from '../../lib/verdict/report';
import { keyFromSeed } from './forge';

export interface Rec {
  value?: unknown;
  role?: RecordRole;
  seq?: number;
  /** The line as written, instead of `value` serialized. */
  raw?: string;
  file?: string;
}

/** keyFromSeed(7): the key goodLog and genAReceipt sign with unless told otherwise. */
export const FORGE_KEY = keyFromSeed(7).publicHex;

export async function verifyRecords(records: Rec[], trustKeys: string[] = [FORGE_KEY], options: { allowUnpinned?: boolean } = {}): Promise<VerificationReport> {
  const trust = TrustStore.create(trustKeys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store, allowUnpinned: options.allowUnpinned === true, families: DIALECT_FAMILIES });
  for (const [i, r] of records.entries()) {
    const text = r.raw ?? JSON.stringify(r.seq !== undefined ? { seq: r.seq, receipt: r.value } : r.value);
    const origin: RecordOrigin = { file: r.file ?? 'log.ndjson', line: i + 1, role: r.role ?? 'auto', space: 's' };
    await v.addRecord(text, origin);
  }
  return v.finish();
}

/** A verifier with `trustKeys` pinned (the forge's key by default), for tests that feed it themselves. */
export function pinnedVerifier(trustKeys: string[] = [FORGE_KEY]): LogVerifier {
  const trust = TrustStore.create(trustKeys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  return new LogVerifier({ trust: trust.store, families: DIALECT_FAMILIES });
}

/** A trust store with `trustKeys` pinned (the forge's key by default). */
export function pinnedTrust(trustKeys: string[] = [FORGE_KEY]): TrustStore {
  const trust = TrustStore.create(trustKeys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  return trust.store;
}
