import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles } from './helpers';

const SQLITE = join(process.cwd(), 'lib/testdata/chio/showcase/sqlite');

// Journey: an auditor opens Chio's own SQLite stores in the page (sql.js, in a worker); the
// sidecar store keeps its rows only in its -wal, which is picked with it.
test('real Chio SQLite stores open and verify in the page', async ({ page }) => {
  await openFiles(page, ['provider-receipts.sqlite3', 'settlement-sidecar-receipts.sqlite3', 'settlement-sidecar-receipts.sqlite3-wal'].map((f) => join(SQLITE, f)));
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('count-verified')).toHaveText('9');
  await expect(page.getByTestId('count-failed')).toHaveText('0');
});

// Bad input: garbage and a truncated file get a message naming the file and line; the valid
// records around them still load and verify.
test('garbage and truncated files are named by file and line; everything valid still verifies', async ({ page }, testInfo) => {
  const dir = join(testInfo.outputDir, 'bad');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'garbage.ndjson'), 'this is not json\n\u0000\u0001binary\n');
  writeFileSync(join(dir, 'truncated.json'), '[{"id": "a", "timestamp": 1');
  await openFiles(page, [
    join(dir, 'garbage.ndjson'),
    join(dir, 'truncated.json'),
    join(process.cwd(), 'lib/testdata/chio/showcase/derived-from-sqlite/provider-receipts.chio_tool_receipts.ndjson'),
  ]);
  await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('count-verified')).toHaveText('8');
  const problems = page.getByTestId('problems');
  await expect(problems).toContainText('garbage.ndjson:1');
  await expect(problems).toContainText('garbage.ndjson:2');
  await expect(problems).toContainText('truncated.json:1');
  await page.screenshot({ path: join(testInfo.project.outputDir, 'bad-input.png'), fullPage: true });
});
