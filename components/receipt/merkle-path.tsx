// The inclusion proof drawn from the leaf up: at each level the node so far
// and the sibling hashed in on its side, ending in the computed root beside
// the root the checkpoint signs. The path is the one the verifier walked.
import type { CheckpointFacts, MerklePath } from '../../lib/receipt/dossier';
import { formatTime } from '../explorer/format';
import { ScrollBox } from './scroll-box';

const short = (h: string) => (h.length > 20 ? `${h.slice(0, 12)}…${h.slice(-6)}` : h);

export function MerklePathView({ path, checkpoint }: { path: MerklePath; checkpoint?: CheckpointFacts }) {
  const levels = [...path.steps].reverse();
  return (
    <div data-testid="merkle-path" data-matches={String(path.matches)}>
      <p>
        Leaf {path.leafIndex} of {path.treeSize} in checkpoint {path.checkpointSeq}; {path.convention}.{' '}
        {path.matches ? (
          <strong className="good">The path reaches the signed root.</strong>
        ) : (
          <strong className="bad">The path does not reach the signed root{path.error ? `: ${path.error}` : ''}.</strong>
        )}
      </p>
      <ol className="merkle" reversed>
        <li className={`merkle-root ${path.matches ? 'ok' : 'bad'}`}>
          <span className="merkle-label">root</span>
          <code title={path.computedRoot ?? ''}>{path.computedRoot ? short(path.computedRoot) : 'not computable'}</code>
          <span className="merkle-eq">{path.matches ? '=' : '≠'}</span>
          <span className="merkle-label">signed in checkpoint {path.checkpointSeq}</span>
          <code title={path.signedRoot}>{short(path.signedRoot)}</code>
        </li>
        {levels.map((s) => {
          const sibling = (
            <code className="sibling" title={`sibling ${s.sibling}`}>
              {short(s.sibling)}
            </code>
          );
          const below = <span className="merkle-op">node from below</span>;
          return (
            <li key={s.level} className="merkle-step">
              <span className="merkle-label">level {s.level}</span>
              <span className="merkle-slot">{s.side === 'left' ? sibling : below}</span>
              <span className="merkle-slot">{s.side === 'left' ? below : sibling}</span>
              <span className="merkle-arrow">→</span>
              <code title={s.node}>{short(s.node)}</code>
            </li>
          );
        })}
        <li className="merkle-leaf">
          <span className="merkle-label">leaf</span>
          <code title={path.leaf}>{short(path.leaf)}</code>
          <span className="muted">SHA-256(0x00 ‖ canonical receipt)</span>
        </li>
      </ol>
      <p className="muted">
        Read from the leaf up: each level is SHA-256(0x01 ‖ left ‖ right) of the two hashes to its left, the proof&apos;s sibling (dashed) on its side (RFC
        6962). Hover a hash for all of it.
      </p>
      {checkpoint && (
        <ScrollBox label="The checkpoint">
          <table className="grid" data-testid="receipt-checkpoint">
            <tbody>
              <tr>
                <th scope="row">checkpoint</th>
                <td>
                  {checkpoint.seq} (batch {checkpoint.batch}, tree size {checkpoint.treeSize})
                </td>
              </tr>
              <tr>
                <th scope="row">schema</th>
                <td>
                  <code>{checkpoint.schema}</code>
                </td>
              </tr>
              <tr>
                <th scope="row">issued at</th>
                <td>
                  {formatTime(Number(checkpoint.issuedAt))} UTC ({checkpoint.issuedAt})
                </td>
              </tr>
              <tr>
                <th scope="row">signed by</th>
                <td>
                  <code>{checkpoint.kernelKey}</code>
                </td>
              </tr>
              <tr>
                <th scope="row">checkpoint SHA-256</th>
                <td>
                  <code className="hash">{checkpoint.sha256}</code>
                </td>
              </tr>
              {checkpoint.previous !== undefined && (
                <tr>
                  <th scope="row">previous checkpoint SHA-256</th>
                  <td>
                    <code className="hash">{checkpoint.previous}</code>
                  </td>
                </tr>
              )}
              {checkpoint.chainRoot !== undefined && (
                <tr>
                  <th scope="row">chain root</th>
                  <td>
                    <code className="hash">{checkpoint.chainRoot}</code>
                    <div className="muted">
                      Signed: the root over the chain leaves of checkpoints 1–{checkpoint.seq} (one per checkpoint: its seq, batch range and batch root), so
                      this checkpoint also commits to every one before it.
                    </div>
                  </td>
                </tr>
              )}
              {checkpoint.chainLeaf !== undefined && (
                <tr>
                  <th scope="row">its chain leaf</th>
                  <td>
                    <code className="hash">{checkpoint.chainLeaf}</code>
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </div>
  );
}
