import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { pinKey } from './helpers';
import { NOTHING_PINNED } from './pinned';

// These journeys start from a browser with nothing pinned (the other specs start with the demo key pinned).
test.use({ storageState: NOTHING_PINNED });

const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';

// Journey: an auditor pins the key they were given, and the log is checked against it.
test('pinning the demo key on /trust makes every demo receipt pass signer_trusted', async ({ page }, testInfo) => {
  await pinKey(page, DEMO_KEY);
  await page.screenshot({ path: join(testInfo.project.outputDir, 'trust.png'), fullPage: true });
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('count-verified')).toHaveText('2769');
  await expect(page.getByTestId('receipt-checks').getByRole('row', { name: /signer_trusted/ })).toContainText('2769');
  await expect(page.getByTestId('checkpoint-checks').getByRole('row', { name: /signer_trusted/ })).toContainText('24');
  await expect(page.getByText('pinned', { exact: true })).toBeVisible();
});

test('a key that is not a kernel key is refused with a reason; another pinned key makes the demo fail', async ({ page }) => {
  await page.goto('/trust');
  await page.getByTestId('trust-key-input').fill('not-a-key');
  await page.getByTestId('trust-key-add').click();
  await expect(page.getByRole('status')).toContainText('not a kernel key');
  await pinKey(page, 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737');
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('count-failed')).toHaveText('2769');
});

// Journey: the keys pinned in the browser go to CI as the command line's --trust-file.
test('the exported trust file pins the same signer for receipt-audit --trust-file', async ({ page }) => {
  const dir = join(process.cwd(), 'lib/testdata/corpus/good');
  const [key] = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { trust_keys: string[] }).trust_keys;
  await pinKey(page, key!);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /Export \(for receipt-audit --trust-file\)/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('receipt-audit-trust.json');
  const file = await download.path();
  const run = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'verify', dir, '--trust-file', file, '--json'], { maxBuffer: 64 << 20 });
  expect(run.status, run.stderr.toString()).toBe(0);
  const report = JSON.parse(run.stdout.toString()) as { receipts: { checks: { signer_trusted: string } }[] };
  expect(report.receipts.length).toBe(280);
  expect(report.receipts.every((r) => r.checks.signer_trusted === 'pass')).toBe(true);
});

/** Clicks an export button and returns the downloaded file's bytes. */
async function exported(page: Page, name: RegExp | string): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  return readFileSync(await download.path());
}

// Journey: the auditor moves their trust (pinned keys and remembered checkpoints) to a fresh browser profile.
test('pinned keys and remembered checkpoints survive reloads; export → clear → import → export is byte-identical; a bad file changes nothing', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const dir = join(testInfo.outputDir, 'trust-files');
  mkdirSync(dir, { recursive: true });
  const labels = ['démo — kernel ✓ 🔑', 'שלום \u202Estaging\u202C', 'e\u0301 "quoted" <b>not bold</b>'];
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify({
      keys: [
        { key: DEMO_KEY, label: labels[0], not_before: '2026-01-01T00:00:00Z', not_after: 4102444800 },
        { key: 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737', label: labels[1], not_before: 0 },
        { key: '11'.repeat(32), label: labels[2], not_after: '2030-06-30T23:59:59Z' },
      ],
    }),
  );
  // Five other logs' heads, written by hand in the documented format (u64 as decimal strings).
  const logs = [0x21, 0x32, 0x43, 0x54, 0x65].map((b, i) => ({
    key: b.toString(16).repeat(32),
    checkpoint_seq: String(i * 1000 + 7),
    batch_start_seq: '1',
    batch_end_seq: String(700 + i),
    tree_size: String(700 + i),
    merkle_root: (b + 1).toString(16).repeat(32),
    checkpoint_sha256: (b + 2).toString(16).repeat(32),
    ...(i % 2 ? { previous_checkpoint_sha256: (b + 3).toString(16).repeat(32) } : {}),
    issued_at: i === 4 ? '18446744073709551615' : String(1767225600 + i),
    seen_at: `2026-0${i + 1}-15T08:00:00.000Z`,
    source: `https://log-${i}.example/ ${labels[i % 3]}`,
  }));
  const checkpointsFile = join(dir, 'checkpoints.json');
  writeFileSync(checkpointsFile, JSON.stringify({ version: 1, logs }));

  // This browser verifies the demo log (its head is remembered), then imports both files.
  await page.goto('/');
  await expect(page.getByTestId('checkpoint-new')).toHaveAttribute('data-key', DEMO_KEY, { timeout: 60_000 });
  await page.getByRole('link', { name: 'Trust' }).click();
  await page.getByTestId('trust-import').setInputFiles(keysFile);
  await expect(page.getByTestId('trust-status')).toHaveText('Imported 3 key(s) from keys.json.');
  await page.getByTestId('checkpoints-import').setInputFiles(checkpointsFile);
  await expect(page.getByTestId('checkpoints-status')).toHaveText('Imported the checkpoints of 5 log(s) from checkpoints.json.');
  const keyRows = page.getByTestId('trust-list').locator('tbody tr');
  const cpRows = page.getByTestId('remembered-checkpoints').locator('tbody tr');

  // A reload keeps both, labels and windows as imported.
  await page.reload();
  await expect(keyRows).toHaveCount(3);
  await expect(page.getByTestId('trust-list')).toContainText(labels[0]!);
  await expect(keyRows.first()).toContainText('2026-01-01T00:00:00Z');
  await expect(cpRows).toHaveCount(6);
  const keysExport = await exported(page, /Export \(for receipt-audit --trust-file\)/);
  const cpExport = await exported(page, 'Export the remembered checkpoints');
  const cpDoc = JSON.parse(cpExport.toString('utf8')) as { logs: { key: string; issued_at: string }[] };
  expect(cpDoc.logs.map((l) => l.key).sort()).toEqual([DEMO_KEY, ...logs.map((l) => l.key)].sort());
  expect(cpDoc.logs.find((l) => l.key === logs[4]!.key)!.issued_at).toBe('18446744073709551615');
  // Labels byte for byte (bidi controls and combining marks included), ISO times as Unix seconds.
  const keysDoc = JSON.parse(keysExport.toString('utf8')) as { label: string; not_before?: number; not_after?: number }[];
  expect(keysDoc.map((k) => k.label)).toEqual(labels);
  expect(keysDoc.map((k) => [k.not_before, k.not_after])).toEqual([
    [1767225600, 4102444800],
    [0, undefined],
    [undefined, Date.parse('2030-06-30T23:59:59Z') / 1000],
  ]);

  // A fresh profile: nothing pinned, nothing remembered.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByText('No keys pinned')).toBeVisible();
  await expect(page.getByText('None yet: open a log with checkpoints.')).toBeVisible();

  // The exported files restore it exactly.
  writeFileSync(join(dir, 'exported-keys.json'), keysExport);
  writeFileSync(join(dir, 'exported-checkpoints.json'), cpExport);
  await page.getByTestId('trust-import').setInputFiles(join(dir, 'exported-keys.json'));
  await page.getByTestId('checkpoints-import').setInputFiles(join(dir, 'exported-checkpoints.json'));
  await expect(page.getByTestId('checkpoints-status')).toContainText('Imported the checkpoints of 6 log(s)');
  expect((await exported(page, /Export \(for receipt-audit --trust-file\)/)).equals(keysExport)).toBe(true);
  expect((await exported(page, 'Export the remembered checkpoints')).equals(cpExport)).toBe(true);

  // Hostile or malformed files are refused whole, saying why; nothing changes.
  const bad = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  await page
    .getByTestId('trust-import')
    .setInputFiles(bad('bad-keys.json', JSON.stringify([{ key: '22'.repeat(32) }, { key: '<img src=x onerror=window.__pwned=1>' }])));
  await expect(page.getByTestId('trust-status')).toHaveText(
    'bad-keys.json: entry 2: not a valid kernel key: "<img src=x onerror=window.__pwned=1>"; nothing was imported.',
  );
  await page.getByTestId('trust-import').setInputFiles(bad('not-json.json', '{"keys": ['));
  await expect(page.getByTestId('trust-status')).toHaveText('not-json.json: not JSON; nothing was imported.');
  const forkedHead = { ...cpDoc.logs.find((l) => l.key === DEMO_KEY)!, checkpoint_sha256: '00'.repeat(32) };
  await page.getByTestId('checkpoints-import').setInputFiles(bad('other-history.json', JSON.stringify({ version: 1, logs: [logs[0], forkedHead] })));
  await expect(page.getByTestId('checkpoints-status')).toContainText(
    `other-history.json was not imported: it disagrees with what this browser remembers for ${DEMO_KEY}`,
  );
  await page.getByTestId('checkpoints-import').setInputFiles(
    bad(
      'bad-checkpoints.json',
      JSON.stringify({
        version: 1,
        logs: [
          { ...logs[0], key: '77'.repeat(32) },
          { ...logs[1], tree_size: '1e3' },
        ],
      }),
    ),
  );
  await expect(page.getByTestId('checkpoints-status')).toHaveText(
    'bad-checkpoints.json was not imported: entry 2: a sequence number, tree size or issued_at is not a decimal u64. Nothing changed.',
  );
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await page.reload();
  await expect(keyRows).toHaveCount(3);
  await expect(cpRows).toHaveCount(6);
  expect((await exported(page, /Export \(for receipt-audit --trust-file\)/)).equals(keysExport)).toBe(true);
  expect((await exported(page, 'Export the remembered checkpoints')).equals(cpExport)).toBe(true);
});

// Journey: the keys stored in this browser were damaged (another tool, a hand edit). The page
// must say so, not verify as if no key had ever been pinned.
test('pinned keys that cannot be read are an alert on the overview and /trust, never a silent "no keys pinned"', async ({ page }) => {
  await pinKey(page, DEMO_KEY);
  await page.evaluate(() => localStorage.setItem('receipt-audit.trust.v1', '[{"key":"not a key"}]'));
  await page.goto('/');
  const alert = page.getByTestId('trust-storage-issue');
  await expect(alert).toContainText('The keys pinned in this browser could not be read (entry 1: not a valid kernel key');
  await expect(alert).toContainText('signer_trusted is skipped for every receipt');
  await page.goto('/trust');
  await expect(page.getByTestId('trust-storage-issue')).toContainText('Import your trust file again');
  // Pinning again replaces what was stored, and the alert goes.
  await page.getByTestId('trust-key-input').fill(DEMO_KEY);
  await page.getByTestId('trust-key-add').click();
  await expect(page.getByTestId('trust-storage-issue')).toHaveCount(0);
  await expect(page.getByTestId('trust-list')).toContainText(DEMO_KEY);
});
