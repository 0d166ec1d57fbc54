// A Chio store (the demo producer's, real schema and triggers, 300 signed
// receipts) with one b-tree page overwritten (issue 7 §4): the rows on other
// pages still come out, the damaged range is one error row naming table and
// seq, and loading it verifies the rest without throwing or hanging.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoStore } from '../../tools/demo/generate';
import { damagePage, leafPages, rootPage } from '../../test/support/sqlite-pages';
import { LogVerifier } from '../verify/log-verifier';
import { openChioStore } from './sqlite-store';
import { type ReceiptRow, type RowError, isRowError } from './sqlite-rows';
import { loadStore } from './store';

const SQL: SqlJsStatic = await initSqlJs();

let dir: string;
let image: Uint8Array;
let all: ReceiptRow[];
let leaves: number[];
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-damaged-'));
  const generated = await generateDemoStore({ count: 300, seed: 'damaged-page', out: dir });
  image = new Uint8Array(readFileSync(generated.storePath));
  all = toolRows(image) as ReceiptRow[];
  leaves = leafPages(image, rootPage(SQL, image, 'chio_tool_receipts'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function toolRows(image: Uint8Array): (ReceiptRow | RowError)[] {
  const r = openChioStore(SQL, image);
  if (!r.ok) throw new Error(r.message);
  try {
    return [...r.store.toolReceipts()];
  } finally {
    r.store.close();
  }
}

describe('a store with a damaged b-tree page', () => {
  it('the store has its tool receipts on several leaves (the test needs a middle one)', () => {
    expect(all.every((r) => !isRowError(r))).toBe(true);
    expect(leaves.length).toBeGreaterThanOrEqual(3);
  });

  it("each damaged leaf: the other leaves' rows all come out in order, the lost range is one error naming the table and seq", () => {
    const failures: string[] = [];
    for (const [i, leaf] of leaves.entries()) {
      const rows = toolRows(damagePage(image, leaf));
      const good = rows.filter((r): r is ReceiptRow => !isRowError(r));
      const errors = rows.filter(isRowError);
      const lost = all.filter((r) => !good.some((g) => g.seq === r.seq)).map((r) => r.seq);
      const label = `leaf ${i + 1} of ${leaves.length} (page ${leaf})`;
      // Every row read is the stored row, in order; what is lost is one contiguous range.
      if (JSON.stringify(good) !== JSON.stringify(all.filter((r) => !lost.includes(r.seq)))) failures.push(`${label}: rows differ`);
      if (lost.length === 0 || lost.at(-1)! - lost[0]! !== lost.length - 1) failures.push(`${label}: lost ${lost.length} rows, not one range`);
      if (errors.length !== 1) failures.push(`${label}: ${errors.length} errors`);
      const e = errors[0];
      if (e?.table !== 'chio_tool_receipts' || !/database disk image is malformed/.test(e.error)) failures.push(`${label}: ${JSON.stringify(e)}`);
      const last = i === leaves.length - 1;
      const want = last
        ? `reading chio_tool_receipts stopped after seq ${lost[0]! - 1}: database disk image is malformed`
        : i === 0
          ? `seq up to ${lost.at(-1)} could not be read (database disk image is malformed); reading went on at seq ${lost.at(-1)! + 1}`
          : `seq ${lost[0]} to ${lost.at(-1)} could not be read (database disk image is malformed); reading went on at seq ${lost.at(-1)! + 1}`;
      if (e?.error !== want) failures.push(`${label}: error ${JSON.stringify(e?.error)}, expected ${JSON.stringify(want)}`);
      if (i > 0 && e?.rowid !== String(lost[0])) failures.push(`${label}: rowid ${e?.rowid}`);
    }
    expect(failures, `${failures.length} of ${leaves.length} leaves`).toEqual([]);
  });

  it('verifying it: a parse_error naming the file, table and rows; the other receipts are in the report; none from the lost range', async () => {
    const leaf = leaves[Math.floor(leaves.length / 2)]!;
    const r = openChioStore(SQL, damagePage(image, leaf));
    const name = 'receipts.sqlite3';
    if (!r.ok) throw new Error(r.message);
    const verifier = new LogVerifier();
    await loadStore(r.store, name, verifier, 'store:0');
    r.store.close();
    const report = await verifier.finish();
    const problem = report.problems.find((p) => p.code === 'parse_error' && /could not be read/.test(p.message));
    expect(problem).toMatchObject({
      file: `${name}#chio_tool_receipts`,
      message: expect.stringMatching(/^receipts\.sqlite3#chio_tool_receipts row \d+: seq \d+ to \d+ could not be read \(database disk image is malformed\)/),
    });
    const lost = /seq (\d+) to (\d+)/.exec(problem!.message)!.slice(1).map(Number);
    const lostIds = new Set(all.filter((x) => x.seq >= lost[0]! && x.seq <= lost[1]!).map((x) => x.receiptId));
    expect(report.receipts.filter((x) => x.type === 'tool').length).toBe(all.length - lostIds.size);
    expect(report.receipts.some((x) => lostIds.has(x.id))).toBe(false);
    expect(report.ok).toBe(false);
  });
});
