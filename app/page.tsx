import { LogWorkspace } from '../components/overview/log-workspace';

// Home: the server's receipt store (the demo log by default), verified in this browser.
export default function HomePage() {
  return (
    <main id="content" tabIndex={-1}>
      <h1 data-testid="app-title">Receipt Audit</h1>
      <p>
        Receipt Audit verifies signed AI-agent tool-call receipts (Chio) in your own browser and on the command line. It opens this server&apos;s receipt log by
        default, fetched as raw bytes and verified here, in Web Workers: signatures, hashes, Merkle inclusion and checkpoints. Open your own log below. ZeroClaw
        and CodeWhale receipts load beside Chio&apos;s, each checked for what it can prove.
      </p>
      <LogWorkspace />
      <p className="muted">
        <a href="/selftest">Check this browser</a> against every Ed25519 and Chio vector (both signature engines).
      </p>
    </main>
  );
}
