// Server side only: the fleet's index figures (issue 9), `GET /v1/fleet/kernels` and
// `GET /v1/fleet/summary`: counts and cost sums computed in the ClickHouse cluster. They are the
// index's figures, not verified ones, and the responses say so (`figures: 'index'`).
import type { FleetKernels, FleetSummary } from '../../lib/query/fleet-api';
import type { ReceiptQuery } from '../../lib/query/receipt-query';
import type { ClickHouse } from './clickhouse';
import { receiptFilter } from './query';
import { sql } from './sql';

/** `GET /v1/fleet/kernels`: every kernel of the fleet with its index figures. */
export async function fleetKernels(ch: ClickHouse): Promise<FleetKernels> {
  const [receipts, checkpoints, proofs] = await Promise.all([
    ch.rows<
      Record<string, string>
    >(sql`SELECT kernel_key, countIf(kind = 'tool') AS tool, countIf(kind = 'child') AS child, countIf(kind = 'tool' AND checkpoint_seq > 0) AS covered,
      countIf(kind = 'tool' AND decision_kind = 'deny') AS denied, min(timestamp) AS first, max(timestamp) AS last FROM receipts GROUP BY kernel_key ORDER BY kernel_key`),
    ch.rows<Record<string, string>>(sql`SELECT kernel_key, count() AS n FROM checkpoints GROUP BY kernel_key`),
    ch.rows<Record<string, string>>(sql`SELECT kernel_key, count() AS n FROM proofs GROUP BY kernel_key`),
  ]);
  const cps = new Map(checkpoints.map((r) => [r.kernel_key!, r.n!]));
  const prs = new Map(proofs.map((r) => [r.kernel_key!, r.n!]));
  const keys = [...new Set([...receipts.map((r) => r.kernel_key!), ...cps.keys()])].sort();
  const byKey = new Map(receipts.map((r) => [r.kernel_key!, r]));
  return {
    figures: 'index',
    kernels: keys.map((k) => {
      const r = byKey.get(k);
      return {
        kernelKey: k,
        toolReceipts: r?.tool ?? '0',
        childReceipts: r?.child ?? '0',
        checkpointedReceipts: r?.covered ?? '0',
        inclusionProofs: prs.get(k) ?? '0',
        checkpoints: cps.get(k) ?? '0',
        denied: r?.denied ?? '0',
        firstTimestamp: r?.first ?? '0',
        lastTimestamp: r?.last ?? '0',
      };
    }),
  };
}

/**
 * `GET /v1/fleet/summary?<filters>`: the filter set's matches per kernel and per outcome, and per
 * currency the sum of their cost_charged (Decimal128: exact up to 38 digits; a longer cost is
 * counted apart, not summed). Index figures.
 */
export async function fleetSummary(ch: ClickHouse, q: ReceiptQuery): Promise<FleetSummary> {
  const where = receiptFilter(q);
  const [byKernel, byOutcome, costs] = await Promise.all([
    ch.rows<{ kernel_key: string; n: string }>(sql`SELECT kernel_key, count() AS n FROM receipts WHERE ${where} GROUP BY kernel_key ORDER BY kernel_key`),
    ch.rows<{ decision_kind: string; n: string }>(
      sql`SELECT decision_kind, count() AS n FROM receipts WHERE ${where} GROUP BY decision_kind ORDER BY decision_kind`,
    ),
    ch.rows<{ currency: string; sum: string; receipts: string; notSummed: string }>(
      sql`SELECT currency, toString(sum(toDecimal128(if(length(cost_digits) > 38, '0', cost_digits), 0))) AS sum, count() AS receipts,
        countIf(length(cost_digits) > 38) AS notSummed FROM receipts WHERE ${where} AND cost_digits != '' GROUP BY currency ORDER BY currency`,
    ),
  ]);
  return {
    figures: 'index',
    byKernel: Object.fromEntries(byKernel.map((r) => [r.kernel_key, r.n])),
    byOutcome: Object.fromEntries(byOutcome.map((r) => [r.decision_kind, r.n])),
    costCharged: Object.fromEntries(costs.map((r) => [r.currency, { sum: r.sum, receipts: r.receipts, notSummed: r.notSummed }])),
  };
}
