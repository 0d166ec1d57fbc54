import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FinanceReader } from '../../components/readers/finance/finance-reader';

export const metadata: Metadata = { title: 'Finance · Receipt Audit' };

// Spend, budgets, settlement, denials and conversions of the open log, from its verified receipts.
export default function FinancePage() {
  return (
    <main id="content" tabIndex={-1} className="wide">
      <h1>Finance</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <FinanceReader />
      </Suspense>
    </main>
  );
}
