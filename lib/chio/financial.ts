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

/** OracleConversionEvidence (chio-format.md §6), integers as exact decimal strings (`original_cost_units` may be wei, above 2^53). */
export interface OracleEvidence {
  base: string;
  quote: string;
  authority: string;
  source: string;
  feedAddress: string;
  originalCurrency: string;
  grantCurrency: string;
  rateNumerator: string;
  rateDenominator: string;
  updatedAt: string;
  maxAgeSeconds: string;
  cacheAgeSeconds: string;
  convertedCostUnits: string;
  originalCostUnits: string;
}

export const ORACLE_SCHEMA = 'chio.oracle-conversion-evidence.v1';

/**
 * Reads `metadata.financial.oracle_evidence` for display (the finance view);
 * undefined when absent. Not a verification input: the evidence is signed as
 * part of `metadata`, and its shape does not change any verdict.
 */
export function parseOracleEvidence(metadata: JsonValue | undefined): { ok: true; value: OracleEvidence } | { ok: false; error: string } | undefined {
  if (!isJsonObject(metadata)) return undefined;
  const fin = metadata.get('financial');
  if (!isJsonObject(fin)) return undefined;
  const ev = fin.get('oracle_evidence');
  if (ev === undefined || ev === null) return undefined;
  const path = '$.metadata.financial.oracle_evidence';
  if (!isJsonObject(ev)) return { ok: false, error: `${path} is not an object` };
  const sink: ProjectionSink = { issues: [], unsigned: [] };
  const p = new ObjectProjector(ev, path, sink);
  const schema = p.string('schema');
  const s = (k: string) => p.string(k) ?? '';
  const n = (k: string) => p.u64(k)?.toString() ?? '';
  const value: OracleEvidence = {
    base: s('base'),
    quote: s('quote'),
    authority: s('authority'),
    source: s('source'),
    feedAddress: s('feed_address'),
    originalCurrency: s('original_currency'),
    grantCurrency: s('grant_currency'),
    rateNumerator: n('rate_numerator'),
    rateDenominator: n('rate_denominator'),
    updatedAt: n('updated_at'),
    maxAgeSeconds: n('max_age_seconds'),
    cacheAgeSeconds: n('cache_age_seconds'),
    convertedCostUnits: n('converted_cost_units'),
    originalCostUnits: n('original_cost_units'),
  };
  if (schema !== undefined && schema !== ORACLE_SCHEMA)
    sink.issues.push({ path: `${path}.schema`, message: `expected ${ORACLE_SCHEMA}, found ${JSON.stringify(schema)}` });
  if (sink.issues.length > 0) return { ok: false, error: sink.issues.map((i) => `${i.path}: ${i.message}`).join('; ') };
  return { ok: true, value };
}
