'use client';
// One card per currency: what was charged, how much of it settled, is pending
// or failed (a stacked bar and the exact amounts), and what budget denials
// refused. Currencies are never added together. Presentational.
import Link from 'next/link';
import { formatMinor } from '../../../lib/finance/money';
import type { CurrencyTotals, Settlement } from '../../../lib/readers/finance';
import { explorerHref, n, verifiedFilter } from './parts';
import { SafeText } from '../../ui/safe-text';

const KEYS: { key: Settlement; label: string; cls: string }[] = [
  { key: 'settled', label: 'settled', cls: 'fin-settled' },
  { key: 'pending', label: 'pending', cls: 'fin-pending' },
  { key: 'failed', label: 'failed', cls: 'fin-failed' },
];

/** Share of `part` in `whole` as a CSS percentage, from exact integers. */
const pct = (part: bigint, whole: bigint) => (whole === 0n ? '0%' : `${Number((part * 10000n) / whole) / 100}%`);

export function CurrencyCards({ totals }: { totals: CurrencyTotals[] }) {
  return (
    <div className="fin-cards">
      {totals.map((t) => (
        <article
          key={t.currency}
          className="fin-card"
          data-testid="finance-currency"
          data-currency={t.currency}
          data-charged={t.charged.toString()}
          data-receipts={t.receipts}
        >
          <h3>
            Charged in <SafeText text={t.currency} max={40} />
          </h3>
          <span className="fin-big">
            <SafeText text={formatMinor(t.charged, t.currency)} max={60} expandable={false} />
          </span>
          <p className="muted">
            over <Link href={explorerHref(verifiedFilter({ currency: [t.currency] }))}>{n(t.receipts)} verified receipts</Link> under{' '}
            <SafeText text={t.currency} max={40} /> budgets
          </p>
          <div className="fin-split" role="img" aria-label={KEYS.map((k) => `${k.label} ${pct(t.settlement[k.key].amount, t.charged)}`).join(', ')}>
            {KEYS.map((k) => (
              <span key={k.key} className={k.cls} style={{ width: pct(t.settlement[k.key].amount, t.charged) }} />
            ))}
          </div>
          <ul className="fin-keys">
            {KEYS.map((k) => (
              <li key={k.key} data-testid={`finance-currency-${k.key}`} data-amount={t.settlement[k.key].amount.toString()}>
                <span className={`fin-dot ${k.cls}`} />
                <Link href={explorerHref(verifiedFilter({ currency: [t.currency], settlement: [k.key] }))}>
                  {k.label} ({n(t.settlement[k.key].receipts)})
                </Link>
                <span className="fin-amount">
                  <SafeText text={formatMinor(t.settlement[k.key].amount, t.currency)} max={60} expandable={false} />
                </span>
              </li>
            ))}
            {t.settlement.not_applicable.receipts > 0 && (
              <li data-testid="finance-currency-not_applicable">
                <span className="fin-dot fin-na" />
                <Link href={explorerHref(verifiedFilter({ currency: [t.currency], settlement: ['not_applicable'] }))}>
                  nothing to settle ({n(t.settlement.not_applicable.receipts)})
                </Link>
                <span className="fin-amount">
                  <SafeText text={formatMinor(t.settlement.not_applicable.amount, t.currency)} max={60} expandable={false} />
                </span>
              </li>
            )}
          </ul>
          <p>
            {t.denials === 0 ? (
              <span className="muted">No budget denials.</span>
            ) : (
              <>
                <Link href={explorerHref(verifiedFilter({ currency: [t.currency], guard: ['budget'] }))}>
                  {n(t.denials)} budget denial{t.denials === 1 ? '' : 's'}
                </Link>{' '}
                refused <SafeText text={formatMinor(t.attempted, t.currency)} max={60} expandable={false} />.
              </>
            )}
          </p>
        </article>
      ))}
    </div>
  );
}
