// Contract part 2 §10: the expected results for the real Chio data of September 2026, computed
// independently of this project, against the command line as a user runs it (a real process, the
// real files). With the README's key pinned `signer_trusted` passes wherever a signature passes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testdataPath } from '../../test/support/testdata';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REAL = testdataPath('chio/realworld-2026-09');

interface Report {
  ok: boolean;
  receipts: { id: string; verdict: string; checks: Record<string, string>; envelope?: Record<string, unknown> }[];
  checkpoints: { checkpoint_seq: number; schema: string; verdict: string; checks: Record<string, string> }[];
  problems: { code: string }[];
  packages: { checks: Record<string, string>; details?: Record<string, string> }[];
  lineage?: { capability_id: string; provenance: string; verdict: string; problems: string[] }[];
}

function verify(paths: string[], key: string): { code: number; report: Report } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/receipt-audit.mjs'), 'verify', ...paths, '--trust-key', key, '--json'], {
    cwd: REAL,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status === 2 || r.status === null) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return { code: r.status, report: JSON.parse(r.stdout) as Report };
}

/** The §10 words: a receipt `verified` (inclusion passed) or an `unchecked_tail` (inclusion skipped, nothing failed). */
const expectedAs = (r: Report['receipts'][number]) =>
  r.verdict === 'verified' && r.checks.inclusion === 'pass'
    ? 'verified'
    : r.verdict !== 'failed' && r.checks.inclusion === 'skipped'
      ? 'unchecked_tail'
      : r.verdict;

describe('contract part 2 §10, through the command line', () => {
  it('minimal-evidence/: 2210ea22… unchecked_tail; manifest, read_boundary and the signed lineage row pass; no problems; ok', () => {
    const { code, report } = verify(['minimal-evidence'], '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93');
    expect(code).toBe(0);
    expect(report.receipts.map((r) => [r.id.slice(0, 8), expectedAs(r)])).toEqual([['2210ea22', 'unchecked_tail']]);
    expect(report.checkpoints).toEqual([]);
    expect(report.packages[0]!.checks).toMatchObject({ manifest: 'pass', read_boundary: 'pass' });
    expect(report.packages[0]!.details?.manifest).toMatch(/receiptSemantics recomputes/);
    expect(report.packages[0]!.details?.read_boundary).toMatch(/admin_all, no disclosure notice/);
    expect(report.lineage!.map((l) => [l.capability_id.slice(0, 12), l.provenance, l.verdict])).toEqual([['cap-01a08c9d', 'signed_token', 'verified']]);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('rehashed-changed-signed-token/: manifest still passes; the lineage row fails with lineage_signature_invalid and lineage_mismatch; not ok', () => {
    const { code, report } = verify(['rehashed-changed-signed-token'], '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93');
    expect(code).toBe(1);
    expect(report.receipts.map((r) => [r.id.slice(0, 8), expectedAs(r)])).toEqual([['2210ea22', 'unchecked_tail']]);
    expect(report.packages[0]!.checks.manifest).toBe('pass');
    expect(report.lineage!.map((l) => [l.verdict, [...l.problems].sort()])).toEqual([['failed', ['lineage_mismatch', 'lineage_signature_invalid']]]);
    expect([...new Set(report.problems.map((p) => p.code))].sort()).toEqual(['lineage_mismatch', 'lineage_signature_invalid']);
    expect(report.ok).toBe(false);
  });

  it('paid-normal/ (receipt, v2 checkpoint and proof as one log): 85711492… verified; checkpoint 1 verified with its chain; no missing_receipt; ok', () => {
    // As a folder, and as the three files given together: the same log.
    for (const paths of [['paid-normal'], ['paid-normal/receipt.json', 'paid-normal/checkpoint.json', 'paid-normal/inclusion.json']]) {
      const { code, report } = verify(paths, 'd2072964672757fb65d05f2ba4bddb3ba832f7e1f3bf2353dd9a49b064245e1f');
      expect(code, paths.join(' ')).toBe(0);
      expect(report.receipts.map((r) => [r.id.slice(0, 8), expectedAs(r)])).toEqual([['85711492', 'verified']]);
      expect(report.checkpoints.map((c) => [c.checkpoint_seq, c.schema, c.verdict, c.checks])).toEqual([
        [1, 'chio.checkpoint_statement.v2', 'verified', { signature: 'pass', structure: 'pass', continuity: 'pass', chain: 'pass', signer_trusted: 'pass' }],
      ]);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });

  it('claude-code-tool-result-text.json: 9be6277d… unchecked_tail; content_hash and delivery pass; the wrapper claims are claims; ok', () => {
    const { code, report } = verify(['claude-code-tool-result-text.json'], '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917');
    expect(code).toBe(0);
    const [r] = report.receipts;
    expect([r!.id.slice(0, 8), expectedAs(r!), r!.checks.content_hash, r!.checks.delivery]).toEqual(['9be6277d', 'unchecked_tail', 'pass', 'pass']);
    expect(r!.envelope).toMatchObject({ kind: 'chio-bridge-outcome', state: 'completed', evidence: 'verified', claimed: true });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
