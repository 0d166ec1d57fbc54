import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { LogProvider } from '../components/data/log-provider';
import { Nav } from '../components/nav';
import { LogBar } from '../components/log-bar';
import { QueryProvider } from '../components/data/query-provider';
import { ForkGate } from '../components/trust/fork-gate';
import './globals.css';

// Every page is rendered per request: proxy.ts gives each response a fresh CSP nonce, which
// Next puts on its scripts only while rendering (a page prerendered at build time has none).
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Receipt Audit',
  description: 'Verify signed AI-agent receipts in your own browser.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  // A fleet server (CLICKHOUSE_URL) opens the fleet's first page where others open their store.
  const fleetMode = Boolean(process.env.CLICKHOUSE_URL);
  return (
    <html lang="en">
      <body>
        {/* The first stop of the Tab key: past the navigation to the page's <main id="content"> (every page has one). */}
        <a className="skip-link" href="#content">
          Skip to content
        </a>
        <LogProvider fleet={fleetMode}>
          <QueryProvider>
            <Nav fleet={fleetMode} />
            <LogBar />
            <ForkGate />
            {children}
          </QueryProvider>
        </LogProvider>
      </body>
    </html>
  );
}
