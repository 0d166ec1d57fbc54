'use client';
// Verification progress: records read and verified, the rate, time left, and Cancel.
import type { Progress } from '../../lib/workers/protocol';
import { SafeText } from '../ui/safe-text';

function left(p: Progress): string | null {
  if (p.bytesTotal === null || p.bytesRead === 0 || p.elapsedMs === 0) return null;
  const rate = p.bytesRead / p.elapsedMs;
  const ms = (p.bytesTotal - p.bytesRead) / rate;
  return ms < 1000 ? 'under a second left' : `about ${Math.ceil(ms / 1000)} s left`;
}

export function VerifyProgress({ label, progress, rows, onCancel }: { label: string; progress: Progress | null; rows: number; onCancel: () => void }) {
  const p = progress;
  const fraction = p?.bytesTotal ? Math.min(1, p.bytesRead / p.bytesTotal) : null;
  const rate = p && p.elapsedMs > 0 ? Math.round((p.recordsVerified / p.elapsedMs) * 1000) : 0;
  const eta = p ? left(p) : null;
  return (
    <section className="progress" data-testid="verify-progress" aria-live="polite">
      <p>
        Verifying <SafeText text={label} max={120} /> in this browser{p ? ` with ${p.workers} worker${p.workers === 1 ? '' : 's'}` : ''}…
      </p>
      <progress max={1} value={fraction ?? undefined} aria-label="verification progress" />
      <p className="muted">
        {p
          ? `${p.recordsRead.toLocaleString('en-US')} records read, ${p.recordsVerified.toLocaleString('en-US')} verified (${rate.toLocaleString('en-US')}/s)`
          : 'starting…'}
        {` · ${rows.toLocaleString('en-US')} receipts so far`}
        {eta ? ` · ${eta}` : ''}
        {p?.phase === 'assembling' ? ' · checking checkpoints, inclusion and budgets' : ''}
      </p>
      <button type="button" className="button" onClick={onCancel} data-testid="cancel-verify">
        Cancel
      </button>
    </section>
  );
}
