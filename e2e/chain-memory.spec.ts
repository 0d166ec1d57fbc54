import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { canonicalBytes } from '../lib/json/canonicalize';
import { parseJson } from '../lib/json/parse';
import { demoKernelKey } from '../tools/demo/sign';
import { openFiles } from './helpers';
import { NOTHING_PINNED } from './pinned';

// About the page's memory, not trust: the log is signed by its own seed's key, which nothing pins.
test.use({ storageState: NOTHING_PINNED });

// Journey (contract part 2 §12, third point): the page remembers the last checkpoint it verified of
// a kernel, with its chain. A later load whose v2 checkpoints cannot be tied to that chain, or whose
// chain_root was rewritten, must stop the auditor; an honest continuation must not. The log is the
// demo producer's (seed `chain-e2e`, 1,000 receipts: checkpoints 1–5 v1, 6–10 v2), its checkpoints
// opened in slices as a server that serves only its newest ones would.
const SEED = 'chain-e2e';

test('a later v2 checkpoint must extend the remembered chain: unproven and rewritten chains are stopped, an honest continuation is not', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const dir = join(testInfo.outputDir, 'chain');
  mkdirSync(dir, { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'tools/demo/generate.ts', '--count', '1000', '--seed', SEED, '--out', dir]);
  const lines = readFileSync(join(dir, 'package', 'checkpoints.ndjson'), 'utf8')
    .trim()
    .split('\n');
  expect(lines.map((l) => (JSON.parse(l) as { body: { schema: string } }).body.schema.slice(-2))).toEqual([
    'v1',
    'v1',
    'v1',
    'v1',
    'v1',
    'v2',
    'v2',
    'v2',
    'v2',
    'v2',
  ]);
  const slice = (name: string, from: number, to: number, edit?: (text: string) => string) => {
    const file = join(dir, `${name}.ndjson`);
    writeFileSync(
      file,
      lines
        .slice(from - 1, to)
        .map((l) => (edit ? edit(l) : l))
        .join('\n') + '\n',
    );
    return file;
  };
  const key = demoKernelKey(SEED);
  const summary = page.getByTestId('verify-summary');
  const dialog = page.getByRole('alertdialog');

  // First sight: checkpoints 1–6 (the whole prefix), remembered with their chain.
  await openFiles(page, [slice('first-1-6', 1, 6)]);
  await expect(page.getByTestId('checkpoint-new').filter({ hasText: key.publicHex })).toContainText('checkpoint 6 is remembered');

  // Checkpoints 9–10 alone: v2 checkpoints after the remembered one, with nothing that ties them to it.
  await openFiles(page, [slice('tail-9-10', 9, 10)]);
  await expect(dialog).toBeVisible();
  const unproven = dialog.getByTestId('fork-dialog-fork');
  await expect(unproven).toHaveAttribute('data-how', 'unproven_extension');
  await expect(unproven).toHaveAttribute('data-seq', '9');
  await expect(unproven).toContainText('Unproven: checkpoint 9 may not extend the history this browser verified');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'chain-unproven-dialog.png') });
  await dialog.getByTestId('fork-acknowledge').click();
  await expect(summary).toHaveAttribute('data-fork', 'true');

  // Checkpoint 7 signed again by the kernel with another chain_root (its link to 6 intact): a rewritten history.
  const rewritten = slice('rewritten-7-10', 7, 10, (text) => {
    const cp = JSON.parse(text) as { body: Record<string, unknown>; signature: string };
    if (cp.body.checkpoint_seq !== 7) return text;
    cp.body.chain_root = '0x' + '77'.repeat(32);
    const body = parseJson(JSON.stringify(cp.body));
    if (!body.ok) throw new Error('parse');
    cp.signature = key.sign(canonicalBytes(body.value));
    return JSON.stringify(cp);
  });
  await openFiles(page, [rewritten]);
  await expect(dialog).toBeVisible();
  const mismatch = dialog.getByTestId('fork-dialog-fork');
  await expect(mismatch).toHaveAttribute('data-how', 'chain_mismatch');
  await expect(mismatch).toHaveAttribute('data-seq', '7');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'chain-rewritten-dialog.png') });
  await dialog.getByTestId('fork-acknowledge').click();

  // The honest checkpoints 7–10: their chain roots recompute from the remembered chain.
  await openFiles(page, [slice('honest-7-10', 7, 10)]);
  await expect(dialog).toHaveCount(0);
  await expect(summary).toHaveAttribute('data-fork', 'false');
  await expect(page.getByTestId('checkpoint-continues').filter({ hasText: key.publicHex })).toContainText('continues checkpoint 6');
  await expect(page.getByTestId('checkpoint-continues').filter({ hasText: key.publicHex })).toContainText('now remembered up to checkpoint 10');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'chain-continues.png'), fullPage: true });

  // Issue 20's attack: a server that leaves checkpoints out. Checkpoints 1–4 only (a rollback to
  // before the remembered 10), then receipts of the key with no checkpoint at all: both stop the
  // auditor, and the memory keeps checkpoint 10.
  await openFiles(page, [slice('older-1-4', 1, 4)]);
  await expect(dialog).toBeVisible();
  const rollback = dialog.getByTestId('fork-dialog-rollback');
  await expect(rollback).toHaveAttribute('data-seq', '10');
  await expect(rollback).toContainText("This load's newest verified checkpoint of that key is 4.");
  await dialog.getByTestId('fork-acknowledge').click();
  await expect(summary).toHaveAttribute('data-fork', 'true');
  await expect(page.getByTestId('rollback-warning').filter({ hasText: key.publicHex })).toContainText('this log stops before checkpoint 10');

  const receipts = join(dir, 'receipts-only.ndjson');
  writeFileSync(
    receipts,
    readFileSync(join(dir, 'package', 'receipts.ndjson'), 'utf8')
      .split('\n')
      .slice(0, 50)
      .join('\n') + '\n',
  );
  await openFiles(page, [receipts]);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('fork-dialog-rollback')).toContainText('This load brings no verified checkpoint of that key at all.');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'chain-rollback-dialog.png') });
  await dialog.getByTestId('fork-acknowledge').click();
  await expect(summary).toHaveAttribute('data-fork', 'true');
  // Nothing of either load replaced what was remembered.
  await page.goto('/trust');
  await expect(page.getByTestId('remembered-checkpoints').locator(`tr[data-key="${key.publicHex}"] td.num`).first()).toHaveText('10');
});
