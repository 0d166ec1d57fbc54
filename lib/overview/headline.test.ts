// The headline a page shows first (issue 21): real corpus logs and forged ones, verified the way
// the CLI does (bin/cli/main.ts verifyPaths reads the files; the headline is pure).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPaths } from '../../bin/cli/main';
import { TrustStore } from '../trust/trust-store';
import { testdataPath } from '../../test/support/testdata';
import { FORGE_KEY, verifyRecords } from '../../test/support/verify-records';
import { goodLog } from '../../test/support/forge';
import { logHeadline, logStatusLine, tallyLog } from './headline';

const CORPUS_DIR = testdataPath('corpus');
const CORPUS_KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

function trust(keys: string[]): TrustStore {
  const t = TrustStore.create(keys.map((key) => ({ key })));
  if (!t.ok) throw new Error(t.error);
  return t.store;
}

describe('logHeadline', () => {
  it('a package with one record it cannot read (duplicate-key corpus) fails and says the record is left out', async () => {
    const report = await verifyPaths([join(CORPUS_DIR, 'duplicate-key')], trust([CORPUS_KEY]));
    // Every receipt read verifies: the old headline counted only those.
    expect(report.summary).toMatchObject({ receipts: 279, verified: 279, failed: 0, unreadable: 1 });
    const h = logHeadline(report);
    expect(h.tone).toBe('failed');
    expect(h.title).toContain('1 record could not be read');
    expect(h.title).toContain('279 of 279 receipts read verified');
    expect(logStatusLine(report)).toEqual({ tone: 'failed', text: 'failed: 279 of 279 receipts verified, 1 record unreadable' });
    expect(h.facts[0]).toMatch(/^1 record could not be read and is in no count here \(the first at receipts\.ndjson:5\)/);
  });

  it('the good corpus under its pinned key is green and says what it verified', async () => {
    const report = await verifyPaths([join(CORPUS_DIR, 'good')], trust([CORPUS_KEY]));
    const h = logHeadline(report);
    expect(h.tone).toBe('ok');
    expect(h.title).toMatch(/^Nothing failed: 280 of 280 receipts and 2 of 2 checkpoints verified under pinned keys\.$/);
    expect(report.summary.unreadable).toBeUndefined();
  });

  it('the same log with no key pinned is intact-unpinned, never ok', async () => {
    const report = await verifyPaths([join(CORPUS_DIR, 'good')], trust([]));
    const h = logHeadline(report);
    expect(h.tone).toBe('unpinned');
    expect(logStatusLine(report).text).toBe('intact, signer not pinned: 280 receipts, none verified until the kernel’s key is pinned');
    expect(h.facts.some((f) => f.startsWith('280 receipts are intact, but no pinned key vouches'))).toBe(true);
  });

  it('an empty file says no receipts were found, and is not green', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headline-'));
    writeFileSync(join(dir, 'empty.ndjson'), '');
    const report = await verifyPaths([join(dir, 'empty.ndjson')], trust([CORPUS_KEY]));
    expect(logHeadline(report)).toEqual({ tone: 'empty', title: 'No receipts found: nothing was verified.', facts: [] });
  });

  it('a file of only unreadable lines is failed, not empty', async () => {
    const report = await verifyRecords([{ raw: 'not json' }, { raw: '{"a":1,"a":2}' }]);
    const t = tallyLog(report);
    expect(t).toMatchObject({ receipts: 0, unreadable: 2 });
    expect(logHeadline(report).tone).toBe('failed');
  });

  it('receipts after the last checkpoint are named as the uncheckpointed tail, and a forked load says stop', async () => {
    const log = goodLog(5, 3);
    const report = await verifyRecords(
      [
        ...log.receipts.map((value, i) => ({ value, seq: i + 1 })),
        { value: log.cp, role: 'checkpoint' as const },
        ...log.proofs.map((value) => ({ value, role: 'proof' as const })),
      ],
      [FORGE_KEY],
    );
    const h = logHeadline(report);
    expect(h.facts).toContain('2 receipts come after the last checkpoint: their inclusion in a signed checkpoint is not checked yet.');
    expect(logHeadline(report, { forked: true }).tone).toBe('failed');
  });
});
