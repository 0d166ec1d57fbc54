import type { Metadata } from 'next';
import { TrustManager } from '../../components/trust/trust-manager';

export const metadata: Metadata = { title: 'Trust · Receipt Audit' };

// Pinned kernel keys: which signers this browser trusts, and when.
export default function TrustPage() {
  return (
    <main id="content" tabIndex={-1}>
      <h1>Trusted kernel keys</h1>
      <p>
        A valid signature shows only that a log is self-consistent. Pin the kernel keys you know belong to the kernels you audit (obtained out of band, not from
        the log itself): receipts and checkpoints signed by any other key, or outside a key&apos;s validity window, then fail <code>signer_trusted</code>. Keys
        are kept in this browser only.
      </p>
      <TrustManager />
    </main>
  );
}
