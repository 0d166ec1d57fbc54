import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FleetView } from '../../components/fleet/fleet-view';

export const metadata: Metadata = { title: 'Fleet · Receipt Audit' };

// Many kernels' receipts in a ClickHouse cluster (CLICKHOUSE_URL): the index finds and counts,
// this browser verifies each page it shows. The search is the URL (the API's query string).
export default function FleetPage() {
  return (
    <main id="content" tabIndex={-1} className="wide">
      <h1>Fleet</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <FleetView />
      </Suspense>
    </main>
  );
}
