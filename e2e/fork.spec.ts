import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles } from './helpers';

const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';

// Journey: an auditor verifies the demo log on this server, which the browser remembers (its
// checkpoint 24). Later someone hands them a store signed by the same kernel key but holding
// another history: the page must say "fork" loudly. The forked store is real: the demo producer
// with the same seed (so the same key) and another count writes a log that agrees up to
// checkpoint 7 and differs from checkpoint 8 on (tools/demo/README.md, "Determinism").
test('a store of the same kernel key with another history is a fork; the demo log still continues', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const dir = join(testInfo.outputDir, 'fork');
  mkdirSync(dir, { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'tools/demo/generate.ts', '--count', '2500', '--out', dir]);
  const forked = join(dir, 'forked-demo.sqlite3');
  copyFileSync(join(dir, 'receipts.sqlite3'), forked);

  // First sight of the demo log: remembered.
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('checkpoint-new')).toHaveAttribute('data-key', DEMO_KEY);
  await page.goto('/trust');
  const remembered = page.getByTestId('remembered-checkpoints').locator(`tr[data-key="${DEMO_KEY}"]`);
  await expect(remembered).toContainText('2301–2400');
  const rememberedSha = (await remembered.locator('code').nth(1).innerText()).trim();

  // The forked store, picked through the file input: a modal alert dialog blocks the page, with
  // both checkpoint digests, until it is acknowledged; Escape does not dismiss it.
  await openFiles(page, [forked]);
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
  const side = dialog.getByTestId('fork-dialog-fork');
  await expect(side).toHaveAttribute('data-key', DEMO_KEY);
  await expect(side).toHaveAttribute('data-seq', '24');
  await expect(side.getByTestId('fork-known')).toHaveText(rememberedSha);
  await expect(side.getByTestId('fork-found')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(side.getByTestId('fork-found')).not.toHaveText(rememberedSha);
  const summary2 = page.getByTestId('verify-summary');
  await expect(summary2).toHaveAttribute('data-ok', 'false');
  await expect(summary2).toHaveAttribute('data-fork', 'true');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'fork-dialog.png') });
  // Behind it nothing can be reached: the explorer link does not take a click.
  await expect(page.getByRole('link', { name: 'Receipts' }).click({ timeout: 1_500 })).rejects.toThrow();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('fork-acknowledge').click();
  await expect(dialog).toHaveCount(0);

  // Acknowledged, the overview still shows the fork loudly.
  const fork = page.getByTestId('fork-warning');
  await expect(fork).toBeVisible();
  await expect(fork).toHaveAttribute('role', 'alert');
  await expect(fork).toHaveAttribute('data-key', DEMO_KEY);
  await expect(fork).toHaveAttribute('data-seq', '24');
  await expect(fork).toHaveAttribute('data-how', 'same_seq');
  await expect(fork.getByTestId('fork-known')).toHaveText(rememberedSha);
  await expect(fork.getByTestId('fork-found')).not.toHaveText(rememberedSha);
  await expect(fork).toContainText("this server's receipt store");
  await expect(fork).toContainText('forked-demo.sqlite3');
  await fork.screenshot({ path: join(testInfo.project.outputDir, 'fork-warning.png') });
  await page.screenshot({ path: join(testInfo.project.outputDir, 'fork-page.png'), fullPage: true });

  // The fork did not replace what was remembered: the demo log, opened again, continues it.
  await page.getByRole('button', { name: "this server's log" }).click();
  await expect(summary).toHaveAttribute('data-source', "this server's receipt store");
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('checkpoint-continues')).toContainText('continues checkpoint 24');
  await expect(page.getByTestId('fork-warning')).toHaveCount(0);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(summary).toHaveAttribute('data-fork', 'false');

  // Forgetting the key on /trust empties the memory for it.
  await page.goto('/trust');
  await expect(remembered.locator('code').nth(1)).toHaveText(rememberedSha);
  await remembered.getByRole('button', { name: 'Forget' }).click();
  await expect(remembered).toHaveCount(0);
});
