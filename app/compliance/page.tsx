import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ComplianceView } from '../../components/readers/compliance/compliance-view';

export const metadata: Metadata = { title: 'Compliance · Receipt Audit' };

// Which policy was in force when, what checkpoints cover, how receipts were produced and who
// signed them, for a time range and policy in the URL; the page prints as the compliance report.
export default function CompliancePage() {
  return (
    <main id="content" tabIndex={-1} className="wide compliance-page">
      <h1>Compliance</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <ComplianceView />
      </Suspense>
    </main>
  );
}
