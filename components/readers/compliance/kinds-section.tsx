'use client';
// How the receipts were produced: trust levels (did the kernel decide, only
// observe, or only advise?) and Gen B receipt kinds with their boundary
// class (chio-format.md §5), each with its meaning in plain words and a link
// to exactly the receipts it counts.
import Link from 'next/link';
import { type ComplianceSelection, type TrustAndKinds, explorerLink } from '../../../lib/readers/compliance';

const fmt = (n: number) => n.toLocaleString('en-US');

const TRUST_MEANING: Record<string, string> = {
  mediated: 'The kernel stood between the agent and the tool and decided the call before it ran.',
  verified: 'The kernel did not decide; it observed the call and verified what it saw.',
  advisory: 'The kernel only evaluated the call and gave advice; it could not stop it.',
  '': 'Child requests and HTTP receipts carry no trust level.',
};

const KIND_MEANING: Record<string, string> = {
  'mediated_decision/prevent': 'Decided before the call ran: a denial prevented it.',
  'trace_observation/detect_only': 'Recorded after the fact: a problem could be detected, not prevented.',
  'advisory_evaluation/advisory_only': 'Evaluated for advice only: a “deny” here did not stop the call.',
};

function Bar({ n, of }: { n: number; of: number }) {
  return (
    <span className="bar" aria-hidden="true">
      <span style={{ width: `${of === 0 ? 0 : Math.max(1, (100 * n) / of)}%` }} />
    </span>
  );
}

export function KindsSection({ kinds, total, selection }: { kinds: TrustAndKinds; total: number; selection: ComplianceSelection }) {
  const { generations } = kinds;
  return (
    <section className="report-section" aria-labelledby="kinds-heading" data-testid="kinds-section">
      <h2 id="kinds-heading">How the receipts were produced</h2>
      <p className="lede">
        Whether the kernel could enforce its policy on a call, or only watch or advise. Of {fmt(total)} verified receipts, {fmt(generations.A)} come from Gen A
        kernels, {fmt(generations.B)} from Gen B kernels (which state a kind and a boundary)
        {generations.none > 0 ? `, and ${fmt(generations.none)} are child or HTTP receipts` : ''}.
      </p>
      <h3>Trust levels</h3>
      {kinds.trustLevels.length === 0 ? (
        <p className="muted">No verified receipt in this selection.</p>
      ) : (
        <table className="grid compact meaning" data-testid="trust-levels">
          <thead>
            <tr>
              <th scope="col">trust level</th>
              <th scope="col" className="num">
                verified receipts
              </th>
              <th scope="col">share</th>
              <th scope="col">what it means</th>
            </tr>
          </thead>
          <tbody>
            {kinds.trustLevels.map((t) => (
              <tr key={t.value} data-value={t.value} data-count={t.count}>
                <th scope="row">{t.value === '' ? <span className="muted">none</span> : <code>{t.value}</code>}</th>
                <td className="num">
                  <Link href={explorerLink(selection, t.value === '' ? { type: ['child', 'http'] } : { trustLevel: [t.value] })}>{fmt(t.count)}</Link>
                </td>
                <td>
                  <Bar n={t.count} of={total} />
                </td>
                <td>{TRUST_MEANING[t.value] ?? 'A trust level this page does not know.'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Gen B kinds and boundaries</h3>
      {kinds.kinds.length === 0 ? (
        <p className="muted" data-testid="kinds-none">
          No Gen B receipt in this selection: Gen A receipts carry no kind or boundary (their trust level above says how they were produced).
        </p>
      ) : (
        <table className="grid compact meaning" data-testid="gen-b-kinds">
          <thead>
            <tr>
              <th scope="col">kind</th>
              <th scope="col">boundary</th>
              <th scope="col">trust level</th>
              <th scope="col" className="num">
                verified receipts
              </th>
              <th scope="col">what it means</th>
            </tr>
          </thead>
          <tbody>
            {kinds.kinds.map((k) => (
              <tr key={`${k.kind}/${k.boundary}/${k.trustLevel}`} data-kind={k.kind} data-boundary={k.boundary} data-count={k.count}>
                <th scope="row">
                  <code>{k.kind}</code>
                </th>
                <td>
                  <code>{k.boundary}</code>
                </td>
                <td>
                  <code>{k.trustLevel}</code>
                </td>
                <td className="num">
                  <Link href={explorerLink(selection, { receiptKind: [k.kind], boundaryClass: [k.boundary], trustLevel: [k.trustLevel] })}>{fmt(k.count)}</Link>
                </td>
                <td>{KIND_MEANING[`${k.kind}/${k.boundary}`] ?? 'A combination this page does not know.'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
