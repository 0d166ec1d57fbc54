import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles } from './helpers';
import { CORPUS_KEY } from './pinned';

// Journey: an auditor drops ZeroClaw and CodeWhale receipts, with a Chio log, into the page. The
// report the page exports must be the command line's, receipt by receipt, check by check.
const TESTDATA = join(process.cwd(), 'lib/testdata');
const FIXTURES = [
  'zeroclaw/synthesized/hmac-test-vectors.json',
  ...readdirSync(join(TESTDATA, 'codewhale/synthesized'))
    .filter((f) => f.startsWith('review-receipt.'))
    .map((f) => `codewhale/synthesized/${f}`),
  'codewhale/conformance-receipt-v0.draft-example.json',
  'corpus/tampered-signature/receipts.ndjson',
];

type Report = { ok: boolean; summary: unknown; receipts: { type: string }[]; problems: unknown[]; checkpoints: unknown[]; finance: unknown };
const comparable = (r: Report) => ({
  ok: r.ok,
  summary: r.summary,
  receipts: r.receipts,
  checkpoints: r.checkpoints,
  problems: r.problems,
  finance: r.finance,
});

test('dialect fixtures with a Chio log: the page exports the report the CLI prints', async ({ page }) => {
  // The files side by side under their own names, as both the page and the CLI (run there) name them.
  const dir = mkdtempSync(join(tmpdir(), 'ra-dialects-e2e-'));
  // (The Chio file is renamed: dropped beside other files, a receipts.ndjson makes them one evidence package.)
  const names = FIXTURES.map((f) => {
    const name = f.endsWith('receipts.ndjson') ? 'chio-log.ndjson' : f.split('/').pop()!;
    copyFileSync(join(TESTDATA, f), join(dir, name));
    return name;
  });
  const run = spawnSync(process.execPath, [join(process.cwd(), 'bin/receipt-audit.mjs'), 'verify', ...names, '--trust-key', CORPUS_KEY, '--json'], {
    cwd: dir,
    maxBuffer: 64 << 20,
  });
  expect(run.status, run.stderr.toString()).toBe(1);
  const cli = JSON.parse(run.stdout.toString()) as Report;
  expect(new Set(cli.receipts.map((r) => r.type))).toEqual(new Set(['tool', 'zeroclaw', 'codewhale-review', 'codewhale-turn']));
  await openFiles(
    page,
    names.map((n) => join(dir, n)),
  );
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
  const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
  expect(comparable(browser)).toEqual(comparable(cli));
});
