// Budget reconciliation (contract §9): financial receipts grouped by
// (capability_id, grant_index) in log order; each budget_remaining must follow
// from budget_total and the charges before it. Amounts are integer minor units
// summed exactly with BigInt. Only receipts whose signature passed count.
import type { FinancialMetadata } from '../chio/types';
import type { BudgetGroup, FinanceReport } from '../verdict/report';

export interface FinanceReceipt {
  id: string;
  capabilityId: string;
  financial?: FinancialMetadata;
  financialError?: string;
  /** Whether the receipt's signature check passed. */
  signatureValid: boolean;
}

interface Running {
  group: BudgetGroup;
  lastRemaining: bigint;
}

function groupKey(capabilityId: string, grantIndex: bigint): string {
  return JSON.stringify([capabilityId, grantIndex.toString()]);
}

/** Reconciles financial receipts given in log order. */
export function reconcileBudgets(receipts: Iterable<FinanceReceipt>): FinanceReport {
  const groups = new Map<string, Running>();
  // Receipts left out since a group's last counted receipt (their claimed group; used only to explain breaks).
  const leftOut = new Map<string, string[]>();
  const report: FinanceReport = { budgets: [], excluded: [], malformed: [] };
  for (const r of receipts) {
    if (r.financialError !== undefined) {
      if (r.signatureValid) report.malformed.push({ receipt_id: r.id, error: r.financialError });
      else report.excluded.push(r.id);
      continue;
    }
    const f = r.financial;
    if (!f) continue;
    const key = groupKey(r.capabilityId, f.grantIndex);
    if (!r.signatureValid) {
      report.excluded.push(r.id);
      leftOut.set(key, [...(leftOut.get(key) ?? []), r.id]);
      continue;
    }
    let run = groups.get(key);
    const rules: string[] = [];
    if (!run) {
      run = {
        group: {
          capability_id: r.capabilityId,
          grant_index: f.grantIndex,
          currency: f.currency,
          root_budget_holder: f.rootBudgetHolder,
          budget_total: f.budgetTotal,
          charged: 0n,
          remaining: f.budgetRemaining,
          receipts: 0,
          by_settlement: { settled: 0n, pending: 0n, failed: 0n },
          breaks: [],
          break_details: [],
        },
        lastRemaining: f.budgetTotal,
      };
      groups.set(key, run);
      report.budgets.push(run.group);
      const expected = f.budgetTotal - f.costCharged;
      if (f.budgetRemaining !== expected) {
        rules.push(`first receipt: budget_remaining ${f.budgetRemaining} ≠ budget_total ${f.budgetTotal} − cost_charged ${f.costCharged} = ${expected}`);
      }
    } else {
      const g = run.group;
      const expected = run.lastRemaining - f.costCharged;
      if (f.budgetRemaining !== expected) {
        rules.push(`budget_remaining ${f.budgetRemaining} ≠ previous ${run.lastRemaining} − cost_charged ${f.costCharged} = ${expected}`);
      }
      if (f.budgetTotal !== g.budget_total) rules.push(`budget_total changed from ${g.budget_total} to ${f.budgetTotal}`);
      if (f.currency !== g.currency) rules.push(`currency changed from ${g.currency} to ${f.currency}`);
    }
    if (f.attemptedCost !== undefined && f.costCharged !== 0n) {
      rules.push(`a budget denial (attempted_cost ${f.attemptedCost}) must charge 0, but cost_charged is ${f.costCharged}`);
    }
    const g = run.group;
    g.receipts++;
    g.charged += f.costCharged;
    g.remaining = f.budgetRemaining;
    run.lastRemaining = f.budgetRemaining;
    const status = f.settlementStatus;
    if (status === 'settled' || status === 'pending' || status === 'failed') g.by_settlement[status] += f.costCharged;
    const gap = leftOut.get(key);
    leftOut.delete(key);
    if (rules.length > 0 && gap)
      rules.push(`before it, ${gap.join(', ')} of this group ${gap.length > 1 ? 'were' : 'was'} left out because the signature did not pass`);
    if (rules.length > 0) {
      g.breaks.push(r.id);
      g.break_details.push({ receipt_id: r.id, rule: rules.join('; ') });
    }
  }
  return report;
}
