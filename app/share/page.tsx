import type { Metadata } from 'next';
import { SharedReceipt } from '../../components/receipt/shared-receipt';

export const metadata: Metadata = { title: 'Shared receipt · Receipt Audit' };

// A receipt shared as a self-contained link: everything is in the URL fragment,
// which the browser never sends here; this page only serves the code.
export default function SharePage() {
  return (
    <main id="content" tabIndex={-1}>
      <SharedReceipt />
    </main>
  );
}
