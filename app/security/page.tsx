import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SecurityView } from '../../components/readers/security/security-view';

export const metadata: Metadata = { title: 'Security · Receipt Audit' };

// What the guards blocked, by whom and when, and what failed verification; the view's state is the URL.
export default function SecurityPage() {
  return (
    <main id="content" tabIndex={-1} className="wide">
      <h1>Security</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <SecurityView />
      </Suspense>
    </main>
  );
}
