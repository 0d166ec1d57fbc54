// What the explorer shows of a receipt, one row per receipt (its columns and
// filters): plain strings and numbers (clone-cheap), amounts as decimal strings,
// never floats. These are the receipt's *claims*: its verdict says whether they
// are signed and intact. Built for Chio's receipts by lib/verify/receipt-view.ts
// and for other runtimes' by their families (lib/dialects).
import type { ReportReceiptType } from './report';

export interface ReceiptView {
  order: number;
  id: string;
  type: ReportReceiptType;
  generation?: 'A' | 'B';
  seq?: string;
  /** Unix seconds (null when beyond what a JS number holds exactly). */
  time: number | null;
  toolServer?: string;
  toolName?: string;
  /** Tool: allow/deny/cancelled/incomplete (absent for trace/advisory); child: its terminal state; HTTP: its verdict. */
  decision?: string;
  /** The guard that blocked a denied call. */
  guard?: string;
  /** Tool: the guard evidence in evaluation order, `name:pass|fail,…` (lib/verify/guard-trail.ts). */
  guards?: string;
  /** Tool: the first guard whose evidence failed (the blocking one on a denial; the would-deny one on an advisory receipt). */
  guardFailed?: string;
  reason?: string;
  capabilityId?: string;
  /** Absent for other runtimes' receipts, which carry no policy. */
  policyHash?: string;
  trustLevel?: string;
  receiptKind?: string;
  /** Gen B: what the kernel could enforce (`prevent`, `detect_only`, `advisory_only`). */
  boundaryClass?: string;
  tenant?: string;
  /** Financial claims, as decimal strings in minor units. */
  cost?: string;
  attemptedCost?: string;
  currency?: string;
  settlement?: string;
  /** metadata.financial: the budget this receipt draws on (decimal strings; amounts in minor units). */
  rootBudgetHolder?: string;
  grantIndex?: string;
  budgetTotal?: string;
  budgetRemaining?: string;
  paymentReference?: string;
  /** metadata.financial.oracle_evidence as JSON text (lib/readers/finance.ts decodes it), or `{"error":…}` when malformed. */
  oracle?: string;
  /** Request tree links (child receipts; tool receipts through governed call-chain metadata). */
  sessionId?: string;
  requestId?: string;
  parentRequestId?: string;
  parentReceiptId?: string;
  operationKind?: string;
  /** Null, or absent for other runtimes' receipts, when there is no signing key. */
  kernelKey?: string | null;
  file: string;
  line: number;
  /**
   * The source the receipt was read from, when the log's sources are named (LogSink.beginSource):
   * set by the assembler, not the verify worker. With file and line, the receipt's address.
   */
  source?: string;
  /** Set by the verify worker when a check of the record itself failed (the verdict is `failed` whatever the log adds). */
  failedEarly?: true;
}
