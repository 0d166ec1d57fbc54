import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openFiles } from './helpers';
import { keysPinned } from './pinned';

// Journey: an auditor reads the overview of a verified log: where its checkpoints sit on the
// log and which failed, what is not checkpointed yet, and from each problem to the records it
// concerns.
const CORPUS = join(process.cwd(), 'lib/testdata/corpus');
const openCase = (page: Page, name: string) =>
  openFiles(
    page,
    readdirSync(join(CORPUS, name)).map((f) => join(CORPUS, name, f)),
  );
const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';

test('the demo: 24 checkpoints verified in one lane, then the uncheckpointed tail', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  const lane = page.getByTestId('timeline-lane');
  await expect(lane).toHaveCount(1);
  await expect(lane).toHaveAttribute('data-checkpoints', '24');
  await expect(lane).toHaveAttribute('data-failed', '0');
  await expect(lane).toContainText('24 checkpoints, all verified; covering seq 1–2,400; no gaps; no overlaps');
  const runs = lane.getByTestId('timeline-run');
  await expect(runs).toHaveCount(1);
  await expect(runs).toHaveAttribute('data-verdict', 'verified');
  await expect(runs).toHaveAttribute('data-count', '24');
  // 37 tool receipts after checkpoint 24 and the 332 child receipts.
  const tail = lane.getByTestId('timeline-tail');
  await expect(tail).toHaveAttribute('data-count', '369');
  await expect(tail).toHaveAttribute('aria-label', /^Uncheckpointed tail: 369 receipts .*37 tool \(seq 2,401–2,437\), 332 child/);
  await expect(page.getByTestId('failed-checkpoints-none')).toBeVisible();
  await page.screenshot({ path: join(testInfo.project.outputDir, 'overview-demo.png'), fullPage: true });
});

test('a failed checkpoint is a red segment of its own; its problem focuses it, the keyboard walks on to the tail', async ({ page }, testInfo) => {
  await openCase(page, 'bad-checkpoint-signature');
  const lane = page.getByTestId('timeline-lane');
  await expect(lane).toHaveAttribute('data-failed', '1');
  const failed = lane.locator('[data-testid="timeline-run"][data-verdict="failed"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toHaveAttribute('id', 'checkpoint-checkpoints.ndjson-2');
  await expect(failed).toHaveAttribute('aria-label', /^Checkpoint 2 \(v1\), seq 101–200: failed: signature fail \(checkpoint 2: the signature is rejected/);
  await expect(lane.getByTestId('timeline-tail')).toHaveAttribute('data-count', '80');
  const row = page.getByTestId('failed-checkpoints').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-checkpoint-seq', '2');
  await expect(row).toContainText('signature (fail)');

  const group = page.locator('[data-testid="problem-group"][data-code="checkpoint_signature_invalid"]');
  await group.locator('[data-target="checkpoint"]').click();
  await expect(page).toHaveURL(/#checkpoint-checkpoints\.ndjson-2$/);
  await expect(failed).toBeFocused();
  await expect(page.getByTestId('timeline-selection')).toContainText('Checkpoint 2 (v1), seq 101–200: failed');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'overview-failed-checkpoint.png'), fullPage: true });
  await page.keyboard.press('ArrowRight');
  await expect(lane.getByTestId('timeline-tail')).toBeFocused();
  await expect(page.getByTestId('timeline-selection')).toContainText('80 receipts no checkpoint covers yet: 50 tool (seq 201–250), 30 child (seq 1–30)');
  await page.keyboard.press('Home');
  await expect(page.locator('#checkpoint-checkpoints\\.ndjson-1')).toBeFocused();
});

test("a receipt's problem opens the receipt; its group opens the explorer on exactly the rows that carry it", async ({ page }) => {
  await openCase(page, 'tampered-signature');
  const group = page.locator('[data-testid="problem-group"][data-code="signature_invalid"]');
  await group.locator('[data-target="receipt"]').first().click();
  await expect(page).toHaveURL(/\/receipts\/rcpt-000007-fb1061b9\?file=receipts\.ndjson&line=7$/);
  await expect(page.getByTestId('receipt-verdict')).toHaveAttribute('data-verdict', 'failed');
  await page.goBack();
  await page.locator('[data-testid="problem-group"][data-code="signature_invalid"]').getByTestId('problem-group-explorer').click();
  await expect(page).toHaveURL(/\/receipts\?problem=signature_invalid$/);
  await expect(page.getByTestId('explorer-count')).toContainText('1 of 280');
  const rows = page.locator('[data-receipt-id]');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-receipt-id', 'rcpt-000007-fb1061b9');
  await expect(rows).toHaveAttribute('data-verdict', 'failed');
});

test('a line that is no record leads to the explorer over its file; a proof without its receipt to its checkpoint', async ({ page }) => {
  await openCase(page, 'duplicate-key');
  const dup = page.locator('[data-testid="problem-group"][data-code="duplicate_key"]');
  await expect(dup).toContainText('no receipt could be read from line 5');
  await page.locator('[data-testid="problem-group"][data-code="missing_receipt"] [data-target="checkpoint"]').click();
  await expect(page.locator('#checkpoint-checkpoints\\.ndjson-1')).toBeFocused();
  await dup.locator('[data-target="file"]').click();
  await expect(page).toHaveURL(/\/receipts\?file=receipts\.ndjson$/);
  // 250 lines, one of them unreadable; the 30 child receipts are in another file.
  await expect(page.getByTestId('explorer-count')).toContainText('249 of 279');
  await expect(page.locator('[data-receipt-id]').first()).toHaveAttribute('data-receipt-id', 'rcpt-000001-4f938baf');
});

test.describe('with only the demo key pinned', () => {
  // Pinning another key makes every receipt and checkpoint of the case an untrusted signer.
  test.use({ storageState: keysPinned([DEMO_KEY]) });
  test('every problem is reachable: a large group pages to its end, and its explorer link counts its receipts', async ({ page }) => {
    await openCase(page, 'good');
    const group = page.locator('[data-testid="problem-group"][data-code="untrusted_signer"]');
    await expect(group).toHaveAttribute('data-count', '282');
    await expect(group).not.toHaveAttribute('open', '');
    await group.locator('summary').click();
    const items = group.locator('.problem-items > li');
    await expect(items).toHaveCount(100);
    await group.getByRole('button', { name: /^Show 100 more/ }).click();
    await expect(items).toHaveCount(200);
    await group.getByRole('button', { name: /^Show 82 more/ }).click();
    await expect(items).toHaveCount(282);
    await expect(group.getByRole('button')).toHaveCount(0);
    await expect(group.getByTestId('problem-group-explorer')).toHaveText('Show the 280 receipts with this problem in the explorer');
    // Both checkpoints are named by a problem: each stands alone on the timeline, and fails.
    await expect(page.locator('[data-testid="timeline-run"][data-verdict="failed"]')).toHaveCount(2);
  });
});
