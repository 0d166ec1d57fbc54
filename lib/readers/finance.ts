// The finance view's numbers (issue 5, item 2): totals per currency and per
// root budget holder, settlement status with the failed and long-pending
// lists, budget denials, and the §9 budget table with how many of each
// budget's receipts are verified. Everything except the budget table counts
// the verified receipts of `scope` only; the budget table is the report's own
// reconciliation (contract §9), which counts every financial receipt whose
// signature passed. Amounts are exact bigint minor units, never summed across
// currencies. Single passes over the row store's typed columns. Pure.

import type { ExplorerFilter } from '../query/explorer-filter';
import type { RowStore } from '../query/row-store';
import type { VerificationReport, BudgetGroup } from '../verdict/report';
import type { VerifiedScope } from './scope';

export const SETTLEMENTS = ['settled', 'pending', 'failed', 'not_applicable'] as const;
export type Settlement = (typeof SETTLEMENTS)[number];

export interface Split {
  amount: bigint;
  receipts: number;
}

export interface CurrencyTotals {
  currency: string;
  /** Verified receipts with financial metadata in this currency. */
  receipts: number;
  /** Sum of cost_charged. */
  charged: bigint;
  /** cost_charged and receipts per settlement status. */
  settlement: Record<Settlement, Split>;
  /** Budget denials (attempted_cost set) and the sum of what they tried to spend. */
  denials: number;
  attempted: bigint;
}

export interface HolderTotals {
  holder: string;
  currency: string;
  /** Distinct (capability, grant) budgets seen in its verified receipts, and the sum of their budget_total. */
  budgets: number;
  granted: bigint;
  receipts: number;
  charged: bigint;
  denials: number;
  attempted: bigint;
}

export interface CurrencyAmount {
  currency: string;
  amount: bigint;
  receipts: number;
}

export interface RowList {
  /** Rows in log order. */
  rows: Uint32Array;
  /** Their amounts per currency. */
  totals: CurrencyAmount[];
}

const emptySplits = (): Record<Settlement, Split> => ({
  settled: { amount: 0n, receipts: 0 },
  pending: { amount: 0n, receipts: 0 },
  failed: { amount: 0n, receipts: 0 },
  not_applicable: { amount: 0n, receipts: 0 },
});

/** Settlement index (SETTLEMENTS) of each settlement dictionary code; -1 for absent or unknown. */
export function settlementIndex(store: RowStore): Int8Array {
  const values = store.dict.settlement.values;
  const out = new Int8Array(values.length).fill(-1);
  values.forEach((v, c) => {
    if (c > 0) out[c] = (SETTLEMENTS as readonly string[]).indexOf(v);
  });
  return out;
}

/** The bigint of each code of a decimal-string column (undefined where not a decimal). */
export function decimalColumn(store: RowStore, column: 'attemptedCost' | 'budgetTotal' | 'budgetRemaining' | 'grantIndex'): (bigint | undefined)[] {
  return store.dict[column].values.map((v) => (/^\d{1,20}$/.test(v) ? BigInt(v) : undefined));
}

const byCurrency = (a: { currency: string }, b: { currency: string }) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0);

/** Totals per currency over the verified financial receipts. */
export function currencyTotals(store: RowStore, scope: VerifiedScope): CurrencyTotals[] {
  const curCodes = store.codes.currency;
  const settle = store.codes.settlement;
  const attCodes = store.codes.attemptedCost;
  const status = settlementIndex(store);
  const attempted = decimalColumn(store, 'attemptedCost');
  const totals: (CurrencyTotals | undefined)[] = [];
  for (const row of scope.rows) {
    const c = curCodes[row]!;
    if (c === 0) continue;
    const t = (totals[c] ??= { currency: store.dict.currency.values[c]!, receipts: 0, charged: 0n, settlement: emptySplits(), denials: 0, attempted: 0n });
    const cost = store.hasCost[row] ? store.cost[row]! : 0n;
    t.receipts++;
    t.charged += cost;
    const s = status[settle[row]!]!;
    if (s >= 0) {
      const split = t.settlement[SETTLEMENTS[s]!];
      split.amount += cost;
      split.receipts++;
    }
    const a = attCodes[row]! ? attempted[attCodes[row]!] : undefined;
    if (a !== undefined) {
      t.denials++;
      t.attempted += a;
    }
  }
  return totals.filter((t): t is CurrencyTotals => t !== undefined).sort(byCurrency);
}

/** Totals per (root budget holder, currency) over the verified financial receipts. */
export function holderTotals(store: RowStore, scope: VerifiedScope): HolderTotals[] {
  const { codes, dict } = store;
  const curSize = dict.currency.values.length;
  const grantSize = dict.grantIndex.values.length;
  const totalOf = decimalColumn(store, 'budgetTotal');
  const attempted = decimalColumn(store, 'attemptedCost');
  const holders = new Map<number, HolderTotals>();
  const seenBudgets = new Set<number>();
  for (const row of scope.rows) {
    const c = codes.currency[row]!;
    const h = codes.rootBudgetHolder[row]!;
    if (c === 0 || h === 0) continue;
    const key = h * curSize + c;
    let t = holders.get(key);
    if (!t)
      holders.set(
        key,
        (t = {
          holder: dict.rootBudgetHolder.values[h]!,
          currency: dict.currency.values[c]!,
          budgets: 0,
          granted: 0n,
          receipts: 0,
          charged: 0n,
          denials: 0,
          attempted: 0n,
        }),
      );
    t.receipts++;
    if (store.hasCost[row]) t.charged += store.cost[row]!;
    const a = codes.attemptedCost[row]! ? attempted[codes.attemptedCost[row]!] : undefined;
    if (a !== undefined) {
      t.denials++;
      t.attempted += a;
    }
    // A budget is counted once, for the holder of its first verified receipt.
    const budget = codes.capabilityId[row]! * grantSize + codes.grantIndex[row]!;
    if (!seenBudgets.has(budget)) {
      seenBudgets.add(budget);
      t.budgets++;
      t.granted += totalOf[codes.budgetTotal[row]!] ?? 0n;
    }
  }
  return [...holders.values()].sort((a, b) => (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : byCurrency(a, b)));
}

export interface BudgetRow {
  /** The report's group (contract §9: receipts whose signature passed). */
  group: BudgetGroup;
  /** How many of the group's receipts are verified (its financial rows in the verified scope). */
  verified: number;
  /** The explorer over the group's receipts (all verdicts). */
  explorer: ExplorerFilter;
}

/** The report's budget groups (§9, in log order of their first receipt), with their verified receipt counts. */
export function budgetRows(store: RowStore, scope: VerifiedScope, report: VerificationReport): { rows: BudgetRow[]; breaks: number } {
  const { codes, dict } = store;
  const grantSize = dict.grantIndex.values.length;
  const verified = new Map<number, number>();
  for (const row of scope.rows) {
    if (codes.currency[row] === 0 || codes.grantIndex[row] === 0) continue;
    const key = codes.capabilityId[row]! * grantSize + codes.grantIndex[row]!;
    verified.set(key, (verified.get(key) ?? 0) + 1);
  }
  let breaks = 0;
  const rows = report.finance.budgets.map((group) => {
    const cap = dict.capabilityId.lookup(group.capability_id);
    const grant = dict.grantIndex.lookup(group.grant_index.toString());
    breaks += group.breaks.length;
    return {
      group,
      verified: cap !== undefined && grant !== undefined ? (verified.get(cap * grantSize + grant) ?? 0) : 0,
      explorer: {
        values: { capabilityId: [group.capability_id], grantIndex: [group.grant_index.toString()] },
        sort: { column: 'order', dir: 'asc' },
      } satisfies ExplorerFilter,
    };
  });
  return { rows, breaks };
}

function listOf(store: RowStore, rows: Uint32Array, amountOf: (row: number) => bigint): RowList {
  const totals: (CurrencyAmount | undefined)[] = [];
  for (const row of rows) {
    const c = store.codes.currency[row]!;
    const t = (totals[c] ??= { currency: store.dict.currency.values[c]!, amount: 0n, receipts: 0 });
    t.amount += amountOf(row);
    t.receipts++;
  }
  return { rows, totals: totals.filter((t): t is CurrencyAmount => t !== undefined).sort(byCurrency) };
}

export interface SettlementView {
  /** The time of the log's last verified receipt (Unix seconds), null when none has a usable time. */
  lastTime: number | null;
  pendingHours: number;
  /** Pending receipts timed before this (lastTime − pendingHours) are long pending; null without a lastTime. */
  cutoff: number | null;
  failed: RowList;
  pending: RowList;
  longPending: RowList;
}

export const PENDING_HOURS_DEFAULT = 24;

/**
 * Failed and pending settlements among the verified receipts. "Long pending":
 * still pending, and timed more than `pendingHours` before the log's last
 * verified receipt (the log's own clock, not the reader's).
 */
export function settlementLists(store: RowStore, scope: VerifiedScope, pendingHours = PENDING_HOURS_DEFAULT): SettlementView {
  const settle = store.codes.settlement;
  const failedCode = store.dict.settlement.lookup('failed') ?? -1;
  const pendingCode = store.dict.settlement.lookup('pending') ?? -1;
  let lastTime = -Infinity;
  for (const row of scope.rows) if (store.time[row]! > lastTime) lastTime = store.time[row]!;
  const cutoff = Number.isFinite(lastTime) ? lastTime - pendingHours * 3600 : null;
  const failed: number[] = [];
  const pending: number[] = [];
  const longPending: number[] = [];
  for (const row of scope.rows) {
    const s = settle[row];
    if (s === failedCode) failed.push(row);
    else if (s === pendingCode) {
      pending.push(row);
      if (cutoff !== null && store.time[row]! < cutoff) longPending.push(row);
    }
  }
  const charged = (row: number) => (store.hasCost[row] ? store.cost[row]! : 0n);
  return {
    lastTime: cutoff === null ? null : lastTime,
    pendingHours,
    cutoff,
    failed: listOf(store, Uint32Array.from(failed), charged),
    pending: listOf(store, Uint32Array.from(pending), charged),
    longPending: listOf(store, Uint32Array.from(longPending), charged),
  };
}

/** Budget denials (attempted_cost set, contract §9) among the verified receipts, with the attempted amounts per currency. */
export function budgetDenials(store: RowStore, scope: VerifiedScope): RowList {
  const attCodes = store.codes.attemptedCost;
  const attempted = decimalColumn(store, 'attemptedCost');
  const rows: number[] = [];
  for (const row of scope.rows) if (attCodes[row] !== 0 && store.codes.currency[row] !== 0 && attempted[attCodes[row]!] !== undefined) rows.push(row);
  return listOf(store, Uint32Array.from(rows), (row) => attempted[attCodes[row]!]!);
}
