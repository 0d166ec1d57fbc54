import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { LogProvider } from '../components/data/log-provider';
import { Nav } from '../components/nav';
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
  return (
    <html lang="en">
      <body>
        <LogProvider>
          <Nav />
          <ForkGate />
          {children}
        </LogProvider>
      </body>
    </html>
  );
}
