// A fleet page (the /v1/receipts/query body of a CLICKHOUSE_URL server) split and verified as the
// browser does, built from a real signed package of the demo producer (8 tool receipts under 2
// checkpoints of 4, v1 then v2, 8 inclusion proofs, one kernel key): the receipts' bytes pass
// through untouched, each kernel group is its own log, and a bad receipt, a lying group or a
// broken envelope costs only what it must.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDemoPackage, generateDemoStore } from '../../tools/demo/generate';
import { sha256Ready } from '../crypto/sha256';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from '../verify/log-verifier';
import { loadFleetPage, splitFleetPage } from './fleet-page';

let tmp: string;
let raws: string[] = [];
let checkpoints: string[] = [];
let proofs: string[] = [];
let receiptLines: { seq: number; receipt: { kernel_key: string } }[] = [];
let KERNEL = '';
let all: { seq: number; index: number }[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ra-fleet-page-'));
  const { storePath } = await generateDemoStore({ count: 8, checkpointEvery: 4, out: path.join(tmp, 'store'), seed: 'fleet-page' });
  const dir = path.join(tmp, 'pkg');
  await exportDemoPackage(storePath, dir);
  const lines = (f: string) => readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter(Boolean);
  receiptLines = lines('receipts.ndjson').map((l) => JSON.parse(l) as { seq: number; receipt: { kernel_key: string } });
  /** Each receipt's exact text from its package line `{"seq":N,"receipt":R}`. */
  raws = lines('receipts.ndjson').map((l) => l.slice(l.indexOf('"receipt":') + '"receipt":'.length, -1));
  checkpoints = lines('checkpoints.ndjson');
  proofs = lines('inclusion-proofs.ndjson');
  KERNEL = (JSON.parse(checkpoints[0]!) as { body: { kernel_key: string } }).body.kernel_key;
  all = receiptLines.map((r, i) => ({ seq: r.seq, index: i }));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function page(receipts: string[], groups: string[], extra = ''): string {
  return `{"totalCount":12345,"nextCursor":77,"receipts":[${receipts.join(',')}],"fleet":{"figures":"index","kernels":[${groups.join(',')}]}${extra}}`;
}
const group = (items: { seq: number; index: number }[], cps?: string[], prs?: string[], key?: string) =>
  groupOf(items, cps ?? checkpoints, prs ?? proofs, key ?? KERNEL);
const groupOf = (items: { seq: number; index: number }[], cps: string[], prs: string[], key: string) =>
  `{"kernelKey":"${key}","receipts":${JSON.stringify(items)},"checkpoints":[${cps.join(',')}],"inclusionProofs":[${prs.join(',')}]}`;

async function verify(text: string) {
  const split = splitFleetPage(text);
  if (!split.ok) throw new Error(split.message);
  await sha256Ready();
  const trust = TrustStore.create([KERNEL, ...new Set(receiptLines.map((r) => r.receipt.kernel_key))].map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store });
  await loadFleetPage(split.page, v, 'fleet');
  return { split: split.page, report: await v.finish() };
}

describe('fleet pages', () => {
  it('verifies every receipt with its proof, keeping the index figures apart', async () => {
    const { split, report } = await verify(page(raws, [group(all)]));
    expect(split).toMatchObject({ totalCount: '12345', nextCursor: '77', receipts: 8 });
    expect(split.groups.map((g) => [g.kernelKey, g.receipts])).toEqual([[KERNEL, 8]]);
    expect(report.ok).toBe(true);
    expect(report.receipts).toHaveLength(8);
    expect(report.receipts.every((r) => r.verdict === 'verified' && r.checks.inclusion === 'pass')).toBe(true);
    expect(report.checkpoints.map((c) => c.verdict)).toEqual(['verified', 'verified']);
  });

  it('reports the rows the server left out (`problems`) at their table and seq; the rest verify', async () => {
    const problem =
      '{"schema":"receipt-audit.export_problem.v1","table":"receipt_json","seq":3,"code":"duplicate_key","message":"receipt_json seq 3: raw_json is not one JSON text"}';
    const { report } = await verify(page(raws.slice(0, 2), [group(all.slice(0, 2), checkpoints.slice(0, 1), proofs.slice(0, 2))], `,"problems":[${problem}]`));
    expect(report.receipts.map((r) => r.verdict)).toEqual(['verified', 'verified']);
    expect(report.problems.map((p) => `${p.code} ${p.file}:${p.line}`)).toEqual(['parse_error receipt_json:3']);
    expect(splitFleetPage(page(raws, [group(all)], ',"problems":{}'))).toEqual({ ok: false, message: 'problems is not an array' });
  });

  it('passes each receipt on byte for byte, even one a strict parser refuses', async () => {
    const dup = raws[1]!.replace('{', '{"id":"dup",');
    const two = page(
      [raws[0]!, dup],
      [
        group(
          [
            { seq: 1, index: 0 },
            { seq: 2, index: 1 },
          ],
          checkpoints.slice(0, 1),
          proofs.slice(0, 2),
        ),
      ],
    );
    const split = splitFleetPage(two);
    expect(split.ok && split.page.groups[0]!.files[0]!.text).toBe(`{"seq":1,"receipt":${raws[0]}}\n{"seq":2,"receipt":${dup}}`);
    // The duplicate key fails that receipt alone; the other still verifies with its proof.
    const { report } = await verify(two);
    expect(report.receipts.map((r) => r.verdict)).toEqual(['verified']);
    expect(report.problems.map((p) => `${p.code} ${p.file}:${p.line}`)).toContain(`duplicate_key fleet/${KERNEL}/receipts.ndjson:2`);
  });

  it('verifies a receipt no kernel group claims, without inclusion', async () => {
    const { split, report } = await verify(page(raws, [group(all.slice(0, 6), checkpoints, proofs.slice(0, 6))]));
    expect(split.groups.map((g) => [g.kernelKey, g.receipts])).toEqual([
      [KERNEL, 6],
      ['', 2],
    ]);
    expect(report.receipts.filter((r) => r.checks.inclusion === 'pass')).toHaveLength(6);
    expect(report.receipts.filter((r) => r.verdict === 'verified')).toHaveLength(8);
  });

  it('fails inclusion when the server files a receipt under the wrong seq', async () => {
    const lying = all.map((x, i) => (i === 0 ? { ...x, seq: 2 } : i === 1 ? { ...x, seq: 1 } : x));
    const { report } = await verify(page(raws, [group(lying)]));
    expect(report.ok).toBe(false);
    expect(report.receipts.filter((r) => r.checks.inclusion === 'fail').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps two kernels’ checkpoints apart: the same checkpoint_seq in two groups is no fork', async () => {
    // Receipts 1–5 and 6–8 as if two kernels' logs, each with its checkpoint numbered 1.
    const renumbered = (line: string) => line.replace('"checkpoint_seq":2', '"checkpoint_seq":1');
    const second = group(all.slice(5), [checkpoints[1]!], proofs.slice(5).map(renumbered));
    const { split, report } = await verify(page(raws, [group(all.slice(0, 5), [checkpoints[0]!], proofs.slice(0, 5)), second]));
    expect(split.groups).toHaveLength(2);
    expect(report.ok).toBe(true);
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('refuses envelopes it cannot split, saying why', () => {
    const cases: [string, RegExp][] = [
      ['[]', /not one JSON object/],
      ['{"totalCount":1,"nextCursor":null,"receipts":[]}', /not a fleet page/],
      [page(raws, [group(all)]).replace('"totalCount":12345', '"totalCount":-1'), /totalCount/],
      [page(raws, [group([{ seq: 1, index: 99 }])]), /receipts\[0\]/],
      [page(raws, [group([{ seq: 1, index: 0 }]), group([{ seq: 1, index: 0 }])]), /claimed by two/],
      [page(raws, [group(all, checkpoints, proofs, 'not-a-key')]), /kernelKey/],
      [page(raws, [group(all)]).slice(0, -1), /not one JSON object/],
      [page(raws, [group(all)], ',"receipts":[]'), /not one JSON object/],
    ];
    for (const [text, why] of cases) {
      const r = splitFleetPage(text);
      expect(r.ok, text.slice(0, 80)).toBe(false);
      if (!r.ok) expect(r.message).toMatch(why);
    }
  });
});
