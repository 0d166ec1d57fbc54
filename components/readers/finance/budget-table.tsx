'use client';
// The budgets as contract §9 reconciles them (the report's finance section,
// the same numbers the command line prints): per (capability, grant) its
// total, charged, remaining and settlement split; a break is highlighted and
// each breaking receipt linked. Presentational.
import Link from 'next/link';
import { revealPlain } from '../../../lib/text/reveal';
import { formatMinor } from '../../../lib/finance/money';
import type { BudgetRow } from '../../../lib/readers/finance';
import type { FinanceReport } from '../../../lib/verdict/report';
import { ReceiptLink, explorerHref, n } from './parts';
import { SafeText } from '../../ui/safe-text';

const COLUMNS = 11;
const usedPct = (charged: bigint, total: bigint) => (total === 0n ? 0 : Math.min(100, Number((charged * 1000n) / total) / 10));

export function BudgetTable({ rows, finance }: { rows: BudgetRow[]; finance: FinanceReport }) {
  return (
    <>
      <div style={{ overflowX: 'auto' }}>
        <table className="fin-table" data-testid="finance-budget-table">
          <thead>
            <tr>
              <th scope="col">capability · grant</th>
              <th scope="col">holder</th>
              <th scope="col" className="num">
                budget
              </th>
              <th scope="col" className="num">
                charged
              </th>
              <th scope="col" className="num">
                remaining
              </th>
              <th scope="col">used</th>
              <th scope="col" className="num">
                settled
              </th>
              <th scope="col" className="num">
                pending
              </th>
              <th scope="col" className="num">
                failed
              </th>
              <th scope="col" className="num" title="receipts whose signature passed (these count toward a budget), and how many of them are verified">
                receipts
              </th>
              <th scope="col">adds up?</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ group: g, verified, explorer }) => {
              const broken = g.breaks.length > 0;
              const pct = usedPct(g.charged, g.budget_total);
              return [
                <tr
                  key={`${g.capability_id}/${g.grant_index}`}
                  className={broken ? 'fin-break-row' : undefined}
                  data-testid="finance-budget-row"
                  data-capability={g.capability_id}
                  data-grant={g.grant_index.toString()}
                  data-total={g.budget_total.toString()}
                  data-charged={g.charged.toString()}
                  data-remaining={g.remaining.toString()}
                  data-receipts={g.receipts}
                  data-settled={g.by_settlement.settled.toString()}
                  data-pending={g.by_settlement.pending.toString()}
                  data-failed={g.by_settlement.failed.toString()}
                  data-breaks={g.breaks.length}
                >
                  <td>
                    <Link
                      href={explorerHref(explorer)}
                      className="fin-mono"
                      title={`${revealPlain(g.capability_id, 200)}: open this budget's receipts in the explorer`}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      <SafeText text={g.capability_id} max={18} expandable={false} />
                    </Link>{' '}
                    <span className="muted" style={{ whiteSpace: 'nowrap' }}>
                      · grant {g.grant_index.toString()}
                    </span>
                  </td>
                  <td>
                    <SafeText text={g.root_budget_holder} max={40} />
                  </td>
                  <td className="num">
                    <SafeText text={formatMinor(g.budget_total, g.currency)} max={60} />
                  </td>
                  <td className="num">
                    <SafeText text={formatMinor(g.charged, g.currency)} max={60} />
                  </td>
                  <td className="num">
                    <SafeText text={formatMinor(g.remaining, g.currency)} max={60} />
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <span className="fin-used" aria-hidden="true">
                      <span style={{ width: `${pct}%` }} />
                    </span>
                    {pct}%
                  </td>
                  <td className="num">
                    <SafeText text={formatMinor(g.by_settlement.settled, g.currency)} max={60} />
                  </td>
                  <td className="num">
                    <SafeText text={formatMinor(g.by_settlement.pending, g.currency)} max={60} />
                  </td>
                  <td className={`num${g.by_settlement.failed > 0n ? ' fin-bad' : ' muted'}`}>
                    <SafeText text={formatMinor(g.by_settlement.failed, g.currency)} max={60} />
                  </td>
                  <td className="num">
                    {n(g.receipts)}
                    <br />
                    <small className={verified < g.receipts ? 'fin-warn' : 'muted'}>{n(verified)} verified</small>
                  </td>
                  <td>
                    {broken ? (
                      <strong className="fin-bad">
                        {g.breaks.length} break{g.breaks.length === 1 ? '' : 's'} ↓
                      </strong>
                    ) : (
                      <span className="fin-good">✓ yes</span>
                    )}
                  </td>
                </tr>,
                broken && (
                  <tr key={`${g.capability_id}/${g.grant_index}/breaks`} className="fin-break-row">
                    <td colSpan={COLUMNS}>
                      <ul className="fin-breaks">
                        {g.break_details.map((b) => (
                          <li key={b.receipt_id} data-testid="finance-break">
                            <ReceiptLink id={b.receipt_id} />: <SafeText text={b.rule} max={300} />
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ),
              ];
            })}
          </tbody>
        </table>
      </div>
      {finance.excluded.length > 0 && (
        <p data-testid="finance-excluded">
          <strong>Left out of the budgets:</strong> {n(finance.excluded.length)} financial receipt{finance.excluded.length === 1 ? '' : 's'} whose signature did
          not pass:{' '}
          {finance.excluded.slice(0, 20).map((id, i) => (
            <span key={id}>
              {i > 0 ? ', ' : ''}
              <ReceiptLink id={id} />
            </span>
          ))}
          {finance.excluded.length > 20 ? ', …' : ''}
        </p>
      )}
      {finance.malformed.length > 0 && (
        <div data-testid="finance-malformed">
          <strong>Unreadable financial metadata</strong> on {n(finance.malformed.length)} receipt{finance.malformed.length === 1 ? '' : 's'} (not in any
          budget):
          <ul className="fin-breaks">
            {finance.malformed.slice(0, 20).map((m) => (
              <li key={m.receipt_id}>
                <ReceiptLink id={m.receipt_id} />: <SafeText text={m.error} max={300} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
