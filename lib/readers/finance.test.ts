// The finance aggregations on small signed logs built for the case: a budget
// break, a budget denial, wei-sized oracle evidence, an unknown currency, a
// receipt that fails verification, and a payment reference that is a formula.
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalBytes } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { genAReceipt, keyFromSeed, ndjson, type Plain, signHex, writePackage } from '../../test/support/forge';
import { verifiedLog } from '../../test/support/reader-log';
import type { RowStore } from '../query/row-store';
import type { VerificationReport } from '../verdict/report';
import { parseCsv, toCsv } from '../text/csv';
import { budgetDenials, budgetRows, currencyTotals, holderTotals, settlementLists } from './finance';
import { oracleCsv, receiptListCsv } from './finance-csv';
import { decodeOracle, oracleConversions } from './finance-oracle';
import { bucketFilter, bucketFor, spendOverTime } from './finance-spend';
import { type VerifiedScope, verifiedScope } from './scope';

const key = keyFromSeed(11);
const T0 = 1767225600; // 2026-01-01T00:00:00Z
const WEI = '123456789012345678'; // 0.123… ETH: above 2^53, within u64

const fin = (o: Partial<Record<string, unknown>>): Plain => ({
  grant_index: 0,
  cost_charged: 100,
  currency: 'USD',
  budget_remaining: 900,
  budget_total: 1000,
  delegation_depth: 0,
  root_budget_holder: 'org-a',
  settlement_status: 'settled',
  ...o,
});
const oracle = {
  schema: 'chio.oracle-conversion-evidence.v1',
  base: 'ETH',
  quote: 'USD',
  authority: 'chio_link_runtime_v1',
  rate_numerator: 331245,
  rate_denominator: 100,
  source: 'chainlink',
  feed_address: '0x639F',
  updated_at: T0,
  max_age_seconds: 60,
  cache_age_seconds: 120,
  converted_cost_units: 40,
  original_cost_units: 0,
  original_currency: 'ETH',
  grant_currency: 'USD',
};

/**
 * A signed receipt record (NDJSON line) whose `original_cost_units` is `wei`,
 * written as raw JSON digits: JSON.stringify cannot hold it in a number, so
 * the body is re-parsed losslessly and signed as Chio does (JCS of the body).
 */
function withWei(seq: number, r: Plain, wei: string): string {
  const { signature: _, ...body } = r;
  const text = JSON.stringify(body).replace('"original_cost_units":0', `"original_cost_units":${wei}`);
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  const signature = signHex(key.secret, canonicalBytes(parsed.value));
  return `{"seq":${seq},"receipt":${text.slice(0, -1)},"signature":"${signature}"}}\n`;
}

function logText(): string {
  const receipts = [
    // cap-a/0 (USD, org-a): 100, then 50, then a break (remaining should be 850 − 25 = 825), then a denial.
    genAReceipt({ seq: 1, key, financial: fin({}), extra: { timestamp: T0 } }),
    genAReceipt({
      seq: 2,
      key,
      financial: fin({ cost_charged: 50, budget_remaining: 850, settlement_status: 'pending', payment_reference: '=HYPERLINK("http://x")' }),
      extra: { timestamp: T0 + 3600 },
    }),
    genAReceipt({
      seq: 3,
      key,
      financial: fin({ cost_charged: 25, budget_remaining: 800, settlement_status: 'failed' }),
      extra: { timestamp: T0 + 2 * 86400 },
    }),
    genAReceipt({
      seq: 4,
      key,
      financial: fin({ cost_charged: 0, budget_remaining: 800, settlement_status: 'not_applicable', attempted_cost: 5000 }),
      extra: { timestamp: T0 + 2 * 86400 + 60, decision: { verdict: 'deny', reason: 'budget exhausted', guard: 'budget' } },
    }),
    // cap-b/1 (XYZ, unknown currency, org-b), with oracle evidence (wei above 2^53).
    genAReceipt({
      seq: 5,
      key,
      financial: fin({
        grant_index: 1,
        currency: 'XYZ',
        cost_charged: 40,
        budget_remaining: 60,
        budget_total: 100,
        root_budget_holder: 'org-b',
        oracle_evidence: oracle,
      }),
      extra: { timestamp: T0 + 5 * 86400, capability_id: 'cap-b' },
    }),
    // A receipt without financial metadata.
    genAReceipt({ seq: 6, key, extra: { timestamp: T0 + 6 * 86400 } }),
  ];
  // A USD receipt whose signature is then broken: left out of every verified number.
  const tampered = {
    ...genAReceipt({
      seq: 7,
      key,
      financial: fin({ cost_charged: 1, budget_remaining: 799, budget_total: 1000 }),
      extra: { timestamp: T0 + 6 * 86400 + 1, capability_id: 'cap-c' },
    }),
  };
  tampered.signature = (tampered.signature as string).replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const records = [...receipts, tampered].map((receipt, i) => (i === 4 ? withWei(i + 1, receipt, WEI) : ndjson([{ seq: i + 1, receipt }])));
  return records.join('');
}

describe('finance on a forged log', () => {
  let store: RowStore;
  let report: VerificationReport;
  let scope: VerifiedScope;
  beforeAll(async () => {
    const dir = writePackage({ 'receipts.ndjson': logText() });
    ({ store, report } = await verifiedLog([dir], [key.publicHex]));
    scope = verifiedScope(store);
  });

  it('verifies all but the tampered receipt', () => {
    expect(scope.rows.length).toBe(6);
    expect(scope.left.failed).toBe(1);
    expect(report.finance.excluded).toEqual(['rcpt-test-000007']);
  });

  it('per currency, never mixed; the failed receipt counts nowhere', () => {
    const totals = currencyTotals(store, scope);
    expect(totals.map((t) => [t.currency, t.receipts, t.charged, t.denials, t.attempted])).toEqual([
      ['USD', 4, 175n, 1, 5000n],
      ['XYZ', 1, 40n, 0, 0n],
    ]);
    const usd = totals[0]!.settlement;
    expect([usd.settled.amount, usd.pending.amount, usd.failed.amount, usd.not_applicable.receipts]).toEqual([100n, 50n, 25n, 1]);
  });

  it('per holder: budgets once each, their totals granted', () => {
    expect(holderTotals(store, scope)).toEqual([
      { holder: 'org-a', currency: 'USD', budgets: 1, granted: 1000n, receipts: 4, charged: 175n, denials: 1, attempted: 5000n },
      { holder: 'org-b', currency: 'XYZ', budgets: 1, granted: 100n, receipts: 1, charged: 40n, denials: 0, attempted: 0n },
    ]);
  });

  it('the break is on its budget row, with the receipt it names', () => {
    const { rows, breaks } = budgetRows(store, scope, report);
    expect(breaks).toBe(1);
    const a = rows.find((r) => r.group.capability_id === 'cap-test-1')!;
    expect(a.group.breaks).toEqual(['rcpt-test-000003']);
    expect(a.group.break_details[0]!.rule).toContain('≠ previous 850');
    expect(a.verified).toBe(4);
    expect(store.rowById('rcpt-test-000003')).toBeDefined();
  });

  it('long pending counts from the last verified receipt, not the failed one after it', () => {
    const v = settlementLists(store, scope, 24);
    expect(v.lastTime).toBe(T0 + 6 * 86400);
    expect([...v.longPending.rows].map((r) => store.str('id', r))).toEqual(['rcpt-test-000002']);
    expect(settlementLists(store, scope, 6 * 24 - 1).longPending.rows.length).toBe(0);
    expect(v.failed.totals).toEqual([{ currency: 'USD', amount: 25n, receipts: 1 }]);
  });

  it('a denial carries its attempted cost', () => {
    const d = budgetDenials(store, scope);
    expect([...d.rows].map((r) => store.str('id', r))).toEqual(['rcpt-test-000004']);
    expect(d.totals).toEqual([{ currency: 'USD', amount: 5000n, receipts: 1 }]);
  });

  it('oracle evidence is decoded exactly; a stale cache is flagged', () => {
    const o = oracleConversions(store, scope);
    expect(o.pairs).toEqual([{ originalCurrency: 'ETH', grantCurrency: 'USD', receipts: 1, original: BigInt(WEI), converted: 40n, stale: 1 }]);
    expect(decodeOracle(JSON.stringify({ base: 'ETH' }))).toMatchObject({ ok: false });
    expect(decodeOracle('{"error":"$.metadata.financial.oracle_evidence.base: expected a string"}')).toEqual({
      ok: false,
      error: '$.metadata.financial.oracle_evidence.base: expected a string',
    });
    const csv = parseCsv(toCsv(oracleCsv(store, o)));
    expect(csv[1]![csv[0]!.indexOf('original_cost_units')]).toBe(WEI);
    expect(csv[1]![csv[0]!.indexOf('original_cost')]).toBe('0.123456789012345678 ETH');
    expect(csv[1]![csv[0]!.indexOf('converted_cost')]).toBe('0.40 USD');
  });

  it('spend over time: the bucket fits the span, one bar per currency and status, one bar per currency and status, linked to exactly its receipts', () => {
    const spend = spendOverTime(store, scope);
    expect(spend.bucketLabel).toBe('hour');
    expect(spendOverTime(store, scope, 100).bucketLabel).toBe('3 hours');
    // The financial receipts span 5 days: 6 daily bars.
    const daily = spendOverTime(store, scope, 6);
    expect(daily.bucketLabel).toBe('day');
    expect(daily.start).toBe(T0);
    expect(daily.count).toBe(6);
    const usd = daily.series.find((s) => s.currency === 'USD')!;
    expect([usd.amount.settled[0], usd.amount.pending[0], usd.amount.failed[2], usd.receipts.not_applicable[2]]).toEqual([100n, 50n, 25n, 1]);
    expect(bucketFilter(daily, 2, 'USD', 'failed')).toMatchObject({
      values: { verdict: ['verified'], currency: ['USD'], settlement: ['failed'] },
      since: T0 + 2 * 86400,
      until: T0 + 3 * 86400 - 1,
    });
    // Weeks start on Monday: 2026-01-01 is a Thursday, so its week began on 2025-12-29.
    const weekly = spendOverTime(store, scope, 5);
    expect(weekly.bucketLabel).toBe('week');
    expect(weekly.start).toBe(T0 - 3 * 86400);
    expect(weekly.count).toBe(2);
    expect(bucketFor(T0, T0 + 400 * 86400, 60)).toMatchObject({ label: 'week' });
    expect(bucketFor(T0, T0 + 4000 * 86400, 60)).toMatchObject({ label: '68 days' });
  });

  it('a payment reference that is a formula is neutralised in the CSV', () => {
    const csv = toCsv(receiptListCsv(store, settlementLists(store, scope).pending, 'pending.csv', 'charged'));
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});

describe('oracle evidence tampered after signing', () => {
  it('fails verification, so the oracle view leaves it out', async () => {
    const text = withWei(1, genAReceipt({ seq: 1, key, financial: fin({ oracle_evidence: oracle }), extra: { timestamp: T0 } }), WEI).replace(WEI, `${WEI}0`);
    const { store, report } = await verifiedLog([writePackage({ 'receipts.ndjson': text })], [key.publicHex]);
    expect(report.receipts[0]!.verdict).toBe('failed');
    expect(store.str('oracle', 0)).toContain(`"originalCostUnits":"${WEI}0"`);
    expect(oracleConversions(store, verifiedScope(store)).rows.length).toBe(0);
  });
});
