// RowStore.related on a real demo store: request trees of child receipts, and
// tool receipts tied to them through their governed call chain.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemoStore } from '../../tools/demo/generate';
import { openChioStore } from '../sources/sqlite-store';
import { isRowError } from '../sources/sqlite-rows';
import { TrustStore } from '../trust/trust-store';
import { recordVerifier } from '../verify/record-checker';
import { emptyOutput } from '../verify/record-output';
import { RowStore } from './row-store';

let rows: RowStore;

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'ra-rows-'));
  const { storePath } = await generateDemoStore({ count: 400, out });
  const opened = openChioStore(await initSqlJs(), new Uint8Array(readFileSync(storePath)));
  if (!opened.ok) throw new Error(opened.message);
  const verifier = recordVerifier(TrustStore.empty(), { views: true });
  const output = emptyOutput();
  let order = 0;
  const pending: Promise<void>[] = [];
  for (const [role, gen] of [
    ['tool', opened.store.toolReceipts()],
    ['child', opened.store.childReceipts()],
  ] as const) {
    for (const row of gen) {
      if (isRowError(row)) continue;
      pending.push(...verifier.verify(row.rawJson, { file: `s#${role}`, line: row.seq, role, space: 's' }, order++, output));
    }
  }
  await Promise.all(pending);
  opened.store.close();
  rows = new RowStore();
  rows.append(output.views);
}, 120_000);

describe('RowStore.related', () => {
  it('a child receipt finds its parent request in the same session, and the parent lists it as a child', () => {
    let checked = 0;
    for (let i = 0; i < rows.length && checked < 20; i++) {
      if (rows.str('type', i) !== 'child' || rows.str('parentRequestId', i) === undefined) continue;
      const { parents } = rows.related(i);
      for (const p of parents) {
        expect(rows.str('requestId', p)).toBe(rows.str('parentRequestId', i));
        expect(rows.str('sessionId', p)).toBe(rows.str('sessionId', i));
        expect(rows.related(p).children).toContain(i);
      }
      if (parents.length > 0) checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('tool receipts are tied into the trees through their call chain', () => {
    let tied = 0;
    for (let i = 0; i < rows.length; i++) {
      if (rows.str('type', i) !== 'tool' || rows.str('parentRequestId', i) === undefined) continue;
      const { parents } = rows.related(i);
      if (parents.length > 0) tied++;
    }
    expect(tied).toBeGreaterThan(5);
  });
});
