// Which log a page shows, and what its headline says (issue 21): the log bar names the open log on
// every page; a reload that cannot reopen picked files says so and offers to, never swapping in
// this server's log; a log that dropped a record is never green; an empty file is "no receipts".
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles } from './helpers';

const CORPUS = join(process.cwd(), 'lib/testdata/corpus/good');

/** The good corpus's receipts with one unreadable line in the middle, and an empty file. */
function writeInputs(dir: string): { dropped: string; empty: string } {
  mkdirSync(dir, { recursive: true });
  const lines = readFileSync(join(CORPUS, 'receipts.ndjson'), 'utf8').trimEnd().split('\n');
  lines.splice(5, 0, '{"this is": not json');
  const dropped = join(dir, 'dropped.ndjson');
  writeFileSync(dropped, lines.join('\n') + '\n');
  const empty = join(dir, 'empty.ndjson');
  writeFileSync(empty, '');
  return { dropped, empty };
}

// The default storage state pins the demo's key and the corpus's (playwright.config.ts).
test.describe('a log opened from files', () => {
  test('names the open log on every page, and a dropped record makes every headline say so', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const { dropped } = writeInputs(testInfo.outputPath('inputs'));
    await page.goto('/');
    const bar = page.getByTestId('log-bar');
    await expect(bar).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(page.getByTestId('log-bar-source')).toHaveText("this server's receipt store");
    await expect(page.getByTestId('log-bar-opened')).toContainText(/opened \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);

    await openFiles(page, [dropped]);
    await expect(page.getByTestId('log-bar-source')).toHaveText('dropped.ndjson');
    await expect(page.getByTestId('log-bar-verdict')).toHaveText('failed: 250 of 250 receipts verified, 1 record unreadable');
    const headline = page.getByTestId('log-headline');
    await expect(headline).toHaveAttribute('data-tone', 'failed');
    await expect(headline).toContainText('Verification failed: 1 record could not be read.');
    await expect(page.getByTestId('headline-facts')).toContainText('1 record could not be read and is in no count here (the first at dropped.ndjson:6)');
    await expect(page.getByTestId('count-unreadable')).toHaveText('1');

    await page.getByRole('link', { name: 'Receipts' }).first().click();
    await expect(page.getByTestId('explorer-count')).toHaveText(
      '250 of 250 receipts; 1 record of the log could not be read and is not listed (see the overview)',
    );
    await page.getByRole('link', { name: 'Overview' }).first().click();
    // Every other page names the same log, and none calls it all verified.
    for (const path of ['/receipts', '/finance', '/compliance', '/security', '/dag']) {
      await page
        .getByRole('link', { name: path === '/dag' ? 'DAG' : path.slice(1, 2).toUpperCase() + path.slice(2) })
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByTestId('log-bar-source'), path).toHaveText('dropped.ndjson');
      if (path !== '/receipts') await expect(page.getByTestId('verified-note'), path).toContainText('left out: 1 record that could not be read');
    }
    // Typing an address loads the page anew: like a reload, it cannot reopen the files.
    await page.goto('/security');
    await expect(page.getByTestId('log-bar')).toHaveAttribute('data-state', 'lost');
  });

  test('a reload cannot reopen picked files: it says so, opens nothing else, and offers to choose them again', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const { dropped } = writeInputs(testInfo.outputPath('inputs'));
    await openFiles(page, [dropped]);
    // To the explorer under a filter, by the security page's link (in-app: a typed address would reload).
    await page.getByRole('link', { name: 'Security' }).first().click();
    await page.getByRole('link', { name: '250', exact: true }).first().click();
    await expect(page).toHaveURL(/\/receipts\?verdict=verified$/);
    await expect(page.getByTestId('log-bar-source')).toHaveText('dropped.ndjson');
    await page.reload();
    const bar = page.getByTestId('log-bar');
    await expect(bar).toHaveAttribute('data-state', 'lost');
    await expect(bar).toContainText('The log this tab had open cannot be reopened after a reload: dropped.ndjson (1 file, opened');
    await page.goto('/finance');
    await expect(page.getByTestId('reader-no-log')).toContainText('No log is open');
    await page.goBack();
    await expect(page.getByTestId('explorer-no-log')).toContainText('No log is open');
    // This server's log (2,769 receipts) is not shown in its place under the same filter.
    await page.waitForTimeout(1500);
    await expect(page.locator('body')).not.toContainText('2,769');
    // Chosen again: the same log, the same filter.
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('log-bar-choose-files').click();
    await (await chooser).setFiles([dropped]);
    await expect(page.getByTestId('log-bar-source')).toHaveText('dropped.ndjson');
    await expect(page.getByTestId('log-bar-verdict')).toHaveText('failed: 250 of 250 receipts verified, 1 record unreadable', { timeout: 60_000 });
    await expect(page).toHaveURL(/\/receipts\?verdict=verified$/);

    // Or this server's log instead, when the user says so.
    await page.reload();
    await expect(bar).toHaveAttribute('data-state', 'lost');
    await page.getByTestId('log-bar-open-server').click();
    await expect(page.getByTestId('log-bar-source')).toHaveText("this server's receipt store");
    await expect(bar).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  });

  test('the compliance report of a log that dropped a record is not green', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const { dropped } = writeInputs(testInfo.outputPath('inputs'));
    await openFiles(page, [dropped]);
    await page.getByRole('link', { name: 'Compliance' }).first().click();
    const incomplete = page.getByTestId('scope-incomplete');
    await expect(incomplete).toContainText('All 250 receipts read in this selection were verified, but 1 record of the log could not be read.', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('scope-all-verified')).toHaveCount(0);
  });

  test('an empty file says no receipts were found, never green', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const { empty } = writeInputs(testInfo.outputPath('inputs'));
    await openFiles(page, [empty]);
    const headline = page.getByTestId('log-headline');
    await expect(headline).toHaveAttribute('data-tone', 'empty');
    await expect(headline).toContainText('No receipts found: nothing was verified.');
    await expect(page.getByTestId('log-bar-verdict')).toHaveText('no receipts found');
    expect(await headline.evaluate((e) => e.className)).not.toMatch(/\bok\b/);
  });
});
