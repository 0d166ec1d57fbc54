'use client';
// The checkpoints this browser remembers, one per kernel key: the head a later
// load of that log must continue. Forgetting a key makes its next load "new"
// (trusted on first sight again), so it is the user's explicit act.
import type { RememberedCheckpoint } from '../../lib/trust/checkpoint-memory';
import { formatSeenAt } from '../overview/checkpoint-continuity';
import { SafeText } from '../ui/safe-text';

export function RememberedCheckpoints({
  remembered,
  issues,
  onForget,
}: {
  remembered: RememberedCheckpoint[];
  issues: string[];
  onForget: (key: string) => void;
}) {
  return (
    <section className="remembered">
      <h2>Remembered checkpoints ({remembered.length})</h2>
      <p className="muted">
        For each kernel key, the highest checkpoint verified in this browser. A later load of that log must contain it or link to it; a different checkpoint at
        the same place is reported as a fork. Forget a key only when you know why its log changed: its next load is then trusted as new.
      </p>
      {issues.length > 0 && (
        <p role="status" className="banner warn">
          Some stored entries could not be read and are ignored: <SafeText text={issues.join('; ')} max={400} />.
        </p>
      )}
      {remembered.length === 0 ? (
        <p className="muted">None yet: open a log with checkpoints.</p>
      ) : (
        <table className="grid" data-testid="remembered-checkpoints">
          <thead>
            <tr>
              <th scope="col">kernel key</th>
              <th scope="col">checkpoint</th>
              <th scope="col">batch</th>
              <th scope="col">checkpoint_sha256 / merkle root</th>
              <th scope="col">seen</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {remembered.map((r) => (
              <tr key={r.key} data-key={r.key}>
                <td>
                  <code>
                    <SafeText text={r.key} max={140} />
                  </code>
                </td>
                <td className="num">{String(r.checkpointSeq)}</td>
                <td className="num">
                  {String(r.batchStartSeq)}–{String(r.batchEndSeq)}
                </td>
                <td>
                  <code>{r.sha256}</code>
                  <br />
                  <code className="muted">0x{r.merkleRootHex}</code>
                </td>
                <td>
                  {formatSeenAt(r.seenAtMs)}
                  <br />
                  <span className="muted">
                    <SafeText text={r.source} max={120} />
                  </span>
                </td>
                <td>
                  <button type="button" className="button" aria-label={`Forget the checkpoint of ${r.key}`} onClick={() => onForget(r.key)}>
                    Forget
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
