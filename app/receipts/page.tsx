import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReceiptExplorer } from '../../components/explorer/receipt-explorer';

export const metadata: Metadata = { title: 'Receipts · Receipt Audit' };

// Every receipt of the open log, filterable by any field; the filter is the URL.
export default function ReceiptsPage() {
  return (
    <main id="content" tabIndex={-1} className="wide">
      <h1>Receipts</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <ReceiptExplorer />
      </Suspense>
    </main>
  );
}
