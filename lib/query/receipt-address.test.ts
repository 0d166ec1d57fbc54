// One id, two receipts in two sources (a genuine package and a forged mirror of it, the same
// file name and line, re-signed by another key): the explorer's rows, their problems, their links
// and the receipt read again from its source each address the copy by source, file and line, never
// by the id alone (issue 20).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeDir } from '../../bin/cli/node-source';
import { loadPackage } from '../sources/package';
import { RecordHost } from '../sources/record-host';
import { genAReceipt, goodLog, keyFromSeed, ndjson, writePackage } from '../../test/support/forge';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from '../verify/log-verifier';
import type { ReceiptView } from '../verdict/receipt-view';
import type { VerificationReport } from '../verdict/report';
import { copiesOf, copyAddressFromParams, copyAddressOf, matchCopies, receiptUrl, rowUrl } from './receipt-address';
import { RowStore } from './row-store';

const kernel = keyFromSeed(7);
const attacker = keyFromSeed(66);
const ID = 'rcpt-test-000002';

let genuine: string;
let forged: string;
let report: VerificationReport;
let store: RowStore;

beforeAll(async () => {
  const { receipts, cp, proofs } = goodLog(3, 2, kernel);
  genuine = writePackage({
    'checkpoints.ndjson': ndjson([cp]),
    'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))),
    'inclusion-proofs.ndjson': ndjson(proofs),
  });
  // The attacker's package mirrors the genuine one's layout: its forged receipt is also receipts.ndjson:2.
  const fake = genAReceipt({ seq: 2, key: attacker, extra: { tool_name: 'transfer_funds' } });
  forged = writePackage({
    'receipts.ndjson': ndjson([
      { seq: 1, receipt: genAReceipt({ seq: 7, key: attacker }) },
      { seq: 2, receipt: fake },
    ]),
  });
  const trust = TrustStore.create([{ key: kernel.publicHex }]);
  if (!trust.ok) throw new Error(trust.error);
  const views: ReceiptView[] = [];
  const v = new LogVerifier({ trust: trust.store, onViews: (vs) => views.push(...vs) });
  v.beginSource('https://logs.example/genuine/');
  await loadPackage(nodeDir(genuine, genuine), v, 'source:0');
  v.beginSource('https://evil.example/mirror/');
  await loadPackage(nodeDir(forged, forged), v, 'source:1');
  report = await v.finish();
  store = new RowStore();
  // Rows arrive in any order (the page's workers): the forged package's first.
  store.append([...views].reverse());
  store.applyReport(report);
});

describe('a receipt is addressed by source, file and line', () => {
  it('the id has two rows, in log order, each with its source', () => {
    const rows = copiesOf(store, ID);
    expect(rows.map((r) => [store.str('source', r), store.str('file', r), store.line[r], store.verdictOf(r)])).toEqual([
      ['https://logs.example/genuine/', 'receipts.ndjson', 2, 'verified'],
      ['https://evil.example/mirror/', 'receipts.ndjson', 2, 'failed'],
    ]);
  });

  it("each row's link names its own copy, and that link finds exactly it", () => {
    const [real, fake] = copiesOf(store, ID) as [number, number];
    expect(rowUrl(store, fake)).toBe(`/receipts/${ID}?file=receipts.ndjson&line=2&from=${encodeURIComponent('https://evil.example/mirror/')}`);
    for (const row of [real, fake]) {
      const url = new URL(rowUrl(store, row), 'http://page.test');
      expect(matchCopies(store, copiesOf(store, ID), copyAddressFromParams(url.searchParams))).toEqual([row]);
    }
    // File and line alone fit both copies: the page lists them rather than pick one.
    expect(matchCopies(store, copiesOf(store, ID), { file: 'receipts.ndjson', line: 2 })).toHaveLength(2);
    expect(matchCopies(store, copiesOf(store, ID), {})).toHaveLength(2);
  });

  it('problems mark the rows they were found at: duplicate_receipt_id both copies, the forged signer only the forged one', () => {
    const [real, fake] = copiesOf(store, ID) as [number, number];
    expect(store.problemCodes(fake)).toEqual(expect.arrayContaining(['untrusted_signer', 'duplicate_receipt_id']));
    expect(store.problemCodes(real)).toContain('duplicate_receipt_id');
    // The shared place (receipts.ndjson:2) cannot say which source a problem came from, so both carry it; the verdicts stay apart.
    expect(store.verdictOf(real)).toBe('verified');
    // A problem of the attacker's other receipt, whose id is unique, marks its row alone.
    const other = copiesOf(store, 'rcpt-test-000007');
    expect(other).toHaveLength(1);
    expect(store.problemCodes(other[0]!)).toContain('untrusted_signer');
    expect(store.problemCodes(copiesOf(store, 'rcpt-test-000001')[0]!)).toEqual([]);
  });

  it('the record host answers each copy with its own bytes, and names its source', async () => {
    const host = new RecordHost('both');
    host.addPackage(nodeDir(genuine, genuine), 'https://logs.example/genuine/');
    host.addPackage(nodeDir(forged, forged), 'https://evil.example/mirror/');
    const copies = copiesOf(store, ID);
    const answers = await Promise.all(copies.map((r) => host.bundle({ id: ID, file: 'receipts.ndjson', line: 2, source: store.str('source', r)! })));
    const texts = answers.map((a) => (a.ok ? a.bundle.receipt : a.message));
    expect(texts[0]).toContain(kernel.publicHex);
    expect(texts[1]).toContain(attacker.publicHex);
    expect(answers.map((a) => a.ok && a.bundle.origin?.source)).toEqual(['https://logs.example/genuine/', 'https://evil.example/mirror/']);
  });

  it('one source: links carry file and line, not the source', () => {
    const single = new RowStore();
    single.append([{ order: 0, id: 'a', type: 'tool', time: 1, file: 'x.ndjson', line: 4, source: 'only' }]);
    expect(copyAddressOf(single, 0)).toEqual({ file: 'x.ndjson', line: 4 });
    expect(rowUrl(single, 0, 'https://logs.example/x.ndjson')).toBe(
      `/receipts/a?source=${encodeURIComponent('https://logs.example/x.ndjson')}&file=x.ndjson&line=4`,
    );
  });

  it('addresses round-trip; malformed parts are dropped', () => {
    const at = { file: 'a b&c.ndjson', line: 12, from: 'pkg/' };
    expect(copyAddressFromParams(new URL(receiptUrl('x', at), 'http://p.test').searchParams)).toEqual(at);
    expect(copyAddressFromParams(new URLSearchParams('file=&line=1e3&from='))).toEqual({});
    expect(copyAddressFromParams(new URLSearchParams('line=-1'))).toEqual({});
  });
});

it('the forged package really is a mirror of the genuine one at receipts.ndjson:2', () => {
  const line2 = (dir: string) => readFileSync(path.join(dir, 'receipts.ndjson'), 'utf8').split('\n')[1]!;
  expect(JSON.parse(line2(genuine)).receipt.id).toBe(ID);
  expect(JSON.parse(line2(forged)).receipt.id).toBe(ID);
});
