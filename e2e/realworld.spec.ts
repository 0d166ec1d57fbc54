import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openFiles, pinKey } from './helpers';

// Journey: an auditor opens what Chio kernels wrote in September 2026 (contract part 2 §10): a
// Gen B evidence package with signed capability lineage, the same package with its token tampered,
// a receipt with its v2 checkpoint and proof, and the tool-result text of a Claude Code session.
// The page's exported report must be the command line's, and both must say what §10 says.
const REAL = join(process.cwd(), 'lib/testdata/chio/realworld-2026-09');

type Report = {
  ok: boolean;
  summary: unknown;
  receipts: { id: string; verdict: string; checks: Record<string, string>; details?: Record<string, string>; envelope?: unknown }[];
  checkpoints: { checkpoint_seq: number; schema: string; verdict: string; checks: Record<string, string> }[];
  problems: { code: string }[];
  finance: unknown;
  packages: { checks: Record<string, string> }[];
  lineage?: { capability_id: string; verdict: string; problems: string[] }[];
};

const comparable = (r: Report) => ({
  ok: r.ok,
  summary: r.summary,
  receipts: r.receipts,
  checkpoints: r.checkpoints,
  problems: r.problems,
  finance: r.finance,
  packages: r.packages.map((p) => p.checks),
  lineage: r.lineage,
});

interface Case {
  name: string;
  /** What is opened: a folder's files (relative names, as a drop gives them), or one file. */
  files: string[];
  cwd: string;
  /** What the CLI is given, in `cwd`: the folder itself for a package (a drop of its files is one too). */
  cli: string[];
  key: string;
  check: (r: Report) => void;
}

const filesOf = (dir: string) =>
  readdirSync(dir)
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();

const cases: Case[] = [
  {
    name: 'minimal-evidence',
    cwd: join(REAL, 'minimal-evidence'),
    files: filesOf(join(REAL, 'minimal-evidence')),
    cli: ['.'],
    key: '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93',
    check: (r) => {
      expect(r.ok).toBe(true);
      expect(r.problems).toEqual([]);
      expect(r.receipts.map((x) => [x.id.slice(0, 8), x.checks.inclusion])).toEqual([['2210ea22', 'skipped']]);
      expect(r.packages[0]!.checks).toMatchObject({ manifest: 'pass', read_boundary: 'pass' });
      expect(r.lineage?.map((l) => [l.capability_id.slice(0, 12), l.verdict])).toEqual([['cap-01a08c9d', 'verified']]);
    },
  },
  {
    name: 'rehashed-changed-signed-token',
    cwd: join(REAL, 'rehashed-changed-signed-token'),
    files: filesOf(join(REAL, 'rehashed-changed-signed-token')),
    cli: ['.'],
    key: '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93',
    check: (r) => {
      expect(r.ok).toBe(false);
      expect(r.packages[0]!.checks.manifest).toBe('pass');
      expect(r.lineage?.map((l) => [l.verdict, [...l.problems].sort()])).toEqual([['failed', ['lineage_mismatch', 'lineage_signature_invalid']]]);
    },
  },
  {
    name: 'paid-normal',
    cwd: join(REAL, 'paid-normal'),
    files: filesOf(join(REAL, 'paid-normal')),
    cli: filesOf(join(REAL, 'paid-normal')),
    key: 'd2072964672757fb65d05f2ba4bddb3ba832f7e1f3bf2353dd9a49b064245e1f',
    check: (r) => {
      expect(r.ok).toBe(true);
      expect(r.problems).toEqual([]);
      expect(r.receipts.map((x) => [x.id.slice(0, 8), x.verdict, x.checks.inclusion])).toEqual([['85711492', 'verified', 'pass']]);
      expect(r.checkpoints.map((c) => [c.schema, c.verdict, c.checks.chain])).toEqual([['chio.checkpoint_statement.v2', 'verified', 'pass']]);
    },
  },
  {
    name: 'claude-code-tool-result-text',
    cwd: REAL,
    files: ['claude-code-tool-result-text.json'],
    cli: ['claude-code-tool-result-text.json'],
    key: '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917',
    check: (r) => {
      expect(r.ok).toBe(true);
      expect(r.problems).toEqual([]);
      expect(r.receipts.map((x) => [x.id.slice(0, 8), x.checks.content_hash, x.checks.delivery, x.checks.inclusion])).toEqual([
        ['9be6277d', 'pass', 'pass', 'skipped'],
      ]);
      expect(r.receipts[0]!.envelope).toMatchObject({ state: 'completed', evidence: 'verified', claimed: true });
    },
  },
];

for (const c of cases) {
  test(`real 2026-09 data, ${c.name}: the page's exported report is the CLI's, and both say what contract part 2 §10 says`, async ({ page }, testInfo) => {
    await pinKey(page, c.key);
    const bin = join(process.cwd(), 'bin/receipt-audit.mjs');
    // Run where the files are, with their bare names: the page knows a dropped file by its name only.
    const run = spawnSync(process.execPath, [bin, 'verify', ...c.cli, '--trust-key', c.key, '--json'], { cwd: c.cwd, maxBuffer: 64 << 20 });
    expect(run.status, run.stderr.toString()).toBeLessThan(2);
    const cli = JSON.parse(run.stdout.toString()) as Report;
    c.check(cli);
    await openFiles(
      page,
      c.files.map((f) => join(c.cwd, f)),
    );
    await expect(page.getByTestId('verify-summary')).toHaveAttribute('data-ok', String(cli.ok));
    if (cli.lineage) {
      const lineage = page.getByTestId('lineage-summary');
      await expect(lineage).toHaveAttribute('data-rows', String(cli.lineage.length));
      await expect(lineage).toHaveAttribute('data-failed', String(cli.lineage.filter((l) => l.verdict === 'failed').length));
    }
    await page.screenshot({ path: join(testInfo.project.outputDir, `realworld-${c.name}.png`), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]);
    const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Report;
    expect(comparable(browser)).toEqual(comparable(cli));
    // Its receipt page lays the receipt open, read again from the file (out of its envelope, if it came in one).
    await page.getByRole('link', { name: 'Receipts', exact: true }).click();
    await page.locator('[data-receipt-id]').first().click();
    await expect(page.getByTestId('receipt-verdict')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('The receipt cannot be laid open')).toHaveCount(0);
    await expect(page.getByTestId('receipt-envelope')).toHaveCount(cli.receipts[0]!.envelope ? 1 : 0);
    await page.screenshot({ path: join(testInfo.project.outputDir, `realworld-${c.name}-receipt.png`), fullPage: true });
  });
}
