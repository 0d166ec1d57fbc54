// The security view's numbers on real logs verified as the command line does
// it: the reference corpus (counted again, independently, from its raw
// NDJSON and expected.json) and a generated demo store whose generator knows
// how many calls it denied. Every link is followed through the explorer's own
// filter, and must land on exactly the rows its number counts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoStore } from '../../tools/demo/generate';
import { filterFromParams, filterRows } from '../query/explorer-filter';
import type { RowStore } from '../query/row-store';
import { verifiedLog } from '../../test/support/reader-log';
import { readTestdataJson, testdataPath } from '../../test/support/testdata';
import type { VerificationReport } from '../verdict/report';
import { decodeGuardTrail } from '../verify/guard-trail';
import { guardMatrix } from './guard-matrix';
import { verifiedScope } from './scope';
import { denialBarHref, denialTotals, denialsOverTime, flaggedReceipts, verificationFailures } from './security';
import { healthSummary } from './security-health';

interface Expected {
  trust_keys: string[];
  receipts: Record<string, string>;
  problems: string[];
}
interface RawReceipt {
  id: string;
  timestamp: number;
  tool_server: string;
  tool_name: string;
  decision?: { verdict: string; guard?: string };
  evidence?: { guard_name: string; verdict: boolean }[];
}

/** Rows the explorer shows for a link (`/receipts?…`). */
function rowsOf(store: RowStore, href: string): number {
  expect(href.startsWith('/receipts?')).toBe(true);
  return filterRows(store, filterFromParams(new URLSearchParams(href.slice('/receipts?'.length)))).length;
}

function countBy<T>(items: T[], key: (t: T) => string | undefined): Map<string, number> {
  const m = new Map<string, number>();
  for (const it of items) {
    const k = key(it);
    if (k !== undefined) m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

for (const name of ['good', 'tampered-signature', 'tampered-field']) {
  describe(`security view on corpus/${name}`, () => {
    const expected = readTestdataJson<Expected>(`corpus/${name}/expected.json`);
    const raw = readFileSync(testdataPath(`corpus/${name}/receipts.ndjson`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { receipt: RawReceipt }).receipt);
    // The receipts expected.json says verify (a tail receipt without a checkpoint verifies too, contract §6).
    const counted = raw.filter((r) => expected.receipts[r.id] === 'verified' || expected.receipts[r.id] === 'unchecked_tail');
    const decided = counted.filter((r) => r.decision);
    const denied = decided.filter((r) => r.decision!.verdict === 'deny');
    let store: RowStore;
    let report: VerificationReport;
    beforeAll(async () => {
      ({ store, report } = await verifiedLog([testdataPath(`corpus/${name}`)], expected.trust_keys));
    });

    it('denials by guard, by tool and by server match a count from the raw receipts', () => {
      const scope = verifiedScope(store);
      const d = denialTotals(store, scope);
      expect(d.calls).toBe(decided.length);
      expect(d.denied).toBe(denied.length);
      expect(d.denied).toBeGreaterThan(0);
      expect(new Map(d.byGuard.map((t) => [t.key, t.count]))).toEqual(countBy(denied, (r) => r.decision!.guard ?? ''));
      expect(new Map(d.byTool.map((t) => [t.key, t.count]))).toEqual(countBy(denied, (r) => r.tool_name));
      const calls = countBy(decided, (r) => r.tool_server);
      const deniedBy = countBy(denied, (r) => r.tool_server);
      const byName = (a: (string | number)[], b: (string | number)[]) => (a[0]! < b[0]! ? -1 : 1);
      expect(d.servers.map((s) => [s.server, s.calls, s.denied]).sort(byName)).toEqual([...calls].map(([s, n]) => [s, n, deniedBy.get(s) ?? 0]).sort(byName));
      for (let i = 1; i < d.servers.length; i++) expect(d.servers[i - 1]!.rate).toBeGreaterThanOrEqual(d.servers[i]!.rate);
      for (const s of d.servers) expect(s.rate).toBe(s.denied / s.calls);
      // Each link lists exactly the receipts its number counts.
      expect(rowsOf(store, d.deniedHref)).toBe(d.denied);
      for (const t of [...d.byGuard, ...d.byTool]) expect(rowsOf(store, t.href), t.key).toBe(t.count);
      for (const s of d.servers) {
        expect(rowsOf(store, s.href)).toBe(s.denied);
        expect(rowsOf(store, s.callsHref)).toBe(s.calls);
      }
    });

    it('denials over time add up to the denials, and each bar links to exactly its receipts', () => {
      const scope = verifiedScope(store);
      for (const by of ['guard', 'tool'] as const) {
        const chart = denialsOverTime(store, scope, by);
        const sum = chart.series.reduce((n, s) => n + s.total, 0);
        expect(sum).toBe(denied.length);
        expect(chart.untimed).toBe(0);
        // corpus receipts span about 2.5 hours: five-minute bars
        expect(chart.bucketSeconds).toBe(300);
        const [min, max] = [Math.min(...counted.map((r) => r.timestamp)), Math.max(...counted.map((r) => r.timestamp))];
        expect(chart.starts[0]).toBe(Math.floor(min / 300) * 300);
        expect(chart.starts.at(-1)).toBe(Math.floor(max / 300) * 300);
        for (const s of chart.series) {
          s.counts.forEach((c, b) => {
            if (c > 0 && s.key !== null) expect(rowsOf(store, denialBarHref(chart, s, b))).toBe(c);
          });
        }
        // Independently: the denials of one bucket from the raw receipts.
        const b = chart.series[0]!.counts.findIndex((c) => c > 0);
        const inBucket = denied.filter((r) => r.timestamp >= chart.starts[b]! && r.timestamp < chart.starts[b]! + 300);
        expect(chart.series.reduce((n, s) => n + s.counts[b]!, 0)).toBe(inBucket.length);
      }
    });

    it('the guard matrix counts pass, fail and not evaluated per tool as the raw evidence says', () => {
      const m = guardMatrix(store, verifiedScope(store));
      // Every receipt lists its guards in one fixed order: the columns are that order.
      const seen = [...new Set(counted.flatMap((r) => (r.evidence ?? []).map((e) => e.guard_name)))];
      expect([...m.guards].sort()).toEqual([...seen].sort());
      const rank = new Map(m.guards.map((g, i) => [g, i]));
      for (const r of counted) {
        const ranks = (r.evidence ?? []).map((e) => rank.get(e.guard_name)!);
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      }
      for (const row of m.rows) {
        const of = counted.filter((r) => r.tool_name === row.tool);
        expect(row.receipts).toBe(of.length);
        const guardsOfTool = new Set(of.flatMap((r) => (r.evidence ?? []).map((e) => e.guard_name)));
        m.guards.forEach((g, i) => {
          const cell = row.cells[i];
          if (!guardsOfTool.has(g)) return expect(cell).toBeNull();
          const pass = of.filter((r) => r.evidence?.some((e) => e.guard_name === g && e.verdict)).length;
          const fail = of.filter((r) => r.evidence?.some((e) => e.guard_name === g && !e.verdict)).length;
          const missing = of.filter((r) => !r.evidence?.some((e) => e.guard_name === g));
          // Not reached: a guard listed before it on the receipt failed (a denial stops the pipeline).
          const notReached = missing.filter((r) => (r.evidence ?? []).some((e) => !e.verdict && rank.get(e.guard_name)! < i)).length;
          expect({ pass: cell!.pass, fail: cell!.fail, notReached: cell!.notReached, notRun: cell!.notRun }, `${row.tool} × ${g}`).toEqual({
            pass,
            fail,
            notReached,
            notRun: missing.length - notReached,
          });
          if (fail > 0) expect(rowsOf(store, cell!.failHref!)).toBe(fail);
        });
        expect(rowsOf(store, row.href)).toBe(row.receipts);
      }
      // Denied receipts' guards after the blocking one show up as not reached, never as passes.
      expect(m.rows.some((r) => r.cells.some((c) => c !== null && c.notReached > 0))).toBe(true);
    });

    it('verification failures are grouped by the problem codes expected.json names', () => {
      const f = verificationFailures(store, report);
      const failedIds = Object.entries(expected.receipts)
        .filter(([, v]) => v === 'failed')
        .map(([id]) => id);
      expect(f.failed).toBe(failedIds.length);
      expect(f.verified).toBe(report.summary.verified);
      expect(f.verified).toBe(Object.values(expected.receipts).filter((v) => v === 'verified' || v === 'unchecked_tail').length);
      const errorCodes = expected.problems.filter((c) => c !== 'reconciliation_break');
      expect(f.byCode.map((c) => c.code).sort()).toEqual([...errorCodes].sort());
      for (const c of f.byCode) {
        expect(c.receipts).toBe(failedIds.length);
        expect(rowsOf(store, c.href)).toBe(c.receipts);
      }
      expect(f.checkpointsFailed).toBe(0);
      expect(f.unreadLines + f.otherErrors).toBe(0);
      expect(flaggedReceipts(store, report, 'unsigned_field')).toEqual([]);
      expect(flaggedReceipts(store, report, 'algorithm_mismatch')).toEqual([]);
    });

    it('the health summary says what failed, what was denied and what was skipped, in plain words', () => {
      const scope = verifiedScope(store);
      const lines = healthSummary({
        report,
        scope,
        failures: verificationFailures(store, report),
        denials: denialTotals(store, scope),
        unsigned: 0,
        algorithm: 0,
        pinned: new Set(expected.trust_keys),
      });
      const text = (topic: string) =>
        lines
          .find((l) => l.topic === topic)!
          .parts.map((p) => (typeof p === 'string' ? p : p.text))
          .join('');
      const status = (topic: string) => lines.find((l) => l.topic === topic)!.status;
      const total = Object.keys(expected.receipts).length;
      if (name === 'good') {
        expect(text('verification')).toBe(`${total} of ${total} receipts verified.`);
        expect(status('verification')).toBe('good');
      } else {
        expect(text('verification')).toBe(
          `${total - 1} of ${total} receipts verified; 1 failed verification (1 with a signature that does not verify, 1 not in the checkpoint that covers it).`,
        );
        expect(status('verification')).toBe('bad');
      }
      expect(text('denials')).toMatch(
        new RegExp(`^\\d+(\\.\\d)?% of the ${decided.length} verified calls with a decision were denied \\(${denied.length}\\), mostly by the `),
      );
      expect(text('signers')).toBe('The signer is pinned as trusted.');
      expect(text('skipped')).toBe('Checks skipped: inclusion on 80 receipts (no checkpoint covers them yet).');
      expect(status('skipped')).toBe('good');
      // Without pinned keys the signer line and the skipped line say so.
      const loose = healthSummary({
        report,
        scope,
        failures: verificationFailures(store, report),
        denials: denialTotals(store, scope),
        unsigned: 0,
        algorithm: 0,
        pinned: new Set(),
      });
      expect(loose.find((l) => l.topic === 'signers')!.status).toBe('warn');
      // Every number links to the rows it counts (a percentage, to the denials it is the share of).
      for (const l of lines) {
        for (const p of l.parts) {
          if (typeof p === 'string' || !p.href.startsWith('/receipts?')) continue;
          expect(rowsOf(store, p.href), `${p.text} → ${p.href}`).toBe(p.text.endsWith('%') ? denied.length : Number(p.text.replace(/,/g, '')));
        }
      }
    });
  });
}

describe('security view on corpus/duplicate-key (one record cannot be read)', () => {
  it('the verification line is not green: it says the record is left out (issue 21)', async () => {
    const expected = readTestdataJson<Expected>('corpus/duplicate-key/expected.json');
    const { store, report } = await verifiedLog([testdataPath('corpus/duplicate-key')], expected.trust_keys);
    const scope = verifiedScope(store);
    const failures = verificationFailures(store, report);
    expect(failures).toMatchObject({ failed: 0, unreadLines: 1 });
    const lines = healthSummary({
      report,
      scope,
      failures,
      denials: denialTotals(store, scope),
      unsigned: 0,
      algorithm: 0,
      pinned: new Set(expected.trust_keys),
    });
    const line = lines.find((l) => l.topic === 'verification')!;
    expect(line.status).toBe('bad');
    expect(line.parts.map((p) => (typeof p === 'string' ? p : p.text)).join('')).toBe(
      '279 of 279 receipts verified; 1 more record could not be read and is left out.',
    );
  });
});

describe('security view on a generated demo store', () => {
  let dir: string;
  let generated: Awaited<ReturnType<typeof generateDemoStore>>;
  let store: RowStore;
  let report: VerificationReport;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ra-security-'));
    generated = await generateDemoStore({ count: 900, seed: 'security', out: dir });
    ({ store, report } = await verifiedLog([generated.storePath], [generated.kernelKeyHex]));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the denials the generator made, with budget denials under the budget guard', () => {
    const c = generated.counts;
    expect(report.summary.failed).toBe(0);
    const scope = verifiedScope(store);
    expect(scope.rows.length).toBe(c.toolReceipts + c.childReceipts);
    const d = denialTotals(store, scope);
    expect(d.denied).toBe(c.decisions.deny);
    expect(d.calls).toBe(c.toolReceipts - c.decisions.none);
    expect(d.byGuard.find((t) => t.key === 'budget')?.count ?? 0).toBe(c.budgetDenials);
    expect(d.byGuard.reduce((n, t) => n + t.count, 0)).toBe(c.decisions.deny);
    expect(d.servers.reduce((n, s) => n + s.denied, 0)).toBe(c.decisions.deny);
    for (const by of ['guard', 'tool'] as const) expect(denialsOverTime(store, scope, by).series.reduce((n, s) => n + s.total, 0)).toBe(c.decisions.deny);
  });

  it('the guard matrix: one fail per denial (the blocking guard), columns in an order every receipt agrees with', () => {
    const m = guardMatrix(store, verifiedScope(store));
    // The data fixes only the order of guards some receipt lists together (tools/demo/catalog.ts
    // GUARD_ORDER restricted to each tool): the columns agree with every receipt's own order.
    const rank = new Map(m.guards.map((g, i) => [g, i]));
    for (const trail of store.dict.guards.values.slice(1)) {
      const ranks = decodeGuardTrail(trail).map((o) => rank.get(o.guard)!);
      expect(ranks, trail).toEqual([...ranks].sort((a, b) => a - b));
    }
    expect(m.guards[0]).toBe('forbidden-path');
    const fails = m.rows.reduce((n, r) => n + r.cells.reduce((k, c) => k + (c?.fail ?? 0), 0), 0);
    const c = generated.counts;
    // Advisory evaluations run every guard and may carry a failing one ("would deny") without a denial.
    const advisoryFails = filterRows(store, filterFromParams(new URLSearchParams('receiptKind=advisory_evaluation&verdict=verified'))).filter(
      (row) => store.codes.guardFailed[row] !== 0,
    ).length;
    expect(fails).toBe(c.decisions.deny + advisoryFails);
    const traces = m.rows.reduce((n, r) => n + r.withoutEvidence, 0);
    expect(traces).toBe(c.receiptKinds.trace_observation);
  });
});
