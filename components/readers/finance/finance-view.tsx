'use client';
// The finance view (/finance): what the agents spent, per currency and budget
// holder; whether each budget's running balance adds up (contract §9); what
// has not settled; what budgets refused; which amounts were converted by a
// price oracle; and spend over time. The chosen chart currency and the
// "long pending" threshold are in the URL (`cur`, `pendingHours`).
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useSetQueryParam } from '../../data/use-replace-query';
import { useMemo } from 'react';
import { formatMinor } from '../../../lib/finance/money';
import {
  type CurrencyAmount,
  PENDING_HOURS_DEFAULT,
  budgetDenials,
  budgetRows,
  currencyTotals,
  holderTotals,
  settlementLists,
} from '../../../lib/readers/finance';
import { budgetsCsv, currencyTotalsCsv, holderTotalsCsv, oracleCsv, receiptListCsv, spendCsv } from '../../../lib/readers/finance-csv';
import { oracleConversions } from '../../../lib/readers/finance-oracle';
import { spendOverTime } from '../../../lib/readers/finance-spend';
import { type ReaderData, VerifiedNote } from '../reader-shell';
import { BudgetTable } from './budget-table';
import { CurrencyCards } from './currency-cards';
import { formatTime } from '../../explorer/format';
import { HolderTable, LIST_LIMIT, OracleTable, ReceiptListTable } from './finance-tables';
import { CsvButton, Empty, More, Section, explorerHref, formatAge, n, verifiedFilter } from './parts';
import { SpendChart } from './spend-chart';
import { SafeText } from '../../ui/safe-text';

const HOURS = [1, 6, 12, 24, 48, 72, 168];

/** A list's charged amount per currency, after its count: " · 12.50 EUR · 3.00 USD" (currencies are never added together). */
function ListTotals({ totals }: { totals: readonly CurrencyAmount[] }) {
  return totals.map((t) => (
    <span key={t.currency} className="fin-list-total" data-currency={t.currency} data-amount={t.amount.toString()}>
      {' · '}
      <SafeText text={formatMinor(t.amount, t.currency)} max={60} expandable={false} />
    </span>
  ));
}

function useViewParams() {
  const params = useSearchParams();
  const set = useSetQueryParam();
  const hoursRaw = params.get('pendingHours');
  const pendingHours = hoursRaw && /^\d{1,4}$/.test(hoursRaw) && Number(hoursRaw) > 0 ? Number(hoursRaw) : PENDING_HOURS_DEFAULT;
  return { cur: params.get('cur'), pendingHours, set };
}

export function FinanceView({ store, report, scope, label }: ReaderData) {
  const { cur, pendingHours, set } = useViewParams();
  const totals = useMemo(() => currencyTotals(store, scope), [store, scope]);
  const holders = useMemo(() => holderTotals(store, scope), [store, scope]);
  const budgets = useMemo(() => budgetRows(store, scope, report), [store, scope, report]);
  const denials = useMemo(() => budgetDenials(store, scope), [store, scope]);
  const oracle = useMemo(() => oracleConversions(store, scope), [store, scope]);
  const spend = useMemo(() => spendOverTime(store, scope), [store, scope]);
  const settlement = useMemo(() => settlementLists(store, scope, pendingHours), [store, scope, pendingHours]);
  // The chart's currency: the one in the URL, else the one with the most receipts.
  const busiest = [...totals].sort((a, b) => b.receipts - a.receipts)[0]?.currency;
  const series = spend.series.find((s) => s.currency === cur) ?? spend.series.find((s) => s.currency === busiest) ?? spend.series[0];
  const financialReceipts = totals.reduce((a, t) => a + t.receipts, 0);
  const breaks = budgets.breaks;

  return (
    <div data-testid="finance-view" data-financial={financialReceipts}>
      <p className="fin-lead">What the agents spent, against which budgets, and whether it settled, read from the signed receipts.</p>
      <VerifiedNote scope={scope} label={label} />
      {report.finance.budgets.length > 0 && (
        <p className={breaks === 0 ? 'banner ok' : 'banner bad'} data-testid="finance-banner" data-breaks={breaks}>
          {breaks === 0 ? (
            <>
              <strong>Every budget adds up.</strong> In all {n(report.finance.budgets.length)} budgets each receipt’s remaining balance follows from the charges
              before it.
            </>
          ) : (
            <>
              <strong>
                {n(breaks)} receipt{breaks === 1 ? '' : 's'} break{breaks === 1 ? 's' : ''} a budget’s running balance.
              </strong>{' '}
              {breaks === 1 ? 'It is' : 'They are'} marked in red in the budget table below, each linked to its receipt.
            </>
          )}
          {settlement.failed.rows.length > 0 && <> {n(settlement.failed.rows.length)} payments failed to settle.</>}
        </p>
      )}
      {financialReceipts === 0 ? (
        <Empty testId="finance-empty">
          None of the verified receipts of this log carries a cost (<code>metadata.financial</code>), so there is nothing to reconcile. Receipts of paid tools
          and budgeted grants carry one.
        </Empty>
      ) : (
        <>
          <Section
            id="currencies"
            title="What was spent, per currency"
            counts="Verified receipts only. Currencies are never added together; amounts are exact, in each currency’s own decimals."
            tools={<CsvButton testId="finance-csv-currencies" table={() => currencyTotalsCsv(totals)} />}
          >
            <CurrencyCards totals={totals} />
          </Section>

          {series && (
            <Section
              id="spend"
              title={`Spend per ${spend.bucketLabel}`}
              counts={`Charged amounts of verified receipts, per ${spend.bucketLabel} (UTC), stacked by settlement status. Click a bar to see its receipts.`}
              tools={
                <>
                  {spend.series.length > 1 && (
                    <span className="fin-toggle" role="group" aria-label="Currency">
                      {spend.series.map((s) => (
                        <button
                          key={s.currency}
                          type="button"
                          className={`button${s === series ? ' active' : ''}`}
                          aria-pressed={s === series}
                          data-testid="finance-spend-currency"
                          onClick={() => set('cur', s.currency)}
                        >
                          <SafeText text={s.currency} max={24} expandable={false} />
                        </button>
                      ))}
                    </span>
                  )}
                  <CsvButton testId="finance-csv-spend" table={() => spendCsv(spend)} />
                </>
              }
            >
              <SpendChart spend={spend} series={series} />
              {series.untimed > 0 && <p className="muted">{n(series.untimed)} receipts without a usable time are not on the chart.</p>}
            </Section>
          )}
        </>
      )}

      {report.finance.budgets.length > 0 && (
        <Section
          id="budgets"
          title="Budgets: does every running balance add up?"
          counts={
            <>
              Reconciled as the receipt contract’s budget rules do it, with the same numbers as the command line’s report: per capability and grant, every
              financial receipt whose signature passed counts, verified or not (the “verified” column says how many are). Amounts charged; settled, pending,
              failed are parts of the charged amount.
            </>
          }
          tools={<CsvButton testId="finance-csv-budgets" table={() => budgetsCsv(budgets.rows)} />}
        >
          <BudgetTable rows={budgets.rows} finance={report.finance} />
        </Section>
      )}

      {holders.length > 0 && (
        <Section
          id="holders"
          title="Who holds the budgets"
          counts="Per root budget holder and currency, from verified receipts: the budgets they drew on, what those budgets granted, what was charged and refused."
          tools={<CsvButton testId="finance-csv-holders" table={() => holderTotalsCsv(holders)} />}
        >
          <HolderTable totals={holders} />
        </Section>
      )}

      {financialReceipts > 0 && (
        <Section
          id="settlement"
          title="What has not settled"
          counts={
            settlement.lastTime === null
              ? 'Verified receipts only.'
              : `Verified receipts only. Ages are measured on the log’s own clock: its last verified receipt is from ${formatTime(settlement.lastTime)} UTC.`
          }
        >
          <h3 data-testid="finance-failed-title">
            Failed settlements: {n(settlement.failed.rows.length)}
            <ListTotals totals={settlement.failed.totals} />
          </h3>
          <div className="fin-head">
            <p className="muted" style={{ margin: 0 }}>
              Charged, but the payment did not go through.{' '}
              {settlement.failed.rows.length > 0 && <Link href={explorerHref(verifiedFilter({ settlement: ['failed'] }))}>Open them in the explorer</Link>}
            </p>
            <CsvButton testId="finance-csv-failed" table={() => receiptListCsv(store, settlement.failed, 'finance-failed-settlements.csv', 'charged')} />
          </div>
          {settlement.failed.rows.length === 0 ? (
            <Empty testId="finance-failed-empty">No verified receipt has a failed settlement.</Empty>
          ) : (
            <>
              <ReceiptListTable store={store} list={settlement.failed} amount="charged" testId="finance-failed" />
              <More shown={LIST_LIMIT} total={settlement.failed.rows.length} href={explorerHref(verifiedFilter({ settlement: ['failed'] }))} />
            </>
          )}

          <h3 data-testid="finance-long-pending-title">
            Pending for more than {pendingHours} h: {n(settlement.longPending.rows.length)}
            <ListTotals totals={settlement.longPending.totals} />
          </h3>
          <div className="fin-head">
            <label className="muted">
              Long pending means still pending more than{' '}
              <select
                className="fin-select"
                value={pendingHours}
                data-testid="finance-pending-hours"
                onChange={(e) => set('pendingHours', e.target.value === String(PENDING_HOURS_DEFAULT) ? null : e.target.value)}
              >
                {(HOURS.includes(pendingHours) ? HOURS : [...HOURS, pendingHours].sort((a, b) => a - b)).map((h) => (
                  <option key={h} value={h}>
                    {h < 24 || h % 24 ? `${h} hour${h === 1 ? '' : 's'}` : `${h / 24} day${h === 24 ? '' : 's'}`}
                  </option>
                ))}
              </select>{' '}
              before the log’s last receipt. {n(settlement.pending.rows.length)} verified receipts are pending in all.
            </label>
            <CsvButton testId="finance-csv-long-pending" table={() => receiptListCsv(store, settlement.longPending, 'finance-long-pending.csv', 'charged')} />
          </div>
          {settlement.longPending.rows.length === 0 ? (
            <Empty testId="finance-long-pending-empty">
              Nothing has been pending that long.
              {settlement.lastTime !== null && settlement.pending.rows.length > 0
                ? ` The oldest pending receipt waited ${formatAge(settlement.lastTime - store.time[settlement.pending.rows[0]!]!)} before the log’s last receipt.`
                : ''}
            </Empty>
          ) : (
            <>
              <ReceiptListTable store={store} list={settlement.longPending} amount="charged" lastTime={settlement.lastTime} testId="finance-long-pending" />
              {settlement.cutoff !== null && (
                <More
                  shown={LIST_LIMIT}
                  total={settlement.longPending.rows.length}
                  href={explorerHref(verifiedFilter({ settlement: ['pending'] }, { until: settlement.cutoff - 1 }))}
                />
              )}
            </>
          )}
        </Section>
      )}

      {financialReceipts > 0 && (
        <Section
          id="denials"
          title="What the budgets refused"
          counts="Verified budget denials: calls the budget could not cover, which charged nothing. The attempted cost is what the call would have cost."
          tools={<CsvButton testId="finance-csv-denials" table={() => receiptListCsv(store, denials, 'finance-budget-denials.csv', 'attempted')} />}
        >
          {denials.rows.length === 0 ? (
            <Empty testId="finance-denials-empty">No budget denials: every call under a budget fitted in what was left.</Empty>
          ) : (
            <>
              <p>
                {n(denials.rows.length)} denial{denials.rows.length === 1 ? '' : 's'}, refusing{' '}
                {denials.totals.map((t) => formatMinor(t.amount, t.currency)).join(' and ')}.{' '}
                <Link href={explorerHref(verifiedFilter({ guard: ['budget'] }))}>Open them in the explorer</Link>
              </p>
              <ReceiptListTable store={store} list={denials} amount="attempted" testId="finance-denials" />
              <More shown={LIST_LIMIT} total={denials.rows.length} href={explorerHref(verifiedFilter({ guard: ['budget'] }))} />
            </>
          )}
        </Section>
      )}

      {financialReceipts > 0 && (
        <Section
          id="oracle"
          title="Currency conversions"
          counts="Verified receipts whose cost was converted by a price oracle (oracle_evidence): the original amount, exact to the smallest unit (wei for ETH), the rate and the converted amount."
          tools={<CsvButton testId="finance-csv-oracle" table={() => oracleCsv(store, oracle)} />}
        >
          {oracle.rows.length === 0 ? (
            <Empty testId="finance-oracle-empty">No conversions: every cost was charged in its budget’s own currency.</Empty>
          ) : (
            <>
              <ul data-testid="finance-oracle-pairs">
                {oracle.pairs.map((p) => (
                  <li key={`${p.originalCurrency}/${p.grantCurrency}`}>
                    {n(p.receipts)} conversion{p.receipts === 1 ? '' : 's'} of{' '}
                    <SafeText text={formatMinor(p.original, p.originalCurrency)} max={60} expandable={false} /> into{' '}
                    <SafeText text={formatMinor(p.converted, p.grantCurrency)} max={60} expandable={false} />
                    {p.stale > 0 && <span className="fin-bad">; {n(p.stale)} used a price older than its allowed age</span>}.
                  </li>
                ))}
                {oracle.malformed > 0 && <li className="fin-bad">{n(oracle.malformed)} with unreadable oracle evidence.</li>}
              </ul>
              <OracleTable store={store} view={oracle} />
              <More shown={LIST_LIMIT} total={oracle.rows.length} />
            </>
          )}
        </Section>
      )}
    </div>
  );
}
