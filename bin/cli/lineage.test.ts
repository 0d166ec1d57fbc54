// Signed capability lineage through the command line as a user runs it (a real process, the
// real 2026-09 packages): verification-v2.md §10 says minimal-evidence is ok with its lineage row
// verified, and the same package with the token's subject changed and the manifest rehashed
// fails on that row alone, with lineage_signature_invalid and lineage_mismatch.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testdataPath } from '../../test/support/testdata';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(ROOT, 'bin/receipt-audit.mjs');
const KERNEL = '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93';
const CAP = 'cap-01a08c9d-54ba-7cf2-83d1-6fbd326a9b21';

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

interface Report {
  ok: boolean;
  summary: Record<string, number>;
  receipts: { id: string; verdict: string; checks: Record<string, string> }[];
  lineage?: { capability_id: string; provenance: string; verdict: string; checks: Record<string, string>; problems: string[]; file: string; line: number }[];
  problems: { code: string; severity: string; file?: string; line?: number }[];
}

const verify = async (name: string, json = true) =>
  run(['verify', testdataPath(`chio/realworld-2026-09/${name}`), '--trust-key', KERNEL, ...(json ? ['--json'] : [])]);

describe('receipt-audit verify on the real signed-lineage packages', () => {
  it('minimal-evidence: exit 0, the signed_token row verified, no problems', async () => {
    const res = await verify('minimal-evidence');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as Report;
    expect(report.ok).toBe(true);
    expect(report.lineage).toEqual([
      {
        capability_id: CAP,
        provenance: 'signed_token',
        verdict: 'verified',
        checks: { lineage: 'pass' },
        problems: [],
        file: 'capability-lineage.ndjson',
        line: 1,
      },
    ]);
    expect(report.summary).toMatchObject({ lineage: 1, lineage_failed: 0 });
    expect(report.problems).toEqual([]);
    expect(report.receipts.map((r) => [r.id.slice(0, 8), r.verdict, r.checks.inclusion])).toEqual([['2210ea22', 'verified', 'skipped']]);
  });

  it('rehashed-changed-signed-token: exit 1, the row fails with both codes, the receipt is unchanged', async () => {
    const res = await verify('rehashed-changed-signed-token');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as Report;
    expect(report.ok).toBe(false);
    expect(report.lineage!.map((l) => [l.capability_id, l.verdict, l.checks.lineage, l.problems])).toEqual([
      [CAP, 'failed', 'fail', ['lineage_signature_invalid', 'lineage_mismatch']],
    ]);
    expect(report.summary).toMatchObject({ lineage: 1, lineage_failed: 1 });
    expect(report.problems.map((p) => [p.code, p.severity, p.file, p.line])).toEqual([
      ['lineage_mismatch', 'error', 'capability-lineage.ndjson', 1],
      ['lineage_signature_invalid', 'error', 'capability-lineage.ndjson', 1],
    ]);
    expect(report.receipts.map((r) => [r.verdict, r.checks.signature])).toEqual([['verified', 'pass']]);
  });

  it('the summary has a lineage line with its counts and each failed row with its codes', async () => {
    const good = await verify('minimal-evidence', false);
    expect(good.stdout).toMatch(/^Capability lineage: 1 row \(1 signed and verified, 0 failed\)$/m);
    const bad = await verify('rehashed-changed-signed-token', false);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^Capability lineage: 1 row \(0 signed and verified, 1 failed\)$/m);
    expect(bad.stdout).toContain(`  failed  ${CAP}  capability-lineage.ndjson:1  lineage_signature_invalid, lineage_mismatch`);
  });
});
