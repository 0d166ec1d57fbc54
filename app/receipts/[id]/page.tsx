import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ReceiptDetail } from '../../../components/receipt/receipt-detail';

export const metadata: Metadata = { title: 'Receipt · Receipt Audit' };

// One receipt of the open log, at a stable URL (the copy by ?file=&line=, its log by ?source=).
export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main id="content" tabIndex={-1}>
      <Suspense fallback={<p>Loading…</p>}>
        <ReceiptDetail id={decodeURIComponent(id)} />
      </Suspense>
    </main>
  );
}
