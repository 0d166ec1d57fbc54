// FinancialReceiptMetadata at `metadata.financial` (chio-format.md §6): parsed
// for budget reconciliation (contract §9). It is signed as part of `metadata`,
// so this is a read of signed data, never a projection.
import { type JsonValue, isJsonObject } from '../json/value';
import { ObjectProjector, type ProjectionSink } from './fields';
import type { FinancialMetadata } from './types';

export const SETTLEMENT_STATUSES = ['not_applicable', 'pending', 'settled', 'failed'] as const;

export type FinancialParse = { ok: true; value: FinancialMetadata } | { ok: false; error: string };

/** Reads `metadata.financial` when present; undefined when the receipt has none. */
export function parseFinancial(metadata: JsonValue, path: string): FinancialParse | undefined {
  if (!isJsonObject(metadata)) return undefined;
  const fin = metadata.get('financial');
  if (fin === undefined || fin === null) return undefined;
  if (!isJsonObject(fin)) return { ok: false, error: `${path} is not an object` };
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const p = new ObjectProjector(fin, path, sink);
  const grantIndex = p.u32('grant_index');
  const costCharged = p.u64('cost_charged');
  const currency = p.string('currency');
  const budgetRemaining = p.u64('budget_remaining');
  const budgetTotal = p.u64('budget_total');
  const delegationDepth = p.u32('delegation_depth');
  const rootBudgetHolder = p.string('root_budget_holder');
  const settlementStatus = p.enumOf('settlement_status', SETTLEMENT_STATUSES);
  const paymentReference = p.optString('payment_reference');
  const attemptedCost = p.optU64('attempted_cost');
  if (sink.issues.length > 0) {
    return { ok: false, error: sink.issues.map((i) => `${i.path}: ${i.message}`).join('; ') };
  }
  return {
    ok: true,
    value: {
      grantIndex: grantIndex!,
      costCharged: costCharged!,
      currency: currency!,
      budgetRemaining: budgetRemaining!,
      budgetTotal: budgetTotal!,
      delegationDepth: delegationDepth!,
      rootBudgetHolder: rootBudgetHolder!,
      settlementStatus: settlementStatus!,
      ...(paymentReference !== undefined ? { paymentReference } : {}),
      ...(attemptedCost !== undefined ? { attemptedCost } : {}),
    },
  };
}
