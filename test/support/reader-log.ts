// Test-only: a log verified the way the command line does it (same sources,
// same core), with the explorer's RowStore built from the records' display
// fields and given the report's verdicts, as the page ends up with. Reader
// view aggregations are tested on this against the CLI report.
import { loadPaths } from '../../bin/cli/main';
import { RowStore } from '../../lib/query/row-store';
import { TrustStore } from '../../lib/trust/trust-store';
import type { VerificationReport } from '../../lib/verdict/report';
import type { ReceiptView } from '../../lib/verdict/receipt-view';

export async function verifiedLog(paths: string[], trustKeys: string[] = []): Promise<{ store: RowStore; report: VerificationReport }> {
  const views: ReceiptView[] = [];
  const trust = TrustStore.create(trustKeys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const verifier = await loadPaths(paths, trust.store, (v) => views.push(...v));
  const report = await verifier.finish();
  const store = new RowStore();
  store.append(views);
  store.applyReport(report);
  return { store, report };
}
