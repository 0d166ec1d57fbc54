// Compliance aggregations on logs with known policy switches: rows built with
// chosen policies and times (interleavings, a rollback), and a signed demo
// store whose generator switches policy at fixed fractions of the log,
// verified as the CLI does it and cross-checked against the store's own rows.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoStore, type GenerateResult } from '../../tools/demo/generate';
import { policyHash } from '../../tools/demo/model';
import { RowStore } from '../query/row-store';
import type { VerificationReport } from '../verdict/report';
import type { ReceiptView } from '../verdict/receipt-view';
import { verifiedLog } from '../../test/support/reader-log';
import {
  SPAN_BREAK_AFTER,
  explorerLink,
  policyTimeline,
  selectionFromParams,
  selectionTest,
  selectionToParams,
  signers,
  timeOrder,
  trustAndKinds,
} from './compliance';
import { filterFromParams, filterRows } from '../query/explorer-filter';
import { verifiedScope } from './scope';

/** Rows with the given policies at times 1000, 1001, … (one per second), all verified unless said. */
function rowsOf(policies: string[], opts: { times?: number[]; failed?: Set<number> } = {}): RowStore {
  const views: ReceiptView[] = policies.map((p, i) => ({
    order: i,
    id: `r${i}`,
    type: 'tool',
    time: opts.times?.[i] ?? 1000 + i,
    policyHash: p,
    kernelKey: 'k',
    file: 'r.ndjson',
    line: i + 1,
  }));
  const store = new RowStore();
  store.append(views);
  const report = { receipts: views.map((v, i) => ({ id: v.id, verdict: opts.failed?.has(i) ? 'failed' : 'verified' })), problems: [] };
  store.applyReport(report as unknown as VerificationReport);
  return store;
}
const repeat = (p: string, n: number) => Array<string>(n).fill(p);
const spansOf = (store: RowStore) => policyTimeline(store, verifiedScope(store).rows).spans.map((s) => [s.policy, s.start, s.end, s.receipts]);

describe('policyTimeline on rows with chosen policies', () => {
  it('a clean switch: one span each, back to back, no overlap', () => {
    const store = rowsOf([...repeat('A', 100), ...repeat('B', 80)]);
    const tl = policyTimeline(store, verifiedScope(store).rows);
    expect(tl.spans.map((s) => [s.policy, s.start, s.end, s.receipts])).toEqual([
      ['A', 1000, 1099, 100],
      ['B', 1100, 1179, 80],
    ]);
    expect(tl.policies.map((p) => [p.policy, p.receipts, p.first, p.last, p.spans.length])).toEqual([
      ['A', 100, 1000, 1099, 1],
      ['B', 80, 1100, 1179, 1],
    ]);
    expect(tl.overlaps).toEqual([]);
  });

  it('a rollback (A, then B for more than the break, then A again) gives A two spans', () => {
    const store = rowsOf([...repeat('A', 100), ...repeat('B', SPAN_BREAK_AFTER), ...repeat('A', 30)]);
    expect(spansOf(store)).toEqual([
      ['A', 1000, 1099, 100],
      ['B', 1100, 1149, 50],
      ['A', 1150, 1179, 30],
    ]);
    expect(policyTimeline(store, verifiedScope(store).rows).overlaps).toEqual([]);
  });

  it('a return within the break is the same span, and overlaps the other policy honestly', () => {
    // Requests under A that finish after the switch to B: A's span reaches into B's.
    const store = rowsOf([...repeat('A', 100), ...repeat('B', SPAN_BREAK_AFTER - 1), 'A', ...repeat('B', 20)]);
    const tl = policyTimeline(store, verifiedScope(store).rows);
    expect(tl.spans.map((s) => [s.policy, s.start, s.end, s.receipts])).toEqual([
      ['A', 1000, 1149, 101],
      ['B', 1100, 1169, 69],
    ]);
    expect(tl.overlaps).toEqual([{ policies: ['A', 'B'], start: 1100, end: 1149 }]);
    expect(tl.overlapCount).toBe(1);
  });

  it('two policies side by side (two kernels) are two overlapping spans, not a flicker', () => {
    const store = rowsOf(Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 'A' : 'B')));
    const tl = policyTimeline(store, verifiedScope(store).rows);
    expect(tl.spans.map((s) => [s.policy, s.receipts])).toEqual([
      ['A', 67],
      ['B', 133],
    ]);
    expect(tl.overlaps).toEqual([{ policies: ['A', 'B'], start: 1001, end: 1198 }]);
  });

  it('orders by time, not by log order, and leaves untimed rows off the timeline (but counts them)', () => {
    // Log order: a file of B receipts, then a file of A receipts that happened earlier.
    const times = [2000, 2001, 2002, 1000, 1001, NaN];
    const store = rowsOf(['B', 'B', 'B', 'A', 'A', 'A'], { times });
    const tl = policyTimeline(store, verifiedScope(store).rows);
    expect(tl.spans.map((s) => [s.policy, s.start, s.end, s.receipts])).toEqual([
      ['A', 1000, 1001, 2],
      ['B', 2000, 2002, 3],
    ]);
    expect(tl.policies.find((p) => p.policy === 'A')!.receipts).toBe(3);
    expect(tl.untimed).toBe(1);
    expect([...timeOrder(store, verifiedScope(store).rows)].map((r) => store.str('id', r))).toEqual(['r3', 'r4', 'r0', 'r1', 'r2']);
  });

  it('counts verified rows only: a failed receipt under a third policy makes no span', () => {
    const store = rowsOf(['A', 'A', 'C', 'A'], { failed: new Set([2]) });
    expect(spansOf(store)).toEqual([['A', 1000, 1003, 3]]);
  });

  it('a policy that comes and goes too often is drawn with coarser spans, within the budget', () => {
    // A for 1 receipt, then 60 of B, repeated: at the default break each A is its own span.
    const policies = Array.from({ length: 100 }, () => ['A', ...repeat('B', 60)]).flat();
    const tl = policyTimeline(rowsOf(policies), verifiedScope(rowsOf(policies)).rows);
    const a = tl.policies.find((p) => p.policy === 'A')!;
    expect(a.spans.length).toBe(1);
    expect(a.spans[0]!.receipts).toBe(100);
  });

  it('selectionTest keeps one policy and an inclusive time range; untimed rows are outside every range', () => {
    const store = rowsOf(['A', 'B', 'A', 'B', 'A'], { times: [10, 20, 30, 40, NaN] });
    const ids = (keep?: (r: number) => boolean) => [...verifiedScope(store, keep).rows].map((r) => store.str('id', r));
    expect(selectionTest(store, {})).toBeUndefined();
    expect(ids(selectionTest(store, { policy: 'A' }))).toEqual(['r0', 'r2', 'r4']);
    expect(ids(selectionTest(store, { since: 20, until: 30 }))).toEqual(['r1', 'r2']);
    expect(ids(selectionTest(store, { since: 20, policy: 'A' }))).toEqual(['r2']);
    expect(ids(selectionTest(store, { policy: 'never-seen' }))).toEqual([]);
  });
});

describe('the page state in the URL, and links to the explorer', () => {
  it('reads back what it writes; drops malformed values', () => {
    const sel = { since: 1767225600, until: 1767229200, policy: 'p' };
    expect(selectionToParams(sel).toString()).toBe('since=1767225600&until=1767229200&policy=p');
    expect(selectionFromParams(selectionToParams(sel))).toEqual(sel);
    expect(selectionFromParams(new URLSearchParams('since=-1&until=12x&policy='))).toEqual({});
  });

  it('a link opens the explorer on exactly the rows the number counts: verified, in the selection', () => {
    const store = rowsOf(['A', 'B', 'A', 'B', 'A', 'A'], { times: [10, 20, 30, 40, 50, 60], failed: new Set([2]) });
    const sel = { since: 20, until: 50, policy: 'A' };
    const href = explorerLink(sel);
    expect(href).toBe('/receipts?verdict=verified&policyHash=A&since=20&until=50');
    const rows = filterRows(store, filterFromParams(new URL(href, 'http://x').searchParams));
    expect([...rows]).toEqual([...verifiedScope(store, selectionTest(store, sel)).rows]);
    expect([...rows].map((r) => store.str('id', r))).toEqual(['r4']);
    // A span's own range narrows further; `verdict: []` lifts the verified-only filter (problem links).
    expect(explorerLink({ policy: 'B' }, {}, { since: 15, until: 25 })).toBe('/receipts?verdict=verified&policyHash=B&since=15&until=25');
    expect(explorerLink(sel, { verdict: [], problem: ['signature_invalid'] })).toBe('/receipts?policyHash=A&problem=signature_invalid&since=20&until=50');
  });
});

describe('compliance aggregations on a generated demo store (policy switches at 30%, 60%, 85%)', () => {
  const COUNT = 1000;
  let dir: string;
  let gen: GenerateResult;
  let log: Awaited<ReturnType<typeof verifiedLog>>;
  let db: { tools: { policy_hash: string; timestamp: number; raw_json: string }[]; children: { policy_hash: string; timestamp: number }[] };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'compliance-demo-'));
    gen = await generateDemoStore({ count: COUNT, out: dir });
    log = await verifiedLog([gen.storePath], [gen.kernelKeyHex]);
    const sql = new Database(gen.storePath, { readonly: true, fileMustExist: true });
    db = {
      tools: sql.prepare('SELECT policy_hash, timestamp, raw_json FROM chio_tool_receipts ORDER BY seq').all() as never,
      children: sql.prepare('SELECT policy_hash, timestamp FROM chio_child_receipts ORDER BY seq').all() as never,
    };
    sql.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every receipt verified, so the scope is the whole log', () => {
    expect(log.report.summary.verified).toBe(COUNT + gen.counts.childReceipts);
    expect(verifiedScope(log.store).rows.length).toBe(log.report.summary.receipts);
  });

  it('tool receipts per policy are the generator’s: 300, 300, 250, 150 in version order', () => {
    const tl = policyTimeline(log.store, verifiedScope(log.store).rows);
    const versions = ['1.0.0', '1.1.0', '1.2.0', '2.0.0'].map(policyHash);
    expect(tl.policies.map((p) => p.policy)).toEqual(versions);
    expect(tl.policies.map((p) => p.byType.tool)).toEqual([300, 300, 250, 150]);
    // Child receipts: as the store holds them.
    const childOf = (h: string) => db.children.filter((c) => c.policy_hash === h).length;
    expect(tl.policies.map((p) => p.byType.child ?? 0)).toEqual(versions.map(childOf));
    expect(tl.policies.map((p) => p.receipts)).toEqual(versions.map((h) => db.tools.filter((t) => t.policy_hash === h).length + childOf(h)));
  });

  it('each policy starts at its first receipt and ends at its last, from the store’s own timestamps', () => {
    const tl = policyTimeline(log.store, verifiedScope(log.store).rows);
    for (const p of tl.policies) {
      const times = [...db.tools, ...db.children].filter((r) => r.policy_hash === p.policy).map((r) => r.timestamp);
      expect([p.first, p.last], p.policy).toEqual([Math.min(...times), Math.max(...times)]);
      expect(p.spans.reduce((n, s) => n + s.receipts, 0)).toBe(p.receipts);
    }
    // The switch from 1.0.0 to 1.1.0 is at tool seq 301: 1.1.0 begins with it.
    expect(tl.policies[1]!.first).toBeLessThanOrEqual(db.tools[300]!.timestamp);
    expect(tl.policies[0]!.spans[0]!.start).toBe(db.tools[0]!.timestamp);
  });

  it('trust levels, Gen B kinds and boundaries match the generator’s counts', () => {
    const t = trustAndKinds(log.store, verifiedScope(log.store).rows);
    const k = gen.counts.receiptKinds;
    expect(t.generations).toEqual({ A: gen.counts.generations.A, B: gen.counts.generations.B, none: gen.counts.childReceipts });
    expect(t.kinds).toEqual(
      [
        { kind: 'mediated_decision', boundary: 'prevent', trustLevel: 'mediated', count: k.mediated_decision - gen.counts.generations.A },
        { kind: 'trace_observation', boundary: 'detect_only', trustLevel: 'verified', count: k.trace_observation },
        { kind: 'advisory_evaluation', boundary: 'advisory_only', trustLevel: 'advisory', count: k.advisory_evaluation },
      ]
        .filter((r) => r.count > 0)
        .sort((a, b) => b.count - a.count),
    );
    const level = (v: string) => t.trustLevels.find((l) => l.value === v)?.count ?? 0;
    expect(level('mediated')).toBe(k.mediated_decision);
    expect(level('verified')).toBe(k.trace_observation);
    expect(level('advisory')).toBe(k.advisory_evaluation);
    expect(level('')).toBe(gen.counts.childReceipts);
  });

  it('one signer, pinned, signing every receipt and checkpoint', () => {
    const rows = verifiedScope(log.store).rows;
    const pin = { key: gen.kernelKeyHex, label: 'demo' };
    expect(signers(log.store, rows, log.report, [pin])).toEqual([
      { key: gen.kernelKeyHex, receipts: rows.length, logReceipts: rows.length, checkpoints: gen.counts.checkpoints, pins: [pin] },
    ]);
    expect(signers(log.store, rows, log.report, [])[0]!.pins).toEqual([]);
  });

  it('a policy selection narrows every aggregate to that policy', () => {
    const h = policyHash('1.2.0');
    const rows = verifiedScope(log.store, selectionTest(log.store, { policy: h })).rows;
    const tl = policyTimeline(log.store, rows);
    expect(tl.policies.map((p) => p.policy)).toEqual([h]);
    expect(tl.policies[0]!.byType.tool).toBe(250);
    // 1.2.0 runs on the Gen A kernel only (the upgrade comes with 2.0.0).
    expect(trustAndKinds(log.store, rows).generations.B).toBe(0);
  });
});
