// Compliance aggregations and the printable report's totals on the reference
// corpus, verified as the command line does it; every number is cross-checked
// against the report or an independent count over the raw NDJSON.
import { describe, expect, it } from 'vitest';
import { readTestdataJson, readTestdataText, testdataPath } from '../../test/support/testdata';
import { verifiedLog } from '../../test/support/reader-log';
import { checkTotals } from '../verify/check-totals';
import { PROBLEM_CODES } from '../verdict/problems';
import { policyTimeline, selectionTest, signers, trustAndKinds } from './compliance';
import { coverageOverTime, rangeReport, reportColumns } from './compliance-report';
import { verifiedScope } from './scope';

interface Raw {
  id: string;
  timestamp: number;
  policy_hash: string;
  trust_level?: string;
  receipt_kind?: string;
  boundary_class?: string;
  type: 'tool' | 'child';
}
function rawReceipts(name: string): Raw[] {
  const read = (file: string, type: Raw['type']) =>
    readTestdataText(`corpus/${name}/${file}`)
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ ...(JSON.parse(l) as { receipt: Raw }).receipt, type }));
  return [...read('receipts.ndjson', 'tool'), ...read('child-receipts.ndjson', 'child')];
}
const load = (name: string) =>
  verifiedLog([testdataPath(`corpus/${name}`)], readTestdataJson<{ trust_keys: string[] }>(`corpus/${name}/expected.json`).trust_keys);
const tally = (xs: string[]) => {
  const m: Record<string, number> = {};
  for (const x of xs) m[x] = (m[x] ?? 0) + 1;
  return m;
};

describe('compliance of corpus/good (all 280 receipts verified)', () => {
  it('policies: the raw receipts’ policy hashes, counts, first and last times', async () => {
    const { store } = await load('good');
    const raw = rawReceipts('good');
    const tl = policyTimeline(store, verifiedScope(store).rows);
    const hashes = [...new Set([...raw].sort((a, b) => a.timestamp - b.timestamp).map((r) => r.policy_hash))];
    expect(hashes.length).toBe(3);
    expect(tl.policies.map((p) => p.policy)).toEqual(hashes);
    for (const p of tl.policies) {
      const mine = raw.filter((r) => r.policy_hash === p.policy);
      expect(p.receipts).toBe(mine.length);
      expect(p.byType).toEqual(tally(mine.map((r) => r.type)));
      expect([p.first, p.last]).toEqual([Math.min(...mine.map((r) => r.timestamp)), Math.max(...mine.map((r) => r.timestamp))]);
    }
    // The corpus switches policy cleanly: one span each, none overlapping.
    expect(tl.spans.length).toBe(3);
    expect(tl.overlaps).toEqual([]);
    expect(tl.untimed).toBe(0);
  });

  it('trust levels and Gen B kinds/boundaries as the raw receipts carry them (Gen A omits mediated)', async () => {
    const { store } = await load('good');
    const raw = rawReceipts('good');
    const t = trustAndKinds(store, verifiedScope(store).rows);
    const levels = tally(raw.map((r) => (r.type === 'child' ? '' : (r.trust_level ?? 'mediated'))));
    expect(Object.fromEntries(t.trustLevels.map((l) => [l.value, l.count]))).toEqual(levels);
    const genB = raw.filter((r) => r.receipt_kind !== undefined);
    expect(t.generations).toEqual({
      A: raw.filter((r) => r.type === 'tool').length - genB.length,
      B: genB.length,
      none: raw.filter((r) => r.type === 'child').length,
    });
    expect(t.kinds).toEqual(
      Object.entries(tally(genB.map((r) => `${r.receipt_kind}|${r.boundary_class}|${r.trust_level}`))).map(([k, count]) => {
        const [kind, boundary, trustLevel] = k.split('|');
        return { kind, boundary, trustLevel, count };
      }),
    );
  });

  it('signers: the report’s keys, pinned by the corpus trust key', async () => {
    const { store, report } = await load('good');
    const [key] = readTestdataJson<{ trust_keys: string[] }>('corpus/good/expected.json').trust_keys;
    const rows = verifiedScope(store).rows;
    const s = signers(store, rows, report, [{ key: key! }]);
    expect(s).toEqual(
      report.keys.map((k) => ({ key: k.key, receipts: k.receipts, logReceipts: k.receipts, checkpoints: k.checkpoints, pins: k.key === key ? [{ key }] : [] })),
    );
    expect(s[0]!.receipts).toBe(280);
  });

  it('the whole-log report: verdicts, per-check totals and coverage equal the CLI report’s', async () => {
    const { store, report } = await load('good');
    const r = rangeReport(store, report, {});
    expect(r.inSelection).toBe(report.summary.receipts);
    expect(r.verdicts).toEqual({
      pending: 0,
      verified: report.summary.verified,
      failed: report.summary.failed,
      unverified: report.summary.unverified,
      unpinned: 0,
    });
    expect(r.checks).toEqual(checkTotals(report.receipts));
    const cp = report.receipts.filter((x) => x.checks.inclusion === 'pass').length;
    const tail = report.receipts.filter((x) => x.checks.inclusion === 'skipped' && x.details?.inclusion === 'uncheckpointed').length;
    expect(r.inclusion.verified).toEqual({ notRun: 0, checkpointed: cp, tail, notCovered: 0, failed: 0 });
    expect(cp).toBe(200);
    // The tail: 50 tool receipts after the last checkpoint, and the 30 child receipts (never checkpointed).
    expect(r.tailByType).toEqual({ tool: 50, child: 30 });
    expect(r.problems).toEqual([]);
    expect(r.checkpoints).toEqual({ total: 2, verified: 2, failed: 0 });
    // Coverage over time adds up to the same.
    const c = coverageOverTime(store, verifiedScope(store).rows, reportColumns(store, report)!.inclusion);
    expect([c.checkpointed.reduce((a, b) => a + b, 0), c.tail.reduce((a, b) => a + b, 0)]).toEqual([cp, tail]);
    expect(c.starts.length).toBeLessThanOrEqual(72);
  });

  it('a time range counts exactly the raw receipts whose timestamp lies in it', async () => {
    const { store, report } = await load('good');
    const raw = rawReceipts('good');
    const since = 1767228000;
    const until = 1767232000;
    const r = rangeReport(store, report, { since, until });
    const inRange = raw.filter((x) => x.timestamp >= since && x.timestamp <= until);
    expect(r.inSelection).toBe(inRange.length);
    expect(r.verdicts.verified).toBe(inRange.length);
    expect([r.first, r.last]).toEqual([Math.min(...inRange.map((x) => x.timestamp)), Math.max(...inRange.map((x) => x.timestamp))]);
    const ids = new Set(inRange.map((x) => x.id));
    expect(r.checks).toEqual(checkTotals(report.receipts.filter((x) => ids.has(x.id))));
    const tl = policyTimeline(store, verifiedScope(store, selectionTest(store, { since, until })).rows);
    expect(Object.fromEntries(tl.policies.map((p) => [p.policy, p.receipts]))).toEqual(tally(inRange.map((x) => x.policy_hash)));
  });
});

describe('the report of a log with a failed receipt (corpus/tampered-signature)', () => {
  it('a range holding the tampered receipt says it failed and names its problem; a range without it has none', async () => {
    const { store, report } = await load('tampered-signature');
    const bad = report.receipts.find((x) => x.verdict === 'failed')!;
    const t = store.time[store.rowById(bad.id)!]!;
    const around = rangeReport(store, report, { since: t, until: t });
    expect(around.verdicts.failed).toBe(1);
    expect(around.problems.map((p) => [p.code, p.problems, p.receipts])).toEqual(
      Object.entries(tally(report.problems.filter((p) => p.receipt_id === bad.id).map((p) => p.code)))
        .map(([c, n]) => [c, n, 1])
        .sort((a, b) => PROBLEM_CODES.indexOf(a[0] as never) - PROBLEM_CODES.indexOf(b[0] as never)),
    );
    expect(around.problems.length).toBeGreaterThan(0);
    expect(
      around.inclusion.notVerified.checkpointed +
        around.inclusion.notVerified.tail +
        around.inclusion.notVerified.notCovered +
        around.inclusion.notVerified.failed +
        around.inclusion.notVerified.notRun,
    ).toBe(1);
    const before = rangeReport(store, report, { until: t - 1 });
    expect(before.verdicts.failed).toBe(0);
    expect(before.problems).toEqual([]);
    const all = rangeReport(store, report, {});
    expect(all.verdicts.failed).toBe(report.summary.failed);
    expect(all.problems.reduce((n, p) => n + p.problems, 0) + all.logProblems.reduce((n, p) => n + p.problems, 0)).toBe(report.problems.length);
  });
});
