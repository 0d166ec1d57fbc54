// Receipt families whose records are checked one by one as they stream in
// (issue 22): Chio's (chio-records.ts). The third kind of ../verdict/family.ts's
// `ReceiptFamily`, beside the `AuditedFamily` (ZeroClaw, CodeWhale) whose
// records are set aside until the whole log is in. Declared here, not in
// lib/verdict, because a checked family writes this room's entries
// (RecordOutput) and checks signers against the trust store (lib/trust).
// RecordVerifier reaches the family only through this interface: it hands it
// every item intake typed as the family's, in any number of workers.
import type { TrustStore } from '../trust/trust-store';
import type { ReceiptFamily } from '../verdict/family';
import type { Located } from './entries';
import type { LogItem } from './intake';
import type { RecordOrigin, RecordOutput } from './record-output';

/** What a checked family is built with, once per verifier (one a worker). */
export interface CheckedFamilyContext {
  /** The pinned keys `signer_trusted` is checked against. */
  trust: TrustStore;
  /** Also produce each receipt's display fields (ReceiptView), for the page's rows. */
  views: boolean;
}

/** A family whose records are decoded and checked one by one as they arrive. */
export interface CheckedFamily extends ReceiptFamily {
  /**
   * Checks one item of a record (any kind but `bundle` and `family`, which the verifier takes)
   * into `out`. The returned promise settles the async checks (signatures) of entries already in
   * `out`; nothing here throws or rejects on input. Called once per item: no work per item
   * beyond the checks themselves.
   */
  check(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): Promise<void> | undefined;
}

/** How a checked family is built with its context. */
export type CheckedFamilyFactory = (context: CheckedFamilyContext) => CheckedFamily;
