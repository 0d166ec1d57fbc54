// The columns the worker hands the page, with the ids the page's rows hold,
// rebuild exactly the report's receipts: the exported JSON is byte-identical,
// on every corpus case.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeDir } from '../../bin/cli/node-source';
import { loadFile, loadPackage } from '../sources/package';
import { readTestdataText, testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { RowStore } from '../query/row-store';
import { RECEIPT_CHECK_ORDER } from '../verdict/check';
import { LogVerifier } from './log-verifier';
import { ReceiptColumnsEncoder, fromReceiptColumns, receiptTransfer } from './receipt-columns';
import type { ReceiptView } from '../verdict/receipt-view';
import type { ReportReceipt } from '../verdict/report';
import { reportToJson } from './report-json';

/** The page's source of ids: its rows, in log order. */
const idsFrom = (rows: RowStore) => (i: number, file: string, line: number) => rows.reportId(i, file, line);

const KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

describe('receipt columns', () => {
  const cases = readdirSync(testdataPath('corpus'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  it.each(
    cases.flatMap((c) => [
      [c, 'no keys'],
      [c, 'pinned'],
    ]),
  )('%s (%s): rebuilt in slices after a structured clone, the report JSON is unchanged', async (name, keys) => {
    const trust = TrustStore.create(keys === 'pinned' ? [{ key: KEY }] : []);
    if (!trust.ok) throw new Error(trust.error);
    const rows = new RowStore();
    const v = new LogVerifier({ trust: trust.store, onViews: (views) => rows.append(views) });
    const dir = testdataPath(`corpus/${name}`);
    await loadPackage(nodeDir(dir, dir), v, 'p');
    const report = await v.finish();
    expect(report.receipts.length).toBeGreaterThan(100);
    const encoder = new ReceiptColumnsEncoder(report.receipts.length);
    for (const r of report.receipts) encoder.add(r);
    const cols = structuredClone(encoder.finish());
    const rebuilt: ReportReceipt[] = new Array(cols.length);
    for (let i = 0; i < cols.length; i += 37) fromReceiptColumns(cols, i, Math.min(cols.length, i + 37), rebuilt, idsFrom(rows));
    expect(reportToJson({ ...report, receipts: rebuilt })).toBe(reportToJson(report));
  });

  it("encoded while the report is built (the page's path), past the encoder's growth steps, then transferred: the same report JSON", async () => {
    // One corpus package read eight times over (separate seq spaces): thousands of receipts, some
    // failed as replays, so every column and detail string is exercised.
    const name = cases[0]!;
    const dir = testdataPath(`corpus/${name}`);
    const load = async (onViews?: (views: ReceiptView[]) => void) => {
      const v = new LogVerifier(onViews ? { onViews } : {});
      for (let i = 0; i < 8; i++) await loadPackage(nodeDir(dir, dir), v, `p${i}`);
      return v;
    };
    const whole = await (await load()).finish();
    const rows = new RowStore();
    const encoder = new ReceiptColumnsEncoder();
    const streamed = await (await load((views) => rows.append(views))).finish((r) => encoder.add(r));
    expect(streamed.receipts).toEqual([]);
    expect(whole.receipts.length).toBeGreaterThan(2048);
    const encoded = encoder.finish();
    const cols = structuredClone(encoded, { transfer: receiptTransfer(encoded) });
    expect(encoded.type.length).toBe(0); // given away, not copied
    expect(cols.checks.length).toBe(whole.receipts.length * RECEIPT_CHECK_ORDER.length);
    const rebuilt: ReportReceipt[] = new Array(cols.length);
    fromReceiptColumns(cols, 0, cols.length, rebuilt, idsFrom(rows));
    expect(reportToJson({ ...streamed, receipts: rebuilt })).toBe(reportToJson(whole));
    // Receipts checked alike share one frozen checks object (a million receipts, a handful of them).
    const shared = new Set(rebuilt.map((r) => r.checks));
    expect(shared.size).toBeLessThan(rebuilt.length / 10);
    for (const c of shared) expect(Object.isFrozen(c)).toBe(true);
  });

  it('sized up front, the columns are handed over as made; a detail table past 255 strings widens its codes', () => {
    const receipt = (i: number, detail: string): ReportReceipt => ({
      id: `r${i}`,
      type: 'tool',
      verdict: 'failed',
      checks: { parse: 'pass', signature: 'fail' },
      details: { signature: detail },
      file: 'f.ndjson',
      line: i + 1,
    });
    const n = 70_000;
    const encoder = new ReceiptColumnsEncoder(n);
    const receipts = Array.from({ length: n }, (_, i) => receipt(i, `bad ${i}`));
    for (const r of receipts) encoder.add(r);
    const cols = encoder.finish();
    expect(cols.details).toBeInstanceOf(Uint32Array);
    expect(cols.type.length).toBe(n);
    const rebuilt: ReportReceipt[] = new Array(n);
    fromReceiptColumns(cols, 0, n, rebuilt, (i) => `r${i}`);
    expect(rebuilt.map((r) => r.details?.signature)).toEqual(receipts.map((r) => r.details!.signature));
  });

  it('receipts read out of envelopes keep their claims through the columns (the page exports what the command line prints)', async () => {
    const real = readTestdataText('chio/realworld-2026-09/claude-code-tool-result-text.json');
    const forged = JSON.parse(real) as { receipt: Record<string, unknown> };
    forged.receipt.tool_name = 'delete_file';
    const text = [
      readTestdataText('derived/envelopes/codex-exec.jsonl').trimEnd(),
      readTestdataText('derived/envelopes/claude-code-stream.jsonl').trimEnd(),
      JSON.stringify(JSON.parse(readTestdataText('derived/envelopes/mcp-tool-result.json'))),
      JSON.stringify(forged),
      readTestdataText('corpus/good/receipts.ndjson').trimEnd(),
    ].join('\n');
    const rows = new RowStore();
    const v = new LogVerifier({ onViews: (views) => rows.append(views) });
    await loadFile(
      {
        name: 'host.jsonl',
        stream: async function* () {
          yield new TextEncoder().encode(text);
        },
      },
      v,
      'files',
    );
    const encoder = new ReceiptColumnsEncoder();
    const streamed = await v.finish((r) => encoder.add(r));
    const cols = structuredClone(encoder.finish());
    const rebuilt: ReportReceipt[] = new Array(cols.length);
    fromReceiptColumns(cols, 0, cols.length, rebuilt, idsFrom(rows));
    const withEnvelope = rebuilt.filter((r) => r.envelope);
    expect(withEnvelope.map((r) => [r.line, r.envelope])).toEqual([
      [4, { kind: 'chio-bridge-outcome', host: 'codex-exec-json', state: 'completed', evidence: 'verified', claimed: true }],
      [11, { kind: 'chio-bridge-outcome', state: 'completed', evidence: 'verified', claimed: true }],
    ]);
    expect(rebuilt.length).toBeGreaterThan(100);
    // The single-thread report of the same log, built whole.
    const whole = new LogVerifier();
    await loadFile(
      {
        name: 'host.jsonl',
        stream: async function* () {
          yield new TextEncoder().encode(text);
        },
      },
      whole,
      'files',
    );
    expect(reportToJson({ ...streamed, receipts: rebuilt })).toBe(reportToJson(await whole.finish()));
  });

  it('an envelope table past 255 distinct claims widens its codes', () => {
    const n = 300;
    const receipts = Array.from(
      { length: n },
      (_, i): ReportReceipt => ({
        id: `r${i}`,
        type: 'tool',
        verdict: 'failed',
        checks: { parse: 'pass' },
        file: 'f.jsonl',
        line: i + 1,
        envelope: { kind: 'chio-bridge-outcome', state: `s${i}`, claimed: true },
      }),
    );
    const encoder = new ReceiptColumnsEncoder(n);
    for (const r of receipts) encoder.add(r);
    const cols = encoder.finish();
    expect(cols.envelope).toBeInstanceOf(Uint16Array);
    const rebuilt: ReportReceipt[] = new Array(n);
    fromReceiptColumns(cols, 0, n, rebuilt, (i) => `r${i}`);
    expect(rebuilt.map((r) => r.envelope)).toEqual(receipts.map((r) => r.envelope));
  });

  it("rows that are not the report's receipts are an error, not a receipt under another's id", async () => {
    const name = cases[0]!;
    const dir = testdataPath(`corpus/${name}`);
    const rows = new RowStore();
    const v = new LogVerifier({ onViews: (views) => rows.append(views) });
    await loadPackage(nodeDir(dir, dir), v, 'p');
    const report = await v.finish();
    const encoder = new ReceiptColumnsEncoder();
    // The report's receipts one place out of step with the rows.
    for (const r of report.receipts.slice(1)) encoder.add(r);
    const cols = encoder.finish();
    expect(() => fromReceiptColumns(cols, 0, cols.length, new Array(cols.length), idsFrom(rows))).toThrow(/rows and the report disagree/);
  });
});
