// What the wrapper a receipt arrived in claimed (a chio-bridge outcome, an MCP
// tool result, possibly inside a Claude Code or Codex transcript), shown as
// claimed by the wrapper and never as a verdict (contract part 2 §1 principle
// 6); a success claim on a failed receipt is shown as contradicted by it.
// Presentational; the claims are attacker-controlled text.
import type { ReportEnvelope, ReportReceipt } from '../../lib/verdict/report';
import { claimsText, envelopeLabel, isContradicted } from '../../lib/verify/envelope-claims';
import { SafeText } from '../ui/safe-text';

const CLAIM_NAMES: [keyof ReportEnvelope, string][] = [
  ['state', 'state'],
  ['evidence', 'evidence'],
  ['output_kind', 'output kind'],
  ['decision', 'decision'],
];

export function EnvelopeClaims({ receipt }: { receipt: Pick<ReportReceipt, 'verdict' | 'envelope'> }) {
  const env = receipt.envelope;
  if (!env) return null;
  const claims = CLAIM_NAMES.filter(([key]) => env[key] !== undefined);
  return (
    <section data-testid="receipt-envelope" data-contradicted={isContradicted(receipt) ? 'true' : 'false'}>
      <h2>Envelope</h2>
      <p className="muted">
        This receipt arrived in <SafeText text={envelopeLabel(env)} max={120} />. The wrapper is not signed: what it says below is claimed by the wrapper, not
        verified. The verdict and the checks above are this page&apos;s own; content_hash and delivery check the wrapper&apos;s output and acknowledgement
        against the signed receipt.
      </p>
      {claims.length > 0 ? (
        <dl className="envelope-claims">
          {claims.map(([key, name]) => (
            <div key={key}>
              <dt>{name} (claimed)</dt>
              <dd>
                <code>
                  <SafeText text={String(env[key])} max={120} />
                </code>
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">The wrapper makes no claim.</p>
      )}
      {isContradicted(receipt) && (
        <p role="alert" className="banner bad" data-testid="receipt-envelope-contradicted">
          Contradicted by the verdict: the wrapper claims <SafeText text={claimsText(env)} max={200} />, but this receipt is <strong>failed</strong>.
        </p>
      )}
    </section>
  );
}
