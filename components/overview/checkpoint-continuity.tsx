'use client';
// Whether this load continues the checkpoints this browser verified before,
// per kernel key: a fork or a rollback (part 2 §12) is a loud alert, an unconnected load an
// amber warning, a continuation one quiet line. Presentational; every value from the
// log (keys, digests, file names) is rendered as text.
import type { ContinuityOutcome, ForkSide, RememberedCheckpoint } from '../../lib/trust/checkpoint-memory';
import { SafeText } from '../ui/safe-text';

export const formatSeenAt = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

// The source is a file name or a server: text from outside, revealed.
const seen = (r: RememberedCheckpoint) => (
  <>
    seen on {formatSeenAt(r.seenAtMs)} from <SafeText text={r.source} max={120} />
  </>
);

export function CheckpointContinuity({ outcomes }: { outcomes: ContinuityOutcome[] }) {
  if (outcomes.length === 0) return null;
  return (
    <section className="continuity" aria-label="Checkpoint continuity with earlier loads">
      {outcomes.map((o) => (
        <Outcome key={o.key} o={o} />
      ))}
    </section>
  );
}

function Outcome({ o }: { o: ContinuityOutcome }) {
  switch (o.kind) {
    case 'fork':
      return <ForkWarning o={o} />;
    case 'rollback':
      return (
        <div role="alert" className="banner fork" data-testid="rollback-warning" data-kind="rollback" data-key={o.key}>
          <RollbackDetails o={o} />
        </div>
      );
    case 'unconnected':
      return (
        <div role="status" className="banner warn" data-testid="checkpoint-warning" data-kind="unconnected" data-key={o.key}>
          <strong>Cannot be tied to what this browser verified before.</strong> Kernel key <code>{o.key}</code>: checkpoint {String(o.remembered.checkpointSeq)}{' '}
          was verified, {seen(o.remembered)}, but {o.reason}. This load may continue that log or fork it; open a load that includes checkpoint{' '}
          {String(o.remembered.checkpointSeq)} or the one after it to know.
        </div>
      );
    case 'continues':
      return (
        <p className="muted" data-testid="checkpoint-continues" data-key={o.key}>
          Kernel key <code>{o.key}</code>: continues checkpoint {String(o.remembered.checkpointSeq)} {seen(o.remembered)}
          {o.head.checkpointSeq > o.remembered.checkpointSeq ? `; now remembered up to checkpoint ${o.head.checkpointSeq}` : ''}.
        </p>
      );
    case 'new':
      return (
        <p className="muted" data-testid="checkpoint-new" data-key={o.key}>
          Kernel key <code>{o.key}</code>: first seen in this browser; checkpoint {String(o.head.checkpointSeq)} is remembered, and later loads must continue
          it.
        </p>
      );
  }
}

const HOW: Record<Fork['how'], (seq: bigint) => string> = {
  same_seq: (seq) => `This load holds a different checkpoint ${seq}, validly signed by the same key.`,
  previous_link: (seq) => `This load's checkpoint ${seq + 1n}, validly signed by the same key, names a different checkpoint ${seq} as its predecessor.`,
  predecessor: (seq) => `The remembered checkpoint ${seq + 1n} names a different checkpoint ${seq} as its predecessor than the one in this load.`,
  within_load: (seq) => `This load itself holds two different checkpoints ${seq}, both validly signed by the same key.`,
  chain_mismatch: (seq) =>
    `This load's checkpoint ${seq}, validly signed by the same key, signs a chain_root that does not extend the chain of checkpoints remembered here: its history before the remembered checkpoint was rewritten.`,
  unproven_extension: (seq) =>
    `This load's checkpoint ${seq} (v2, validly signed by the same key) comes after the remembered one, but nothing in this load proves that its chain extends the remembered chain: neither the whole chain from checkpoint 1 nor the checkpoints right after the remembered one are here. A log that only serves its newest checkpoints cannot show that it did not rewrite earlier ones.`,
};

type Fork = Extract<ContinuityOutcome, { kind: 'fork' }>;
type Rollback = Extract<ContinuityOutcome, { kind: 'rollback' }>;

/** The outcomes of a finished load that block it: forks and rollbacks (the dialog's and the overview's, part 2 §12). */
export const forksOf = (outcomes: readonly ContinuityOutcome[]): (Fork | Rollback)[] =>
  outcomes.filter((o): o is Fork | Rollback => o.kind === 'fork' || o.kind === 'rollback');

/** A rollback (part 2 §12): the log comes without the checkpoints this browser verified before. */
export function RollbackDetails({ o }: { o: Rollback }) {
  const r = o.remembered;
  return (
    <>
      <h2>Rollback: this log stops before checkpoint {String(r.checkpointSeq)}, which this browser verified</h2>
      <p>
        Kernel key <code>{o.key}</code> signed this log, and checkpoint {String(r.checkpointSeq)} (receipts up to seq {String(r.batchEndSeq)}) was verified,{' '}
        {seen(r)}.{' '}
        {o.head === null
          ? 'This load brings no verified checkpoint of that key at all.'
          : `This load's newest verified checkpoint of that key is ${o.head.checkpointSeq}.`}{' '}
        {o.head !== null && o.predecessor === 'matches'
          ? `Its checkpoint ${o.head.checkpointSeq} is the one the remembered checkpoint names as its predecessor. `
          : ''}
      </p>
      <p>
        <strong>What it means:</strong> someone is serving an earlier state of the log, or left its checkpoints out, so receipts that a signed checkpoint
        covered can be changed, removed or shown as an unchecked tail. Open a log that includes checkpoint {String(r.checkpointSeq)} or a later one. This
        browser still remembers checkpoint {String(r.checkpointSeq)} ({r.sha256.slice(0, 16)}…); it is not replaced by this load.
      </p>
    </>
  );
}

function ForkWarning({ o }: { o: Fork }) {
  return (
    <div role="alert" className="banner fork" data-testid="fork-warning" data-how={o.how} data-key={o.key} data-seq={String(o.seq)}>
      <ForkDetails o={o} />
    </div>
  );
}

/** One fork: both checkpoint digests at the seq, where each comes from, and what it means. */
export function ForkDetails({ o }: { o: Fork }) {
  const side = (s: ForkSide) =>
    s.seenAtMs !== undefined ? (
      <>
        seen on {formatSeenAt(s.seenAtMs)} from <SafeText text={s.source} max={120} />
      </>
    ) : (
      <>
        in <SafeText text={s.source} max={120} />
      </>
    );
  const inLoad = o.how === 'within_load';
  return (
    <>
      <h2>
        {o.how === 'unproven_extension'
          ? `Unproven: checkpoint ${String(o.seq)} may not extend the history this browser verified`
          : `Fork: this log has two different histories at checkpoint ${String(o.seq)}`}
      </h2>
      <p>
        Kernel key <code>{o.key}</code>. {HOW[o.how](o.seq)}
      </p>
      <dl className="fork-sides">
        <dt>{inLoad ? 'One' : 'Verified before'}</dt>
        <dd>
          <code data-testid="fork-known">{o.known.sha256}</code> <span>{side(o.known)}</span>
        </dd>
        <dt>{inLoad ? 'The other' : 'This load'}</dt>
        <dd>
          <code data-testid="fork-found">{o.found.sha256}</code> <span>{side(o.found)}</span>
        </dd>
      </dl>
      <p>
        {o.how === 'unproven_extension' ? (
          <>
            <strong>What it means:</strong> this load may be an honest continuation that only carries its newest checkpoints, or a history rewritten before
            them; from this load alone the two cannot be told apart. Open the whole log (from checkpoint 1), or one that holds the checkpoint right after the
            remembered one, to settle it.
          </>
        ) : (
          <>
            <strong>What it means:</strong> either the kernel that holds this key signed two different histories of the same log (an equivocation: receipts can
            have been rewritten or hidden, and this kernel&apos;s checkpoints prove nothing until you know why), or someone is serving you a different log than
            the one this browser verified before. Do not rely on either copy until that is explained.
          </>
        )}
        {o.remembered
          ? ` This browser still remembers checkpoint ${o.remembered.checkpointSeq} (${o.remembered.sha256.slice(0, 16)}…); it is not replaced by this load.`
          : ''}
      </p>
    </>
  );
}
