// Budgets of the demo's monetary grants: what a call costs, and the metadata.financial that keeps every budget reconciling (contract §9).
//
// Per (capability_id, grant_index) the first financial receipt has budget_remaining =
// budget_total − cost_charged and each next one the previous remaining − cost_charged; total and
// currency never change. A call the budget cannot cover is a budget denial: cost_charged 0,
// attempted_cost = the refused cost, remaining unchanged. Amounts are bigint minor units.
import type { Budget, Capability } from './actors';
import type { ToolSpec } from './catalog';
import { major } from './content';
import type { Prng } from './prng';

/** What one call under a budgeted grant would cost, decided before the guards run. */
export interface Quote {
  budget: Budget;
  grantIndex: number;
  costMinor: bigint;
  /** ETH transfers: the amount in wei and the oracle conversion into the grant currency. */
  wei?: bigint;
  oracle?: Record<string, unknown>;
}

export type Outcome = 'charged' | 'budget_denied' | 'not_charged';

const WEI_PER_ETH = 10n ** 18n;
/** Chainlink ETH/USD aggregator, as in Chio's anchor example. */
const ETH_USD_FEED = '0x639Fe6ab55C921f74e7fac1ee960C0B6293ba612';

export class Finance {
  /** ETH price in US cents; a deterministic random walk. */
  private ethCents = 331_245;

  constructor(private readonly r: Prng) {}

  /** The cost of a call under grant `grantIndex` of `cap`, or undefined when that grant has no budget. */
  quote(cap: Capability, grantIndex: number, tool: ToolSpec, now: number): Quote | undefined {
    const budget = cap.budgets.get(grantIndex);
    if (!budget) return undefined;
    const r = this.r;
    const base = { budget, grantIndex };
    if (tool.tool === 'transfer_funds' && cap.agent.eth && r.chance(0.4)) return { ...base, ...this.ethQuote(now, budget.currency) };
    let cost: bigint;
    if (tool.money === 'metered') cost = BigInt(tool.tool === 'sql_query' ? r.int(5, 900) : r.int(1, 45));
    else if (tool.tool === 'refund') cost = BigInt(r.int(300, 30_000));
    else
      cost = BigInt(
        r.weighted([
          [r.int(500, 20_000), 60],
          [r.int(20_000, 120_000), 35],
          [r.int(120_000, 400_000), 5],
        ]),
      );
    // Now and then an agent tries to spend more than is left: the budget guard refuses it.
    if (r.chance(0.04)) cost = budget.remaining + BigInt(r.int(1, Number(budget.total / 4n)));
    return { ...base, costMinor: cost };
  }

  private ethQuote(now: number, currency: string): Omit<Quote, 'budget' | 'grantIndex'> {
    const r = this.r;
    this.ethCents = Math.max(250_000, Math.min(420_000, this.ethCents + r.int(-1500, 1500)));
    const wei = BigInt(r.int(10_000, 250_000)) * 10n ** 12n + BigInt(r.int(0, 999_999_999)); // 0.01–0.25 ETH, > 2^53
    const rateNumerator = BigInt(this.ethCents);
    const rateDenominator = 100n; // USD per ETH = numerator / denominator
    const converted = (wei * rateNumerator * 100n) / (rateDenominator * WEI_PER_ETH); // in cents
    const cacheAge = r.int(0, 600);
    const oracle = {
      schema: 'chio.oracle-conversion-evidence.v1',
      base: 'ETH',
      quote: currency,
      authority: 'chio_link_runtime_v1',
      rate_numerator: rateNumerator,
      rate_denominator: rateDenominator,
      source: 'chainlink',
      feed_address: ETH_USD_FEED,
      updated_at: now - cacheAge,
      max_age_seconds: 3600,
      cache_age_seconds: cacheAge,
      converted_cost_units: converted,
      original_cost_units: wei,
      original_currency: 'ETH',
      grant_currency: currency,
    };
    return { costMinor: converted, wei, oracle };
  }

  /** True when the budget cannot cover the quoted cost. */
  exceeds(q: Quote): boolean {
    return q.costMinor > q.budget.remaining;
  }

  /** metadata.financial for the call's outcome; charging updates the running budget. */
  financial(cap: Capability, q: Quote, outcome: Outcome, tool: ToolSpec): Record<string, unknown> {
    const r = this.r;
    const charged = outcome === 'charged';
    if (charged) q.budget.remaining -= q.costMinor;
    let settlement = 'not_applicable';
    if (charged) {
      settlement =
        tool.money === 'payment'
          ? r.weighted([
              ['settled', 78],
              ['pending', 17],
              ['failed', 5],
            ])
          : r.weighted([
              ['settled', 60],
              ['pending', 40],
            ]);
    }
    let reference: string | undefined;
    if (charged && tool.money === 'payment') reference = `${tool.tool === 'refund' ? 'rfnd' : 'pay'}_${r.hex(14)}`;
    else if (charged && settlement === 'settled') reference = `inv-2026-${cap.agent.name}-${r.hex(6)}`;
    let breakdown: Record<string, bigint> | undefined;
    if (charged && tool.tool === 'sql_query' && q.costMinor > 1n) {
      const compute = (q.costMinor * BigInt(r.int(55, 90))) / 100n;
      breakdown = { compute, storage_scan: q.costMinor - compute };
    }
    return {
      grant_index: q.grantIndex,
      cost_charged: charged ? q.costMinor : 0n,
      currency: q.budget.currency,
      budget_remaining: q.budget.remaining,
      budget_total: q.budget.total,
      delegation_depth: cap.depth,
      root_budget_holder: cap.agent.org.id,
      settlement_status: settlement,
      payment_reference: reference,
      cost_breakdown: breakdown,
      oracle_evidence: outcome === 'not_charged' ? undefined : q.oracle,
      attempted_cost: outcome === 'budget_denied' ? q.costMinor : undefined,
    };
  }
}

/** The budget guard's evidence text for a quote: pass details, or the denial's reason and details. */
export function budgetTexts(q: Quote): { pass: string; reason: string; details: string } {
  const cur = q.budget.currency;
  return {
    pass: `charge ${q.costMinor} ${cur} minor units within remaining ${q.budget.remaining}`,
    reason: `budget exhausted: attempted ${major(q.costMinor)} ${cur} with ${major(q.budget.remaining)} ${cur} remaining`,
    details: `attempted_cost ${q.costMinor} exceeds budget_remaining ${q.budget.remaining} (grant ${q.grantIndex}, total ${q.budget.total} ${cur})`,
  };
}
