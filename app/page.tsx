// Placeholder home page (server-rendered). The audit dashboard replaces it in a later step.
export default function HomePage() {
  return (
    <main>
      <h1 data-testid="app-title">Receipt Audit</h1>
      <p>
        Receipt Audit verifies signed AI-agent tool-call receipts (Chio) in your own browser and on
        the command line.
      </p>
      <p>
        <a href="/selftest">Check this browser</a>: run every Ed25519 and Chio vector here, through the same verification code.
      </p>
      <p className="muted">The audit dashboard lands here in a later step.</p>
    </main>
  );
}
