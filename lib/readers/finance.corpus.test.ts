// The finance view's numbers on real logs: corpus/good (cross-checked against
// the report's §9 section and an independent sum over its raw NDJSON),
// corpus/tampered-signature (a financial receipt that fails stays out of
// every verified total), and a generated demo store whose producer counted
// what it wrote.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoKernelKeyHex, generateDemoStore, type GenerateResult } from '../../tools/demo/generate';
import type { RowStore } from '../query/row-store';
import { verifiedLog } from '../../test/support/reader-log';
import { readTestdataJson, testdataPath } from '../../test/support/testdata';
import type { VerificationReport } from '../verdict/report';
import { parseCsv, toCsv } from '../text/csv';
import { budgetDenials, budgetRows, currencyTotals, holderTotals, SETTLEMENTS, settlementLists } from './finance';
import { budgetsCsv, currencyTotalsCsv, oracleCsv, receiptListCsv, spendCsv } from './finance-csv';
import { oracleConversions } from './finance-oracle';
import { spendOverTime } from './finance-spend';
import { type VerifiedScope, verifiedScope } from './scope';

interface RawFinancial {
  grant_index: number;
  cost_charged: number;
  currency: string;
  budget_remaining: number;
  budget_total: number;
  root_budget_holder: string;
  settlement_status: string;
  attempted_cost?: number;
}
interface RawReceipt {
  id: string;
  timestamp: number;
  capability_id: string;
  metadata?: { financial?: RawFinancial };
}

/** The corpus case's receipts, read with JSON.parse (the corpus amounts are far below 2^53). */
function rawReceipts(name: string): RawReceipt[] {
  const text = readFileSync(testdataPath(`corpus/${name}/receipts.ndjson`), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { receipt: RawReceipt }).receipt);
}
function rawChildTimes(name: string): number[] {
  const text = readFileSync(testdataPath(`corpus/${name}/child-receipts.ndjson`), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { receipt: { timestamp: number } }).receipt.timestamp);
}

async function open(name: string): Promise<{ store: RowStore; report: VerificationReport; scope: VerifiedScope }> {
  const expected = readTestdataJson<{ trust_keys: string[] }>(`corpus/${name}/expected.json`);
  const { store, report } = await verifiedLog([testdataPath(`corpus/${name}`)], expected.trust_keys);
  return { store, report, scope: verifiedScope(store) };
}

describe('finance on corpus/good', () => {
  let log: Awaited<ReturnType<typeof open>>;
  const raw = rawReceipts('good');
  const fin = raw.filter((r) => r.metadata?.financial);
  beforeAll(async () => {
    log = await open('good');
  });

  it('every receipt is verified, so the verified totals cover all 54 financial receipts', () => {
    expect(log.scope.rows.length).toBe(280);
    expect(fin.length).toBe(54);
  });

  it('budget rows are the report’s §9 groups, and each equals a sum over the raw receipts', () => {
    const { rows, breaks } = budgetRows(log.store, log.scope, log.report);
    expect(rows.map((r) => r.group)).toEqual(log.report.finance.budgets);
    expect(breaks).toBe(0);
    for (const r of rows) {
      const mine = fin.filter((x) => x.capability_id === r.group.capability_id && BigInt(x.metadata!.financial!.grant_index) === r.group.grant_index);
      const f = mine.map((x) => x.metadata!.financial!);
      expect(r.verified).toBe(mine.length);
      expect(r.group.receipts).toBe(mine.length);
      expect(r.group.charged).toBe(BigInt(f.reduce((a, x) => a + x.cost_charged, 0)));
      expect(r.group.remaining).toBe(BigInt(f.at(-1)!.budget_remaining));
      for (const s of ['settled', 'pending', 'failed'] as const) {
        expect(r.group.by_settlement[s]).toBe(BigInt(f.filter((x) => x.settlement_status === s).reduce((a, x) => a + x.cost_charged, 0)));
      }
      expect(r.explorer.values).toEqual({ capabilityId: [r.group.capability_id], grantIndex: [r.group.grant_index.toString()] });
    }
  });

  it('totals per currency equal an independent sum over receipts.ndjson, and the report’s budgets per currency', () => {
    const totals = currencyTotals(log.store, log.scope);
    expect(totals.map((t) => t.currency)).toEqual(['EUR', 'USD']);
    for (const t of totals) {
      const f = fin.map((x) => x.metadata!.financial!).filter((x) => x.currency === t.currency);
      expect(t.receipts).toBe(f.length);
      expect(t.charged).toBe(BigInt(f.reduce((a, x) => a + x.cost_charged, 0)));
      for (const s of SETTLEMENTS) {
        const mine = f.filter((x) => x.settlement_status === s);
        expect(t.settlement[s]).toEqual({ amount: BigInt(mine.reduce((a, x) => a + x.cost_charged, 0)), receipts: mine.length });
      }
      expect(t.denials).toBe(0);
      expect(t.charged).toBe(log.report.finance.budgets.filter((b) => b.currency === t.currency).reduce((a, b) => a + b.charged, 0n));
    }
    expect(totals.find((t) => t.currency === 'USD')!.charged).toBe(123413n);
    expect(totals.find((t) => t.currency === 'EUR')!.charged).toBe(138367n);
  });

  it('totals per root budget holder', () => {
    expect(holderTotals(log.store, log.scope)).toEqual([
      { holder: 'org-acme', currency: 'USD', budgets: 1, granted: 500000n, receipts: 27, charged: 123413n, denials: 0, attempted: 0n },
      { holder: 'org-globex', currency: 'EUR', budgets: 1, granted: 250000n, receipts: 27, charged: 138367n, denials: 0, attempted: 0n },
    ]);
  });

  it('failed and pending settlements; long pending is measured from the log’s last receipt', () => {
    const last = Math.max(...raw.map((r) => r.timestamp), ...rawChildTimes('good'));
    const byStatus = (s: string) => fin.filter((x) => x.metadata!.financial!.settlement_status === s);
    for (const hours of [24, 1, 2]) {
      const v = settlementLists(log.store, log.scope, hours);
      expect(v.lastTime).toBe(last);
      expect(v.cutoff).toBe(last - hours * 3600);
      expect([...v.failed.rows].map((r) => log.store.str('id', r))).toEqual(byStatus('failed').map((x) => x.id));
      expect([...v.pending.rows].map((r) => log.store.str('id', r))).toEqual(byStatus('pending').map((x) => x.id));
      const long = byStatus('pending')
        .filter((x) => x.timestamp < last - hours * 3600)
        .map((x) => x.id);
      expect([...v.longPending.rows].map((r) => log.store.str('id', r))).toEqual(long);
      expect(v.longPending.totals.reduce((a, t) => a + t.receipts, 0)).toBe(long.length);
    }
    // The log spans about 2.6 hours: nothing has waited a day, some payments more than an hour.
    expect(settlementLists(log.store, log.scope, 24).longPending.rows.length).toBe(0);
    expect(settlementLists(log.store, log.scope, 1).longPending.rows.length).toBeGreaterThan(0);
    expect(settlementLists(log.store, log.scope).failed.totals.map((t) => [t.currency, t.amount])).toEqual([
      ['EUR', 32531n],
      ['USD', 17314n],
    ]);
  });

  it('spend over time: hourly buckets whose sums are the currency totals, each receipt in its own hour', () => {
    const spend = spendOverTime(log.store, log.scope);
    expect(spend.bucketLabel).toBe('hour');
    const times = fin.map((x) => x.timestamp);
    expect(spend.start).toBe(Math.floor(Math.min(...times) / 3600) * 3600);
    expect(spend.count).toBe(Math.floor(Math.max(...times) / 3600) - Math.floor(Math.min(...times) / 3600) + 1);
    for (const s of spend.series) {
      for (const k of SETTLEMENTS) {
        for (let i = 0; i < spend.count; i++) {
          const mine = fin.filter(
            (x) =>
              x.metadata!.financial!.currency === s.currency &&
              x.metadata!.financial!.settlement_status === k &&
              Math.floor((x.timestamp - spend.start) / 3600) === i,
          );
          expect(s.amount[k][i]).toBe(BigInt(mine.reduce((a, x) => a + x.metadata!.financial!.cost_charged, 0)));
          expect(s.receipts[k][i]).toBe(mine.length);
        }
      }
      expect(s.untimed).toBe(0);
    }
  });

  it('CSV exports hold every row, with exact minor units beside the formatted amount', () => {
    const budgets = parseCsv(toCsv(budgetsCsv(budgetRows(log.store, log.scope, log.report).rows)));
    expect(budgets.length).toBe(1 + log.report.finance.budgets.length);
    const h = budgets[0]!;
    const usd = budgets.find((r) => r[h.indexOf('currency')] === 'USD')!;
    expect(usd[h.indexOf('charged_minor')]).toBe('123413');
    expect(usd[h.indexOf('charged')]).toBe('1,234.13 USD');
    const cur = parseCsv(toCsv(currencyTotalsCsv(currencyTotals(log.store, log.scope))));
    expect(cur.map((r) => r[0])).toEqual(['currency', 'EUR', 'USD']);
    const failed = settlementLists(log.store, log.scope).failed;
    const failedCsv = parseCsv(toCsv(receiptListCsv(log.store, failed, 'failed.csv', 'charged')));
    expect(failedCsv.length).toBe(1 + 11);
    expect(failedCsv.slice(1).reduce((a, r) => a + BigInt(r[failedCsv[0]!.indexOf('charged_minor')]!), 0n)).toBe(32531n + 17314n);
    const spend = parseCsv(toCsv(spendCsv(spendOverTime(log.store, log.scope))));
    expect(spend.slice(1).reduce((a, r) => a + Number(r[spend[0]!.indexOf('receipts')]), 0)).toBe(54);
  });
});

describe('finance on corpus/tampered-signature', () => {
  it('the receipt whose signature fails is in no verified total, and §9 lists it as excluded', async () => {
    const log = await open('tampered-signature');
    const bad = 'rcpt-000007-fb1061b9';
    expect(log.report.finance.excluded).toContain(bad);
    const f = rawReceipts('tampered-signature').find((r) => r.id === bad)!.metadata!.financial!;
    const good = await open('good');
    const before = currencyTotals(good.store, good.scope).find((t) => t.currency === f.currency)!;
    const after = currencyTotals(log.store, log.scope).find((t) => t.currency === f.currency)!;
    expect(after.receipts).toBe(before.receipts - 1);
    expect(after.charged).toBe(before.charged - BigInt(f.cost_charged));
    const row = budgetRows(log.store, log.scope, log.report).rows.find((r) => r.group.currency === f.currency)!;
    expect(row.verified).toBe(row.group.receipts);
  });
});

describe('finance on a generated demo store of known totals', () => {
  let run: GenerateResult;
  let log: { store: RowStore; report: VerificationReport; scope: VerifiedScope };
  beforeAll(async () => {
    run = await generateDemoStore({ count: 1500, out: mkdtempSync(path.join(tmpdir(), 'ra-finance-')) });
    const { store, report } = await verifiedLog([run.storePath], [demoKernelKeyHex()]);
    log = { store, report, scope: verifiedScope(store) };
  }, 60_000);

  it('every receipt verifies; the totals per currency are what the producer wrote', () => {
    expect(log.scope.left).toEqual({ failed: 0, unverified: 0, unpinned: 0, pending: 0 });
    const totals = currencyTotals(log.store, log.scope);
    expect(totals.map((t) => t.currency)).toEqual(Object.keys(run.counts.money).sort());
    for (const t of totals) {
      const m = run.counts.money[t.currency]!;
      expect({
        receipts: t.receipts,
        charged: t.charged,
        settled: t.settlement.settled.amount,
        pending: t.settlement.pending.amount,
        failed: t.settlement.failed.amount,
        attempted: t.attempted,
        denials: t.denials,
      }).toEqual(m);
    }
  });

  it('holders, denials and budgets add up to the same totals', () => {
    const holders = holderTotals(log.store, log.scope);
    for (const [currency, m] of Object.entries(run.counts.money)) {
      const mine = holders.filter((h) => h.currency === currency);
      expect(mine.reduce((a, h) => a + h.charged, 0n)).toBe(m.charged);
      expect(mine.reduce((a, h) => a + h.receipts, 0)).toBe(m.receipts);
    }
    expect(holders.reduce((a, h) => a + h.budgets, 0)).toBe(run.counts.budgetGroups);
    const denials = budgetDenials(log.store, log.scope);
    expect(denials.rows.length).toBe(run.counts.budgetDenials);
    expect(denials.rows.length).toBeGreaterThan(0);
    for (const row of denials.rows) expect(log.store.str('guard', row)).toBe('budget');
    const { rows } = budgetRows(log.store, log.scope, log.report);
    expect(rows.length).toBe(run.counts.budgetGroups);
    expect(rows.every((r) => r.verified === r.group.receipts)).toBe(true);
  });

  it('oracle conversions keep wei exact: their sum is the producer’s', () => {
    const o = oracleConversions(log.store, log.scope);
    expect(o.rows.length).toBe(run.counts.oracleReceipts);
    expect(o.malformed).toBe(0);
    expect(o.pairs.reduce((a, p) => a + p.original, 0n)).toBe(run.counts.oracleOriginalUnits);
    expect(run.counts.oracleOriginalUnits).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    const csv = parseCsv(toCsv(oracleCsv(log.store, o)));
    const h = csv[0]!;
    expect(csv.slice(1).reduce((a, r) => a + BigInt(r[h.indexOf('original_cost_units')]!), 0n)).toBe(run.counts.oracleOriginalUnits);
  });

  it('spend over time adds up to the charged totals per currency', () => {
    const spend = spendOverTime(log.store, log.scope);
    for (const s of spend.series) {
      const sum = SETTLEMENTS.reduce((a, k) => a + s.amount[k].reduce((x, y) => x + y, 0n), 0n);
      expect(sum).toBe(run.counts.money[s.currency]!.charged);
    }
  });
});
