'use client';
// The finance view's plain tables: totals per root budget holder, lists of
// receipts (failed or long-pending settlements, budget denials) and oracle
// conversions. Each row leads to the explorer or to its receipt. Lists show
// their first rows; the CSV holds them all. Presentational.
import Link from 'next/link';
import { formatMinor, formatRatio } from '../../../lib/finance/money';
import type { HolderTotals, RowList } from '../../../lib/readers/finance';
import { chargedOrAttempted, isStale, type OracleView } from '../../../lib/readers/finance-oracle';
import type { RowStore } from '../../../lib/query/row-store';
import { formatTime } from '../../explorer/format';
import { ReceiptLink, explorerHref, formatAge, n, verifiedFilter } from './parts';
import { SafeText } from '../../ui/safe-text';

export const LIST_LIMIT = 100;

export function HolderTable({ totals }: { totals: HolderTotals[] }) {
  return (
    <table className="fin-table" data-testid="finance-holder-table">
      <thead>
        <tr>
          <th scope="col">root budget holder</th>
          <th scope="col">currency</th>
          <th scope="col" className="num">
            budgets
          </th>
          <th scope="col" className="num">
            granted
          </th>
          <th scope="col" className="num">
            charged
          </th>
          <th scope="col" className="num">
            receipts
          </th>
          <th scope="col" className="num">
            budget denials (refused)
          </th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr
            key={`${t.holder}/${t.currency}`}
            data-testid="finance-holder-row"
            data-holder={t.holder}
            data-currency={t.currency}
            data-charged={t.charged.toString()}
          >
            <th scope="row">
              <Link href={explorerHref(verifiedFilter({ rootBudgetHolder: [t.holder], currency: [t.currency] }))}>
                <SafeText text={t.holder} max={60} expandable={false} />
              </Link>
            </th>
            <td>
              <SafeText text={t.currency} max={40} />
            </td>
            <td className="num">{n(t.budgets)}</td>
            <td className="num">
              <SafeText text={formatMinor(t.granted, t.currency)} max={60} />
            </td>
            <td className="num">
              <SafeText text={formatMinor(t.charged, t.currency)} max={60} />
            </td>
            <td className="num">{n(t.receipts)}</td>
            <td className="num">
              {t.denials ? (
                <>
                  {n(t.denials)} (<SafeText text={formatMinor(t.attempted, t.currency)} max={60} />)
                </>
              ) : (
                '–'
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Failed / long-pending settlements (`amount` charged) or budget denials (`amount` attempted). */
export function ReceiptListTable({
  store,
  list,
  amount,
  lastTime,
  testId,
}: {
  store: RowStore;
  list: RowList;
  amount: 'charged' | 'attempted';
  lastTime?: number | null;
  testId: string;
}) {
  const shown = list.rows.subarray(0, LIST_LIMIT);
  return (
    <table className="fin-table" data-testid={testId} data-rows={list.rows.length}>
      <thead>
        <tr>
          <th scope="col">time (UTC)</th>
          <th scope="col">receipt</th>
          <th scope="col">tool</th>
          <th scope="col">capability · holder</th>
          <th scope="col" className="num">
            {amount === 'charged' ? 'charged' : 'attempted'}
          </th>
          {amount === 'attempted' ? (
            <th scope="col" className="num">
              remaining then
            </th>
          ) : (
            <th scope="col">payment reference</th>
          )}
          {lastTime != null && (
            <th scope="col" className="num">
              pending for
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {[...shown].map((row) => {
          const s = (c: Parameters<RowStore['str']>[0]) => store.str(c, row);
          const currency = s('currency');
          const value = amount === 'attempted' ? BigInt(s('attemptedCost') ?? '0') : store.hasCost[row] ? store.cost[row]! : 0n;
          const remaining = s('budgetRemaining');
          return (
            <tr key={row} data-testid={`${testId}-row`}>
              <td style={{ whiteSpace: 'nowrap' }}>{formatTime(store.time[row]!)}</td>
              <td>
                <ReceiptLink id={s('id') ?? ''} />
              </td>
              <td>
                <SafeText text={s('toolServer') ?? ''} max={40} /> / <SafeText text={s('toolName') ?? ''} max={40} />
              </td>
              <td>
                <span className="fin-mono">
                  <SafeText text={s('capabilityId') ?? ''} max={40} />
                </span>{' '}
                <span className="muted">
                  · <SafeText text={s('rootBudgetHolder') ?? ''} max={40} />
                </span>
              </td>
              <td className="num">
                <SafeText text={formatMinor(value, currency)} max={60} />
              </td>
              {amount === 'attempted' ? (
                <td className="num">{remaining !== undefined && /^\d+$/.test(remaining) ? formatMinor(BigInt(remaining), currency) : '–'}</td>
              ) : (
                <td className="fin-mono">
                  <SafeText text={s('paymentReference') ?? '–'} max={40} />
                </td>
              )}
              {lastTime != null && <td className="num">{formatAge(lastTime - store.time[row]!)}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function OracleTable({ store, view }: { store: RowStore; view: OracleView }) {
  const shown = view.rows.subarray(0, LIST_LIMIT);
  return (
    <table className="fin-table" data-testid="finance-oracle-table" data-rows={view.rows.length}>
      <thead>
        <tr>
          <th scope="col">time (UTC)</th>
          <th scope="col">receipt</th>
          <th scope="col">rate</th>
          <th scope="col" className="num">
            original amount
          </th>
          <th scope="col" className="num">
            converted
          </th>
          <th scope="col" className="num">
            charged
          </th>
          <th scope="col">price feed</th>
          <th scope="col" className="num">
            cache age
          </th>
        </tr>
      </thead>
      <tbody>
        {[...shown].map((row) => {
          const d = view.decoded[store.codes.oracle[row]!];
          const id = store.str('id', row) ?? '';
          if (!d?.ok) {
            return (
              <tr key={row} data-testid="finance-oracle-row">
                <td>{formatTime(store.time[row]!)}</td>
                <td>
                  <ReceiptLink id={id} />
                </td>
                <td colSpan={6} className="fin-bad">
                  Unreadable oracle evidence: <SafeText text={d?.error ?? 'missing'} max={300} />
                </td>
              </tr>
            );
          }
          const e = d.value;
          const rate = formatRatio(BigInt(e.rateNumerator), BigInt(e.rateDenominator));
          const charged = chargedOrAttempted(store, row);
          const mismatch = charged !== undefined && charged.toString() !== e.convertedCostUnits;
          const stale = isStale(e);
          return (
            <tr key={row} data-testid="finance-oracle-row" data-original={e.originalCostUnits}>
              <td style={{ whiteSpace: 'nowrap' }}>{formatTime(store.time[row]!)}</td>
              <td>
                <ReceiptLink id={id} />
              </td>
              <td title={`rate_numerator ${e.rateNumerator} / rate_denominator ${e.rateDenominator}`}>
                {rate ? `${rate.exact ? '' : '≈ '}${rate.text}` : '–'} <SafeText text={`${e.quote}/${e.base}`} max={40} />
              </td>
              <td className="num" title={`${e.originalCostUnits} minor units`}>
                <SafeText text={formatMinor(BigInt(e.originalCostUnits), e.originalCurrency)} max={60} />
              </td>
              <td className="num">
                <SafeText text={formatMinor(BigInt(e.convertedCostUnits), e.grantCurrency)} max={60} />
              </td>
              <td className={`num${mismatch ? ' fin-bad' : ''}`} title={mismatch ? 'differs from converted_cost_units' : undefined}>
                {charged === undefined ? '–' : formatMinor(charged, store.str('currency', row))}
                {store.str('attemptedCost', row) !== undefined ? <span className="muted"> (refused)</span> : null}
              </td>
              <td>
                <SafeText text={e.source} max={60} />{' '}
                <span className="muted">
                  · <SafeText text={e.authority} max={60} />
                </span>
              </td>
              <td className={`num${stale ? ' fin-bad' : ''}`} title={stale ? 'older than max_age_seconds' : undefined}>
                {e.cacheAgeSeconds} s of {e.maxAgeSeconds} s
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
