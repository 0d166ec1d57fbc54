'use client';
// A fork against a checkpoint this browser remembers blocks the app: a modal
// alert dialog (the rest of the page is inert behind it, on every route) shows
// both checkpoint digests and must be acknowledged before the log's verdicts
// can be browsed. Escape does not dismiss it. Acknowledged once per load; the
// overview keeps the fork banner and the log's status is not ok.
import { useEffect, useRef, useState } from 'react';
import type { Continuity } from '../data/use-checkpoint-memory';
import { useSession } from '../data/log-contexts';
import { useCheckpoints } from '../data/checkpoint-memory-provider';
import { ForkDetails, RollbackDetails, forksOf } from '../overview/checkpoint-continuity';

export function ForkGate() {
  const { session } = useSession();
  const { continuity } = useCheckpoints();
  const [acknowledged, setAcknowledged] = useState<Continuity | null>(null);
  if (session.status !== 'done' || continuity === null || continuity.load !== session.verifiedCheckpoints || acknowledged === continuity) return null;
  const forks = forksOf(continuity.outcomes);
  if (forks.length === 0) return null;
  return <ForkDialog forks={forks} label={session.label} onAcknowledge={() => setAcknowledged(continuity)} />;
}

function ForkDialog({ forks, label, onAcknowledge }: { forks: ReturnType<typeof forksOf>; label: string; onAcknowledge: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="fork-dialog-title"
      className="fork-dialog"
      data-testid="fork-dialog"
      onCancel={(e) => e.preventDefault()}
    >
      <h1 id="fork-dialog-title">Stop: this load ({label}) contradicts what this browser verified before</h1>
      {forks.map((o) =>
        o.kind === 'fork' ? (
          <section key={o.key} data-testid="fork-dialog-fork" data-key={o.key} data-seq={String(o.seq)} data-how={o.how}>
            <ForkDetails o={o} />
          </section>
        ) : (
          <section key={o.key} data-testid="fork-dialog-rollback" data-key={o.key} data-seq={String(o.remembered.checkpointSeq)}>
            <RollbackDetails o={o} />
          </section>
        ),
      )}
      <p>
        The verdicts of this load are not shown until you acknowledge this. Its status stays “{forks.some((o) => o.kind === 'fork') ? 'fork' : 'rollback'}”, not
        ok.
      </p>
      {/* biome-ignore lint/a11y/noAutofocus: a modal alert dialog (the page behind is inert) whose only action is this button: focus belongs on it (WAI-ARIA alertdialog pattern) */}
      <button type="button" className="button" data-testid="fork-acknowledge" autoFocus onClick={onAcknowledge}>
        I understand: show this load&apos;s verdicts anyway
      </button>
    </dialog>
  );
}
