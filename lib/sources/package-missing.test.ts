// A package whose manifest lists files that are not in the folder (issue 7 §4):
// one manifest_mismatch per missing file, naming it; the files that are there
// still verify.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeDir } from '../../bin/cli/node-source';
import { goodLog, ndjson, writePackage } from '../../test/support/forge';
import { loadPackage } from './package';
import { pinnedVerifier } from '../../test/support/verify-records';

async function verifyWithout(missing: string[]) {
  const { receipts, cp, proofs } = goodLog(12, 8);
  const dir = writePackage({
    'receipts.ndjson': ndjson(receipts.map((receipt, i) => ({ seq: i + 1, receipt }))),
    'checkpoints.ndjson': ndjson([cp]),
    'inclusion-proofs.ndjson': ndjson(proofs),
  });
  try {
    for (const f of missing) rmSync(path.join(dir, f));
    const verifier = pinnedVerifier();
    await loadPackage(nodeDir(dir, 'pkg'), verifier, 'package:0');
    return await verifier.finish();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a package with missing files', () => {
  it('checkpoints and proofs missing: a manifest problem for each, every receipt still verified (uncheckpointed)', async () => {
    const report = await verifyWithout(['checkpoints.ndjson', 'inclusion-proofs.ndjson']);
    expect(report.packages[0]!.checks.manifest).toBe('fail');
    const manifest = report.problems.filter((p) => p.code === 'manifest_mismatch');
    expect(manifest.map((p) => [p.file, p.message])).toEqual([
      ['checkpoints.ndjson', 'checkpoints.ndjson is listed in manifest.json but is not in the folder'],
      ['inclusion-proofs.ndjson', 'inclusion-proofs.ndjson is listed in manifest.json but is not in the folder'],
    ]);
    expect(report.summary).toMatchObject({ receipts: 12, verified: 12, checkpoints: 0 });
    expect(report.receipts.every((r) => r.checks.inclusion === 'skipped')).toBe(true);
    expect(report.ok).toBe(false);
  });

  it('receipts missing: a manifest problem naming receipts.ndjson; the checkpoint still verifies, and its receipts are reported missing', async () => {
    const report = await verifyWithout(['receipts.ndjson']);
    expect(report.problems.filter((p) => p.code === 'manifest_mismatch').map((p) => p.file)).toEqual(['receipts.ndjson']);
    expect(report.summary).toMatchObject({ receipts: 0, checkpoints: 1 });
    expect(report.checkpoints[0]!.verdict).toBe('verified');
    expect(report.problems.some((p) => p.code === 'missing_receipt')).toBe(true);
    expect(report.ok).toBe(false);
  });
});
