// Oracle conversions for the finance view: the verified receipts that carry
// `metadata.financial.oracle_evidence` (chio-format.md §6), decoded from the
// row store's `oracle` column with every integer kept as an exact decimal
// (original_cost_units is often wei, above 2^53), and totals per conversion
// pair summed as bigints. Pure.
import type { OracleEvidence } from '../chio/financial';
import type { RowStore } from '../query/row-store';
import type { VerifiedScope } from './scope';

const TEXT_FIELDS = ['base', 'quote', 'authority', 'source', 'feedAddress', 'originalCurrency', 'grantCurrency'] as const;
const INT_FIELDS = ['rateNumerator', 'rateDenominator', 'updatedAt', 'maxAgeSeconds', 'cacheAgeSeconds', 'convertedCostUnits', 'originalCostUnits'] as const;

export type OracleDecoded = { ok: true; value: OracleEvidence } | { ok: false; error: string };

/** Decodes the `oracle` column's JSON text (written by lib/verify/receipt-view.ts). */
export function decodeOracle(text: string): OracleDecoded {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: 'unreadable oracle column' };
  }
  if (typeof v !== 'object' || v === null) return { ok: false, error: 'unreadable oracle column' };
  const o = v as Record<string, unknown>;
  if (typeof o.error === 'string') return { ok: false, error: o.error };
  for (const k of TEXT_FIELDS) if (typeof o[k] !== 'string') return { ok: false, error: `oracle evidence without ${k}` };
  for (const k of INT_FIELDS)
    if (typeof o[k] !== 'string' || !/^\d{1,20}$/.test(o[k] as string)) return { ok: false, error: `oracle evidence without an integer ${k}` };
  return { ok: true, value: o as unknown as OracleEvidence };
}

/** The cache was older than the evidence allows (cache_age_seconds > max_age_seconds). */
export function isStale(e: OracleEvidence): boolean {
  return BigInt(e.cacheAgeSeconds) > BigInt(e.maxAgeSeconds);
}

export interface OraclePair {
  originalCurrency: string;
  grantCurrency: string;
  receipts: number;
  /** Sums of original_cost_units and converted_cost_units (each in its currency's minor units). */
  original: bigint;
  converted: bigint;
  stale: number;
}

export interface OracleView {
  /** Verified receipts with oracle evidence, in log order. */
  rows: Uint32Array;
  /** The decoded evidence of each dictionary code of the `oracle` column (decoded once). */
  decoded: (OracleDecoded | undefined)[];
  pairs: OraclePair[];
  /** Rows whose evidence does not have the OracleConversionEvidence shape. */
  malformed: number;
}

export function oracleConversions(store: RowStore, scope: VerifiedScope): OracleView {
  const codes = store.codes.oracle;
  const decoded: (OracleDecoded | undefined)[] = new Array(store.dict.oracle.values.length);
  const pairs = new Map<string, OraclePair>();
  const rows: number[] = [];
  let malformed = 0;
  for (const row of scope.rows) {
    const c = codes[row]!;
    if (c === 0) continue;
    rows.push(row);
    const d = (decoded[c] ??= decodeOracle(store.dict.oracle.values[c]!));
    if (!d.ok) {
      malformed++;
      continue;
    }
    const e = d.value;
    const key = JSON.stringify([e.originalCurrency, e.grantCurrency]);
    let p = pairs.get(key);
    if (!p) pairs.set(key, (p = { originalCurrency: e.originalCurrency, grantCurrency: e.grantCurrency, receipts: 0, original: 0n, converted: 0n, stale: 0 }));
    p.receipts++;
    p.original += BigInt(e.originalCostUnits);
    p.converted += BigInt(e.convertedCostUnits);
    if (isStale(e)) p.stale++;
  }
  return { rows: Uint32Array.from(rows), decoded, pairs: [...pairs.values()], malformed };
}

/** What the receipt charged (or, on a budget denial, attempted) in the grant currency, to set beside converted_cost_units. */
export function chargedOrAttempted(store: RowStore, row: number): bigint | undefined {
  const attempted = store.str('attemptedCost', row);
  if (attempted !== undefined && /^\d+$/.test(attempted)) return BigInt(attempted);
  return store.hasCost[row] ? store.cost[row]! : undefined;
}
