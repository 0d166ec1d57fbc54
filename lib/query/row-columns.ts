// The explorer's row columns and row states (./row-store.ts): the string columns held as
// dictionary codes, and the verdict each row shows, with what the page calls it. Pure.
import { type ReportReceipt, isIntactUnpinned } from '../verdict/report';

/** Columns held as dictionary codes (0 = absent). */
export const STRING_COLUMNS = [
  'id',
  'type',
  'generation',
  'toolServer',
  'toolName',
  'decision',
  'guard',
  'reason',
  'capabilityId',
  'policyHash',
  'trustLevel',
  'receiptKind',
  'tenant',
  'currency',
  'settlement',
  'sessionId',
  'requestId',
  'parentRequestId',
  'parentReceiptId',
  'operationKind',
  'kernelKey',
  'file',
  'cost',
  'attemptedCost',
  'seq',
  'rootBudgetHolder',
  'grantIndex',
  'budgetTotal',
  'budgetRemaining',
  'paymentReference',
  'oracle',
  'guards',
  'guardFailed',
  'boundaryClass',
  'source',
] as const;
export type StringColumn = (typeof STRING_COLUMNS)[number];

/**
 * A row's state. `unpinned`: the report's `unverified` for a Chio receipt that nothing failed and
 * that a pinned key would make `verified` (contract part 2 §11): its own state, never shown in
 * the words or the colour of `verified`.
 */
export const VERDICTS = ['pending', 'verified', 'failed', 'unverified', 'unpinned'] as const;
export type RowVerdict = (typeof VERDICTS)[number];
/** What the page calls each state. */
export const VERDICT_LABEL: Record<RowVerdict, string> = {
  pending: 'pending',
  verified: 'verified',
  failed: 'failed',
  unverified: 'unverified',
  unpinned: 'intact, signer not pinned',
};
/** The row state of a report receipt. */
export const rowVerdictOf = (r: ReportReceipt): RowVerdict => (isIntactUnpinned(r) ? 'unpinned' : r.verdict);
