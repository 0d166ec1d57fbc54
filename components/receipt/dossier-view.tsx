// The receipt laid open (lib/receipt/dossier): decision and guard evidence,
// parameters, every hash with its recomputation, financial and Gen B fields,
// the Merkle path to the signed checkpoint, each field and whether it is
// signed, and the signed and raw bytes. Every value from the receipt is a
// React text node: escaped, never HTML, never a link target.
import type { Dossier, FinancialLine } from '../../lib/receipt/dossier';
import { currencyDecimals, formatMinor } from '../../lib/finance/money';
import { visibleText } from '../../lib/json/pretty';
import { MerklePathView } from './merkle-path';
import { SafeText } from '../ui/safe-text';
import { ScrollBox } from './scroll-box';

function Pairs({ rows, testId }: { rows: [string, string][]; testId?: string }) {
  return (
    <table className="grid" data-testid={testId}>
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">
              <SafeText text={k} max={120} />
            </th>
            <td>
              <SafeText text={v} max={300} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `metadata.financial`'s fields in words; the field's own name is shown beside each. */
const FINANCIAL_LABELS: Record<string, string> = {
  cost_charged: 'Charged',
  attempted_cost: 'What the call would have cost',
  budget_total: 'Budget',
  budget_remaining: 'Left in the budget after this call',
  currency: 'Currency',
  grant_index: 'Grant of the capability',
  delegation_depth: 'Delegation depth',
  root_budget_holder: 'Budget holder',
  settlement_status: 'Settlement',
  payment_reference: 'Payment reference',
};

/**
 * The financial fields: each amount formatted as on /finance (the currency's decimals, exact),
 * with the integer the receipt signs beside it, in minor units (cents; wei for ETH).
 */
function FinancialTable({ lines, currency }: { lines: FinancialLine[]; currency: string | undefined }) {
  // An unknown currency is shown in minor units already (formatMinor says so): its digits are not repeated.
  const known = currencyDecimals(currency) !== undefined;
  return (
    <ScrollBox label="Financial fields">
      <table className="grid financial" data-testid="receipt-financial">
        <thead>
          <tr>
            <th scope="col">field</th>
            <th scope="col">value</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.field} data-field={l.field} {...(l.minor !== undefined ? { 'data-minor': l.minor.toString() } : {})}>
              <th scope="row">
                {FINANCIAL_LABELS[l.field] ?? l.field} <code className="muted">{l.field}</code>
              </th>
              {l.minor !== undefined ? (
                <td>
                  <span className="amount" data-testid="receipt-amount">
                    <SafeText text={formatMinor(l.minor, currency)} max={60} />
                  </span>
                  {known && (
                    <>
                      {' '}
                      <span className="muted minor-units" data-testid="receipt-minor-units">
                        ({l.text} minor units)
                      </span>
                    </>
                  )}
                </td>
              ) : (
                <td>
                  <SafeText text={l.text} max={300} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

export function DecisionView({ d }: { d: Dossier }) {
  if (!d.decision)
    return <p className="muted">No decision: a {d.kind.find(([k]) => k === 'receipt_kind')?.[1] ?? d.type} receipt records an observation, not a decision.</p>;
  return (
    <p data-testid="receipt-decision">
      <strong className={`decision ${d.decision.verdict}`}>{d.decision.verdict}</strong>
      {d.decision.guard !== undefined && (
        <>
          {' '}
          by guard{' '}
          <code>
            <SafeText text={d.decision.guard} max={120} />
          </code>
        </>
      )}
      {d.decision.reason !== undefined && (
        <>
          : <SafeText text={d.decision.reason} max={400} />
        </>
      )}
    </p>
  );
}

export function DossierView({ d }: { d: Dossier }) {
  return (
    <>
      {d.type === 'tool' && (
        <section>
          <h2>Guard evidence</h2>
          {d.evidence.length > 0 && (
            <ol className="evidence" data-testid="guard-evidence">
              {d.evidence.map((e, i) => (
                <li key={i} className={e.passed ? 'pass' : 'fail'}>
                  <strong>{e.passed ? 'passed' : 'failed'}</strong>{' '}
                  <code>
                    <SafeText text={e.guard} max={120} />
                  </code>
                  {e.blocking && <em> (blocked the call)</em>}
                  {e.details !== undefined && (
                    <span className="muted">
                      {' '}
                      — <SafeText text={e.details} max={400} />
                    </span>
                  )}
                </li>
              ))}
            </ol>
          )}
          {d.evidenceNote && (
            <p className="muted">
              <SafeText text={d.evidenceNote} max={400} />
            </p>
          )}
        </section>
      )}
      {d.parameters !== undefined && (
        <section>
          <h2>Parameters</h2>
          <p className="muted">As pretty JSON, in the order the receipt holds them; invisible and direction-changing characters are shown as \u escapes.</p>
          <pre className="code wrap" data-testid="receipt-parameters">
            <SafeText text={d.parameters} max={4000} multiline />
          </pre>
        </section>
      )}
      <section>
        <h2>Hashes</h2>
        <ScrollBox label="Hashes">
          <table className="grid hashes" data-testid="receipt-hashes">
            <thead>
              <tr>
                <th scope="col">hash</th>
                <th scope="col">in the receipt</th>
                <th scope="col">recomputed here</th>
                <th scope="col">result</th>
              </tr>
            </thead>
            <tbody>
              {d.hashes.map((h) => (
                <tr key={h.name}>
                  <th scope="row">{h.name}</th>
                  <td>
                    <code className="hash">
                      <SafeText text={h.claimed} max={200} />
                    </code>
                  </td>
                  <td>{h.recomputed !== undefined ? <code className="hash">{h.recomputed}</code> : <span className="muted">—</span>}</td>
                  <td className={h.status === 'match' ? 'good' : h.status === 'mismatch' ? 'bad' : ''}>
                    <strong>{h.status}</strong>{' '}
                    <span className="muted">
                      <SafeText text={h.note} max={300} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </section>
      {(d.financial.length > 0 || d.financialError !== undefined) && (
        <section>
          <h2>Financial metadata</h2>
          {d.financialError !== undefined && (
            <p className="banner bad">
              metadata.financial does not match FinancialReceiptMetadata: <SafeText text={d.financialError} max={400} />
            </p>
          )}
          {d.financial.length > 0 && <FinancialTable lines={d.financial} currency={d.currency} />}
        </section>
      )}
      {d.kind.length > 0 && (
        <section>
          <h2>{d.generation === 'B' ? 'Gen B kind and trust' : d.type === 'tool' ? 'Trust' : 'Request'}</h2>
          <Pairs rows={d.kind} testId="receipt-kind" />
        </section>
      )}
      <section>
        <h2>Merkle inclusion</h2>
        {d.merkle ? (
          <MerklePathView path={d.merkle} checkpoint={d.checkpoint} />
        ) : (
          <p className="muted" data-testid="merkle-path" data-matches="none">
            {d.checkpoint
              ? `Checkpoint ${d.checkpoint.seq} covers this receipt, but no inclusion proof came with it.`
              : 'No checkpoint covers this receipt in this log.'}
          </p>
        )}
        {d.notes.map((n, i) => (
          <p key={i} className="banner bad">
            <SafeText text={n} max={400} />
          </p>
        ))}
      </section>
      <section>
        <h2>Fields</h2>
        <p className="muted">
          Every field of the receipt as given. <strong>signed</strong>: covered by the signature; <strong>not signed</strong>: outside the signed field set, so
          anyone could have added or changed it.
        </p>
        <ScrollBox label="Fields of the receipt">
          <table className="grid fields" data-testid="receipt-fields">
            <thead>
              <tr>
                <th scope="col">field</th>
                <th scope="col">value</th>
                <th scope="col">signed?</th>
              </tr>
            </thead>
            <tbody>
              {d.fields.map((f) => (
                <tr key={f.path} data-status={f.status} className={f.status === 'not signed' ? 'unsigned' : ''}>
                  <th scope="row">
                    <code>
                      <SafeText text={f.path} max={120} />
                    </code>
                  </th>
                  <td>
                    <pre className="value">
                      <SafeText text={f.value} max={600} multiline />
                    </pre>
                  </td>
                  <td>{f.status === 'not signed' ? <strong className="bad">not signed</strong> : f.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </section>
      <section>
        <h2>Bytes</h2>
        <details>
          <summary>
            Signed bytes: RFC 8785 canonical JSON of the signed fields ({d.canonical.bytes} bytes, SHA-256 <code>{d.canonical.sha256}</code>)
          </summary>
          <pre className="code wrap" data-testid="receipt-canonical">
            <SafeText text={visibleText(d.canonical.text)} max={20_000} multiline />
          </pre>
        </details>
        <details>
          <summary>
            Raw record, as the source holds it ({d.raw.bytes} bytes, SHA-256 <code>{d.raw.sha256}</code>)
          </summary>
          <pre className="code wrap" data-testid="receipt-raw">
            <SafeText text={visibleText(d.raw.text)} max={20_000} multiline />
          </pre>
        </details>
      </section>
    </>
  );
}
