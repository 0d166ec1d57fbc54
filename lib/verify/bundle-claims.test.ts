// An export bundle (`POST /v1/evidence/export`, the chio-bridge export) as one
// record: its uncheckpointedReceipts must list exactly the tool receipts without
// a proof (chio-format-v2.md §16.7), and its receipts must lie inside its query.
// Run through LogVerifier and through the page's worker pool (structured clones
// of the real messages): the same problems either way.
import { describe, expect, it } from 'vitest';
import { type Plain, genAReceipt, goodLog } from '../../test/support/forge';
import { inProcessWorker } from '../../test/support/in-process-worker';
import { poolChecker } from '../workers/pool';
import { LogVerifier } from './log-verifier';
import type { VerificationReport } from '../verdict/report';
import { reportToJson } from './report-json';
import { pinnedTrust, pinnedVerifier } from '../../test/support/verify-records';

/** A bundle of 6 tool receipts, the first 4 checkpointed with proofs; `edit` changes it before it is written. */
function bundleText(edit: (b: Plain, receipts: Plain[]) => void = () => {}): string {
  const { receipts, cp, proofs } = goodLog(6, 4);
  const bundle: Plain = {
    query: { until: 1767999999 },
    toolReceipts: receipts.map((receipt, i) => ({ seq: i + 1, receipt })),
    childReceipts: [],
    childReceiptScope: 'full_query_window',
    inclusionProofs: proofs,
    checkpoints: [cp],
    capabilityLineage: [],
    uncheckpointedReceipts: [5, 6].map((seq) => ({ seq, receiptId: receipts[seq - 1]!.id })),
    retention: {},
  };
  edit(bundle, receipts);
  return JSON.stringify({ bundle, transparency: { publications: [], witnesses: [], consistency_proofs: [], equivocations: [] } });
}

async function verify(text: string): Promise<VerificationReport> {
  const v = pinnedVerifier();
  await v.addRecord(text, { file: 'export.json', line: 1, role: 'auto', space: 'bundle' });
  return v.finish();
}

const problems = (r: VerificationReport) => r.problems.map((p) => [p.code, p.file, p.line, p.message]);

describe('export bundles: uncheckpointedReceipts (§16.7)', () => {
  it('the list of the tool receipts without a proof: no problem, and no package entry (a bundle has no manifest)', async () => {
    const r = await verify(bundleText());
    expect(r.problems).toEqual([]);
    expect(r.packages).toEqual([]);
    expect(r.summary).toMatchObject({ receipts: 6, verified: 6 });
  });

  it('a receipt left out, a proven one listed, one listed twice, one that is not there', async () => {
    const r = await verify(
      bundleText((b, rs) => {
        b.uncheckpointedReceipts = [
          { seq: 5, receiptId: rs[4]!.id },
          { seq: 5, receiptId: rs[4]!.id },
          { seq: 2, receiptId: rs[1]!.id },
          { seq: 9, receiptId: 'rcpt-nowhere' },
        ];
      }),
    );
    expect(problems(r)).toEqual([
      [
        'manifest_mismatch',
        'export.json',
        1,
        "the bundle's uncheckpointedReceipts does not match its proofs: it lists seq 5 (rcpt-test-000005) twice; it lists seq 2 (rcpt-test-000002), which has an inclusion proof; it lists seq 9 (rcpt-nowhere), which is not a tool receipt of the bundle; tool receipt seq 6 (rcpt-test-000006) has no inclusion proof but is not listed",
      ],
    ]);
    expect(r.ok).toBe(false);
    // The receipts are judged on their own checks: the list is the bundle's claim.
    expect(r.summary.verified).toBe(6);
  });

  it('a pair whose id is not the receipt at that seq', async () => {
    const r = await verify(
      bundleText(
        (b, rs) =>
          (b.uncheckpointedReceipts = [
            { seq: 5, receiptId: rs[5]!.id },
            { seq: 6, receiptId: rs[5]!.id },
          ]),
      ),
    );
    expect(r.problems[0]!.message).toMatch(
      /it lists seq 5 \(rcpt-test-000006\), which is not a tool receipt of the bundle; tool receipt seq 5 \(rcpt-test-000005\) has no inclusion proof but is not listed$/,
    );
  });

  it('a malformed list is a problem, never a throw', async () => {
    const r = await verify(bundleText((b) => (b.uncheckpointedReceipts = [{ seq: '5' }])));
    expect(problems(r)).toEqual([
      [
        'manifest_mismatch',
        'export.json',
        1,
        "the bundle's uncheckpointedReceipts does not match its proofs: uncheckpointedReceipts[0] needs an unsigned integer seq and a string receiptId",
      ],
    ]);
  });
});

describe('export bundles: scope', () => {
  it('a receipt outside the bundle query (after until) and a wrong childReceiptScope', async () => {
    const r = await verify(
      bundleText((b) => {
        b.query = { capabilityId: 'cap-test-1', until: 1767225640 }; // timestamps are 1767225600 + 10·seq
        b.childReceiptScope = 'full_query_window';
      }),
    );
    expect(problems(r)).toEqual([
      ['query_scope_violation', 'export.json', 1, 'childReceiptScope says "full_query_window", but the query implies time_window_context_only'],
      ['query_scope_violation', 'export.json', 1, 'rcpt-test-000005 lies outside the package query: timestamp 1767225650 is after until 1767225640'],
      ['query_scope_violation', 'export.json', 1, 'rcpt-test-000006 lies outside the package query: timestamp 1767225660 is after until 1767225640'],
    ]);
    expect(r.problems.map((p) => p.receipt_id)).toEqual([undefined, 'rcpt-test-000005', 'rcpt-test-000006']);
  });

  it('two bundles in one file are each held to their own query', async () => {
    const key = goodLog(1, 0).key;
    const one = (tenant: string, seq: number) => ({
      bundle: {
        query: { tenant },
        toolReceipts: [{ seq, receipt: genAReceipt({ seq, key, extra: { tenant_id: 'acme' } }) }],
        childReceiptScope: 'omitted_no_join_path',
        uncheckpointedReceipts: [{ seq, receiptId: `rcpt-test-00000${seq}` }],
      },
    });
    const r = await verify(JSON.stringify([one('acme', 1), one('other', 2)]));
    expect(problems(r)).toEqual([
      ['query_scope_violation', 'export.json', 1, "rcpt-test-000002 lies outside the package query: tenant_id acme is not the query's tenant other"],
    ]);
  });

  it("a receipt beside a bundle in the same document is not the bundle's", async () => {
    const key = goodLog(1, 0).key;
    const bundle = { bundle: { query: { tenant: 'acme' }, toolReceipts: [], childReceiptScope: 'omitted_no_join_path', uncheckpointedReceipts: [] } };
    const r = await verify(JSON.stringify([bundle, { seq: 7, receipt: genAReceipt({ seq: 7, key }) }]));
    expect(r.problems).toEqual([]);
    expect(r.summary.receipts).toBe(1);
  });
});

describe('export bundles in the browser', () => {
  it('the worker pool (claims crossing worker boundaries as structured clones) reports what LogVerifier does', async () => {
    const text = bundleText((b, rs) => {
      b.query = { until: 1767225640 };
      b.uncheckpointedReceipts = [{ seq: 6, receiptId: rs[5]!.id }];
    });
    const pool = new LogVerifier({ trust: pinnedTrust(), checker: poolChecker(() => inProcessWorker(), { workers: 2 }) });
    await pool.addRecord(text, { file: 'export.json', line: 1, role: 'auto', space: 'bundle' });
    const viaPool = await pool.finish();
    const single = await verify(text);
    expect(single.problems.map((p) => p.code)).toEqual(['manifest_mismatch', 'query_scope_violation', 'query_scope_violation']);
    expect(reportToJson(viaPool)).toBe(reportToJson(single));
  });
});
