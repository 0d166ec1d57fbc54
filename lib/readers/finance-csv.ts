// The finance view's tables as CSV (lib/text/csv.ts): every amount twice,
// as the exact integer in minor units (`…_minor`) and formatted with its
// currency's decimals; times as Unix seconds and ISO 8601 UTC. Every row of
// each table, not only those the page shows. Pure.
import { formatMinor } from '../finance/money';
import type { RowStore } from '../query/row-store';
import type { CsvTable } from '../text/csv';
import { type BudgetRow, type CurrencyTotals, type HolderTotals, type RowList, SETTLEMENTS } from './finance';
import { chargedOrAttempted, type OracleView } from './finance-oracle';
import type { SpendOverTime } from './finance-spend';

const money = (minor: bigint, currency: string) => [minor.toString(), formatMinor(minor, currency)];
const iso = (t: number) => (Number.isFinite(t) ? new Date(t * 1000).toISOString() : '');
const unix = (t: number) => (Number.isFinite(t) ? String(t) : '');

export function currencyTotalsCsv(totals: CurrencyTotals[]): CsvTable {
  return {
    name: 'finance-currencies.csv',
    header: [
      'currency',
      'receipts',
      'charged_minor',
      'charged',
      ...SETTLEMENTS.flatMap((s) => [`${s}_receipts`, `${s}_minor`, s]),
      'budget_denials',
      'attempted_minor',
      'attempted',
    ],
    rows: totals.map((t) => [
      t.currency,
      String(t.receipts),
      ...money(t.charged, t.currency),
      ...SETTLEMENTS.flatMap((s) => [String(t.settlement[s].receipts), ...money(t.settlement[s].amount, t.currency)]),
      String(t.denials),
      ...money(t.attempted, t.currency),
    ]),
  };
}

export function holderTotalsCsv(totals: HolderTotals[]): CsvTable {
  return {
    name: 'finance-budget-holders.csv',
    header: [
      'root_budget_holder',
      'currency',
      'budgets',
      'granted_minor',
      'granted',
      'receipts',
      'charged_minor',
      'charged',
      'budget_denials',
      'attempted_minor',
      'attempted',
    ],
    rows: totals.map((t) => [
      t.holder,
      t.currency,
      String(t.budgets),
      ...money(t.granted, t.currency),
      String(t.receipts),
      ...money(t.charged, t.currency),
      String(t.denials),
      ...money(t.attempted, t.currency),
    ]),
  };
}

export function budgetsCsv(rows: BudgetRow[]): CsvTable {
  return {
    name: 'finance-budgets.csv',
    header: [
      'capability_id',
      'grant_index',
      'currency',
      'root_budget_holder',
      'budget_total_minor',
      'budget_total',
      'charged_minor',
      'charged',
      'remaining_minor',
      'remaining',
      'receipts_signature_passed',
      'receipts_verified',
      'settled_minor',
      'pending_minor',
      'failed_minor',
      'breaks',
      'break_receipt_ids',
      'break_rules',
    ],
    rows: rows.map(({ group: g, verified }) => [
      g.capability_id,
      g.grant_index.toString(),
      g.currency,
      g.root_budget_holder,
      ...money(g.budget_total, g.currency),
      ...money(g.charged, g.currency),
      ...money(g.remaining, g.currency),
      String(g.receipts),
      String(verified),
      g.by_settlement.settled.toString(),
      g.by_settlement.pending.toString(),
      g.by_settlement.failed.toString(),
      String(g.breaks.length),
      g.breaks.join(' '),
      g.break_details.map((b) => `${b.receipt_id}: ${b.rule}`).join(' | '),
    ]),
  };
}

/** A list of receipts (failed or long-pending settlements, budget denials) with their amounts. */
export function receiptListCsv(store: RowStore, list: RowList, name: string, amount: 'charged' | 'attempted'): CsvTable {
  return {
    name,
    header: [
      'receipt_id',
      'unix_time',
      'time_utc',
      'tool_server',
      'tool',
      'capability_id',
      'grant_index',
      'root_budget_holder',
      'currency',
      `${amount}_minor`,
      amount,
      'budget_remaining_minor',
      'budget_remaining',
      'settlement',
      'payment_reference',
      'decision',
      'guard',
    ],
    rows: [...list.rows].map((row) => {
      const s = (c: Parameters<RowStore['str']>[0]) => store.str(c, row) ?? '';
      const currency = s('currency');
      const value = amount === 'attempted' ? BigInt(s('attemptedCost') || '0') : store.hasCost[row] ? store.cost[row]! : 0n;
      const remaining = s('budgetRemaining');
      return [
        s('id'),
        unix(store.time[row]!),
        iso(store.time[row]!),
        s('toolServer'),
        s('toolName'),
        s('capabilityId'),
        s('grantIndex'),
        s('rootBudgetHolder'),
        currency,
        ...money(value, currency),
        remaining,
        remaining ? formatMinor(BigInt(remaining), currency) : '',
        s('settlement'),
        s('paymentReference'),
        s('decision'),
        s('guard'),
      ];
    }),
  };
}

export function oracleCsv(store: RowStore, view: OracleView): CsvTable {
  return {
    name: 'finance-oracle-conversions.csv',
    header: [
      'receipt_id',
      'unix_time',
      'time_utc',
      'base',
      'quote',
      'rate_numerator',
      'rate_denominator',
      'original_currency',
      'original_cost_units',
      'original_cost',
      'grant_currency',
      'converted_cost_units',
      'converted_cost',
      'charged_or_attempted_minor',
      'source',
      'authority',
      'feed_address',
      'updated_at',
      'cache_age_seconds',
      'max_age_seconds',
      'error',
    ],
    rows: [...view.rows].map((row) => {
      const d = view.decoded[store.codes.oracle[row]!];
      const head = [store.str('id', row) ?? '', unix(store.time[row]!), iso(store.time[row]!)];
      if (!d?.ok) return [...head, ...new Array<string>(17).fill(''), d?.error ?? 'unreadable'];
      const e = d.value;
      return [
        ...head,
        e.base,
        e.quote,
        e.rateNumerator,
        e.rateDenominator,
        e.originalCurrency,
        e.originalCostUnits,
        formatMinor(BigInt(e.originalCostUnits), e.originalCurrency),
        e.grantCurrency,
        e.convertedCostUnits,
        formatMinor(BigInt(e.convertedCostUnits), e.grantCurrency),
        chargedOrAttempted(store, row)?.toString() ?? '',
        e.source,
        e.authority,
        e.feedAddress,
        e.updatedAt,
        e.cacheAgeSeconds,
        e.maxAgeSeconds,
        '',
      ];
    }),
  };
}

/** One record per (bucket, currency, settlement) with receipts in it. */
export function spendCsv(spend: SpendOverTime): CsvTable {
  const rows: string[][] = [];
  for (let i = 0; i < spend.count; i++) {
    const since = spend.start + i * spend.bucketSeconds;
    for (const s of spend.series) {
      for (const k of SETTLEMENTS) {
        if (s.receipts[k][i] === 0) continue;
        rows.push([unix(since), iso(since), String(spend.bucketSeconds), s.currency, k, String(s.receipts[k][i]), ...money(s.amount[k][i]!, s.currency)]);
      }
    }
  }
  return {
    name: 'finance-spend-over-time.csv',
    header: ['bucket_start_unix', 'bucket_start_utc', 'bucket_seconds', 'currency', 'settlement', 'receipts', 'charged_minor', 'charged'],
    rows,
  };
}
