// The report receipt and explorer row of another runtime's receipt (contract §8):
// its checks in report order (those that did not run are left out) and its
// verdict, the row without a policy hash or signing key (which these receipts do
// not have), for lib/dialects/zeroclaw/audit.ts and codewhale/audit.ts.
import { ALL_RECEIPT_CHECKS, type CheckResult, checksAndDetails } from '../verdict/check';
import type { ReceiptView } from '../verdict/receipt-view';
import type { DialectReceiptType, ReportReceipt, Verdict } from '../verdict/report';

/** The checks in report order (contract §8: those that did not run are left out), and the verdict. */
export function finish(
  type: DialectReceiptType,
  id: string,
  results: Partial<Record<string, CheckResult>>,
  where: { file: string; line: number },
  verified: (r: Partial<Record<string, CheckResult>>) => boolean,
): ReportReceipt {
  const ran = checksAndDetails(ALL_RECEIPT_CHECKS, results);
  const verdict: Verdict = Object.values(ran.checks).includes('fail') ? 'failed' : verified(results) ? 'verified' : 'unverified';
  return { id, type, verdict, ...ran, file: where.file, line: where.line };
}

/**
 * The explorer's row, at `order`: the order of the record it was found in (lib/verify spreads the
 * receipts one record holds over that order's interval). The readers leave these rows out by type.
 */
export function view(report: ReportReceipt, order: number, fields: Partial<ReceiptView>, time: number | null): ReceiptView {
  return { order, id: report.id, type: report.type, time, file: report.file, line: report.line, ...fields };
}

export const seconds = (iso: string): number | null => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
};
