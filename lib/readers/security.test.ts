// The security view on small forged logs with known contents: guard names an
// attacker picked (commas, colons, percent signs) keep their evidence apart,
// guards after a denial count as not reached, an advisory receipt's failing
// guard counts as a fail without a denial, and unsigned fields and algorithm
// mismatches are listed with their receipts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterFromParams, filterRows } from '../query/explorer-filter';
import type { RowStore } from '../query/row-store';
import { genAReceipt, keyFromSeed, ndjson } from '../../test/support/forge';
import { verifiedLog } from '../../test/support/reader-log';
import { decodeGuardTrail, encodeGuardTrail } from '../verify/guard-trail';
import type { VerificationReport } from '../verdict/report';
import { evaluationOrder, guardMatrix } from './guard-matrix';
import { verifiedScope } from './scope';
import { autoBucket, denialTotals, denialsOverTime, flaggedReceipts, verificationFailures } from './security';
import { checkTotals } from '../verify/check-totals';
import { healthSummary, percent, skippedChecks, skippedLine } from './security-health';

const rowsOf = (store: RowStore, href: string) => filterRows(store, filterFromParams(new URLSearchParams(href.slice('/receipts?'.length)))).length;

describe('guard trail', () => {
  it('round-trips any guard name, and a name cannot forge a second entry', () => {
    const evidence = [
      { guardName: 'a,b:fail', verdict: true },
      { guardName: '100%', verdict: false },
      { guardName: 'x:pass,y', verdict: true },
      { guardName: 'plain', verdict: true },
    ];
    const trail = encodeGuardTrail(evidence)!;
    expect(trail.split(',')).toHaveLength(4);
    expect(decodeGuardTrail(trail)).toEqual(evidence.map((e) => ({ guard: e.guardName, passed: e.verdict })));
    expect(encodeGuardTrail([])).toBeUndefined();
  });

  it('the evaluation order follows the receipts, and is decided the same whatever order they come in', () => {
    const t = (...gs: string[]) => gs.map((guard) => ({ guard, passed: true }));
    const trails = [t('b', 'c'), t('a', 'b'), t('e', 'c'), t('c', 'd')];
    expect(evaluationOrder(trails)).toEqual(['a', 'b', 'e', 'c', 'd']);
    expect(evaluationOrder([...trails].reverse())).toEqual(['a', 'b', 'e', 'c', 'd']);
    // Receipts that disagree (a cycle) still give every guard one column.
    expect(evaluationOrder([t('x', 'y'), t('y', 'x')]).sort()).toEqual(['x', 'y']);
  });

  it('percentages never round a share to 0% or 100%', () => {
    expect([percent(0, 10), percent(1, 10_000), percent(1, 3), percent(9_999, 10_000), percent(10, 10), percent(17, 120)]).toEqual([
      '0%',
      '<0.1%',
      '33%',
      '>99.9%',
      '100%',
      '14%',
    ]);
    expect(percent(1, 80)).toBe('1.3%');
  });

  it('buckets: the narrowest width that keeps the chart within 150 bars', () => {
    expect(autoBucket(0)).toBe(60);
    expect(autoBucket(149 * 60)).toBe(60);
    expect(autoBucket(150 * 60)).toBe(300);
    expect(autoBucket(4 * 86400)).toBe(3600);
    expect(autoBucket(400 * 86400)).toBe(7 * 86400);
  });
});

describe('a forged log with known guards, denials and flagged receipts', () => {
  const key = keyFromSeed(11);
  const ev = (guard_name: string, verdict: boolean) => ({ guard_name, verdict });
  const deny = (guard: string) => ({ verdict: 'deny', reason: `blocked by ${guard}`, guard });
  // Hostile guard names: the trail encoding must keep them whole.
  const G1 = 'path,allow:list';
  const G2 = 'egress%20';
  const G3 = 'budget';
  const receipts = [
    // 1–3 allowed, every guard passes
    ...[1, 2, 3].map((seq) => genAReceipt({ seq, key, extra: { evidence: [ev(G1, true), ev(G2, true), ev(G3, true)] } })),
    // 4–5 denied by G2: G3 never ran
    ...[4, 5].map((seq) => genAReceipt({ seq, key, extra: { decision: deny(G2), evidence: [ev(G1, true), ev(G2, false)] } })),
    // 6 denied by G1, on another tool and server, an hour later
    genAReceipt({
      seq: 6,
      key,
      extra: { tool_server: 'srv-http', tool_name: 'http_get', timestamp: 1767229300, decision: deny(G1), evidence: [ev(G1, false)] },
    }),
    // 7 allowed without G3 (not applicable to it): G3 did not run, and it is not "not reached"
    genAReceipt({ seq: 7, key, extra: { evidence: [ev(G1, true), ev(G2, true)] } }),
  ];
  // 8: an unsigned field (still verifies); 9: an algorithm that disagrees with the signature (fails).
  const unsigned = { ...genAReceipt({ seq: 8, key, extra: { decision: deny(G2), evidence: [ev(G1, true), ev(G2, false)] } }), injected: 'not signed' };
  const mismatched = { ...genAReceipt({ seq: 9, key, extra: { decision: deny(G1), evidence: [ev(G1, false)] } }), algorithm: 'p384' };
  let dir: string;
  let store: RowStore;
  let report: VerificationReport;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ra-security-forged-'));
    const file = path.join(dir, 'receipts.ndjson');
    writeFileSync(file, ndjson([...receipts, unsigned, mismatched]));
    ({ store, report } = await verifiedLog([file], [key.publicHex]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('verifies all but the algorithm mismatch', () => {
    expect(report.summary).toMatchObject({ receipts: 9, verified: 8, failed: 1 });
  });

  it('counts verified denials only: the failed receipt is left out', () => {
    const scope = verifiedScope(store);
    const d = denialTotals(store, scope);
    expect([d.calls, d.denied]).toEqual([8, 4]);
    expect(d.byGuard.map((t) => [t.key, t.count])).toEqual([
      [G2, 3],
      [G1, 1],
    ]);
    expect(d.byTool.map((t) => [t.key, t.count])).toEqual([
      ['file_read', 3],
      ['http_get', 1],
    ]);
    expect(d.servers.map((s) => [s.server, s.calls, s.denied])).toEqual([
      ['srv-http', 1, 1],
      ['srv-files', 7, 3],
    ]);
    for (const t of d.byGuard) expect(rowsOf(store, t.href)).toBe(t.count);
    const chart = denialsOverTime(store, scope, 'guard');
    expect(chart.series.map((s) => [s.key, s.total])).toEqual([
      [G2, 3],
      [G1, 1],
    ]);
    // Receipts 10 s apart and one an hour later: one-minute bars; G1's denial in the last one.
    expect([chart.bucketSeconds, chart.starts.length]).toEqual([60, Math.floor(1767229300 / 60) - Math.floor(1767225610 / 60) + 1]);
    expect(chart.series[1]!.counts.at(-1)).toBe(1);
    // Hour-wide bars on request.
    const hourly = denialsOverTime(store, scope, 'tool', 3600);
    expect([hourly.bucketSeconds, hourly.starts, hourly.series.map((s) => [s.key, s.counts])]).toEqual([
      3600,
      [1767225600, 1767229200],
      [
        ['file_read', [3, 0]],
        ['http_get', [0, 1]],
      ],
    ]);
  });

  it('the matrix: fails, passes, not reached after a denial, and not run where the guard does not apply', () => {
    const m = guardMatrix(store, verifiedScope(store));
    expect(m.guards).toEqual([G1, G2, G3]);
    const files = m.rows.find((r) => r.tool === 'file_read')!;
    expect(files.receipts).toBe(7);
    expect(files.cells.map((c) => c && [c.pass, c.fail, c.notReached, c.notRun])).toEqual([
      [7, 0, 0, 0],
      [4, 3, 0, 0],
      [3, 0, 3, 1],
    ]);
    expect(rowsOf(store, files.cells[1]!.failHref!)).toBe(3);
    const http = m.rows.find((r) => r.tool === 'http_get')!;
    expect(http.cells.map((c) => c && [c.pass, c.fail, c.notReached, c.notRun])).toEqual([[0, 1, 0, 0], null, null]);
  });

  it('lists the unsigned field and the algorithm mismatch with their receipts', () => {
    const u = flaggedReceipts(store, report, 'unsigned_field');
    expect(u.map((f) => [f.receiptId, f.verdict])).toEqual([['rcpt-test-000008', 'verified']]);
    expect(u[0]!.message).toContain('$.injected');
    const a = flaggedReceipts(store, report, 'algorithm_mismatch');
    expect(a.map((f) => [f.receiptId, f.verdict])).toEqual([['rcpt-test-000009', 'failed']]);
    const f = verificationFailures(store, report);
    expect(f.byCode.map((c) => [c.code, c.receipts])).toEqual([['algorithm_mismatch', 1]]);
    const scope = verifiedScope(store);
    const lines = healthSummary({
      report,
      scope,
      failures: f,
      denials: denialTotals(store, scope),
      unsigned: u.length,
      algorithm: a.length,
      pinned: new Set([key.publicHex]),
    });
    const line = (topic: string) => lines.find((l) => l.topic === topic)!;
    const text = (topic: string) =>
      line(topic)
        .parts.map((p) => (typeof p === 'string' ? p : p.text))
        .join('');
    expect(text('verification')).toBe('8 of 9 receipts verified; 1 failed verification (1 naming an algorithm that disagrees with its signature).');
    expect([line('unsigned').status, text('unsigned')]).toEqual(['warn', '1 receipt carries fields that are not signed: anyone could have changed them.']);
    expect([line('algorithm').status, text('algorithm')]).toEqual(['bad', '1 receipt names a signing algorithm that disagrees with its signature.']);
    expect(text('denials')).toBe(
      '50% of the 8 verified calls with a decision were denied (4), mostly by the egress%20 guard (3); the most denied tool is file_read (3).',
    );
    expect(line('checkpoints').status).toBe('warn');
    // The skipped-check totals are check-totals' own, counted in one lighter pass.
    expect(skippedChecks(report).map((t) => [t.name, t.total, [...t.why]])).toEqual(
      checkTotals(report.receipts)
        .filter((t) => t.skipped.size > 0)
        .map((t) => [t.name, [...t.skipped.values()].reduce((a, b) => a + b, 0), [...t.skipped]]),
    );
    expect(skippedChecks(report).map((t) => t.name)).toEqual(['inclusion']);
    for (const l of lines) {
      for (const p of l.parts) {
        if (typeof p === 'string' || !p.href.startsWith('/receipts?')) continue;
        expect(rowsOf(store, p.href), `${p.text} → ${p.href}`).toBe(p.text.endsWith('%') ? 4 : Number(p.text));
      }
    }
  });

  it("counts skipped checks over Chio receipts: a ZeroClaw tag without its key or a CodeWhale receipt's absent signature is not a Chio check left undone", () => {
    const chio = {
      id: 'a',
      type: 'tool',
      verdict: 'verified',
      checks: { parse: 'pass', signature: 'pass', inclusion: 'skipped' },
      details: { inclusion: 'uncheckpointed' },
      file: 'f',
      line: 1,
    };
    const zc = {
      id: 'z',
      type: 'zeroclaw',
      verdict: 'unverified',
      checks: { parse: 'pass', signature: 'skipped' },
      details: { signature: 'key not available (ephemeral)' },
      file: 'z',
      line: 1,
    };
    const cw = {
      id: 'r',
      type: 'codewhale-review',
      verdict: 'unverified',
      checks: { parse: 'pass', signature: 'skipped' },
      details: { signature: 'unsigned: integrity, not authenticity' },
      file: 'r',
      line: 1,
    };
    const report = { receipts: [chio, zc, cw] } as unknown as VerificationReport;
    expect(skippedChecks(report).map((t) => [t.name, t.total])).toEqual([['inclusion', 1]]);
  });

  it('an envelope with no output or acknowledgement to check is no concern (part 2 §6); any other skip is', () => {
    const denied = {
      id: 'd',
      type: 'tool',
      verdict: 'verified',
      file: 'f',
      line: 1,
      checks: { parse: 'pass', signature: 'pass', content_hash: 'skipped', delivery: 'skipped', inclusion: 'skipped' },
      details: { content_hash: 'no_output', delivery: 'no_delivery', inclusion: 'uncheckpointed' },
    };
    const line = skippedLine({ receipts: [denied] } as unknown as VerificationReport);
    expect(line.status).toBe('good');
    expect(line.parts.join('')).toBe(
      'Checks skipped: content_hash on 1 receipt (the envelope carries no tool output to hash); delivery on 1 receipt (the envelope carries no delivery acknowledgement); inclusion on 1 receipt (no checkpoint covers them yet).',
    );
    const engine = {
      ...denied,
      checks: { ...denied.checks, signature: 'skipped' },
      details: { ...denied.details, signature: 'ML-DSA not supported in this engine' },
    };
    expect(skippedLine({ receipts: [engine] } as unknown as VerificationReport).status).toBe('warn');
  });
});
