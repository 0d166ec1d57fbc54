import type { Metadata } from 'next';
import { ReceiptDetail } from '../../../components/receipt/receipt-detail';

export const metadata: Metadata = { title: 'Receipt · Receipt Audit' };

// One receipt of the open log, at a stable URL.
export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <main>
      <ReceiptDetail id={decodeURIComponent(id)} />
    </main>
  );
}
