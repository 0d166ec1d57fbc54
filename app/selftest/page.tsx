import type { Metadata } from 'next';
import { EngineSelfTest } from '../../components/selftest/engine-self-test';

export const metadata: Metadata = { title: 'Browser self-test · Receipt Audit' };

// Runs the upstream signature vectors in this browser, through the same lib/ code the verifier uses.
export default function SelfTestPage() {
  return (
    <main id="content" tabIndex={-1}>
      <h1>Browser self-test</h1>
      <p className="muted">
        Every Ed25519 vector (RFC 8032, Wycheproof, speccheck, ZIP-215, SUPERCOP) and Chio&apos;s own receipt vectors, verified here in your browser with each
        available engine. Both engines must give every vector its expected verdict, and each other&apos;s.
      </p>
      <EngineSelfTest />
    </main>
  );
}
