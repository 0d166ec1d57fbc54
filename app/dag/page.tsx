import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DagView } from '../../components/readers/dag/dag-view';

export const metadata: Metadata = { title: 'DAG · Receipt Audit' };

// How one agent session's requests fanned out: child receipts and tool calls as a graph.
export default function DagPage() {
  return (
    <main id="content" tabIndex={-1} className="wide">
      <h1>How requests fanned out</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <DagView />
      </Suspense>
    </main>
  );
}
