// The command line as a user runs it: a real process, real files. Every corpus
// case (an independent producer's logs) must agree with its expected.json.
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testdataPath } from '../../test/support/testdata';
import { runCli as run } from '../../test/support/cli-process';

interface Expected {
  trust_keys: string[];
  ok: boolean;
  receipts: Record<string, 'verified' | 'unchecked_tail' | 'failed' | 'not_verified' | 'missing'>;
  checkpoints?: Record<string, 'verified' | 'failed'>;
  problems?: string[];
  finance_breaks?: string[];
}

interface JsonReport {
  ok: boolean;
  receipts: { id: string; verdict: string; checks: Record<string, string> }[];
  checkpoints: { checkpoint_seq: number; verdict: string }[];
  problems: { code: string; file?: string; line?: number }[];
  finance: { budgets: { breaks: string[] }[] };
}

/** Compares a report with an expected.json; returns every disagreement. */
function disagreements(report: JsonReport, exp: Expected): string[] {
  const out: string[] = [];
  if (report.ok !== exp.ok) out.push(`ok is ${report.ok}, expected ${exp.ok}`);
  const byId = new Map<string, JsonReport['receipts'][number][]>();
  for (const r of report.receipts) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  for (const [id, want] of Object.entries(exp.receipts)) {
    const rs = byId.get(id) ?? [];
    if (rs.length > 1) out.push(`${id} appears ${rs.length} times`);
    const r = rs[0];
    const v = r?.verdict;
    const good =
      want === 'verified'
        ? v === 'verified'
        : want === 'unchecked_tail'
          ? (v === 'verified' || v === 'unverified') && r?.checks.inclusion === 'skipped'
          : want === 'failed'
            ? v === 'failed'
            : want === 'not_verified'
              ? v === 'failed' || v === 'unverified'
              : r === undefined;
    if (!good) out.push(`${id}: expected ${want}, got ${v ?? 'no entry'} ${r ? JSON.stringify(r.checks) : ''}`);
  }
  const extra = report.receipts.filter((r) => !(r.id in exp.receipts));
  if (extra.length) out.push(`unexpected receipts: ${extra.map((r) => r.id).join(', ')}`);
  for (const [seq, want] of Object.entries(exp.checkpoints ?? {})) {
    const c = report.checkpoints.find((x) => String(x.checkpoint_seq) === seq);
    if (c?.verdict !== want) out.push(`checkpoint ${seq}: expected ${want}, got ${c?.verdict ?? 'no entry'}`);
  }
  const codes = new Set(report.problems.map((p) => p.code));
  for (const code of exp.problems ?? []) if (!codes.has(code)) out.push(`problem ${code} is missing`);
  if (exp.finance_breaks) {
    const got = report.finance.budgets.flatMap((b) => b.breaks).sort();
    if (JSON.stringify(got) !== JSON.stringify([...exp.finance_breaks].sort()))
      out.push(`finance breaks ${JSON.stringify(got)}, expected ${JSON.stringify(exp.finance_breaks)}`);
  }
  return out;
}

const CORPUS = testdataPath('corpus');
const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('receipt-audit verify on every corpus case agrees with expected.json', () => {
  it('has the seven cases', () =>
    expect(cases).toEqual(['bad-chain-root-v2', 'bad-checkpoint-signature', 'duplicate-key', 'good', 'good-v2', 'tampered-field', 'tampered-signature']));

  it.each(cases)('%s', async (name) => {
    const dir = path.join(CORPUS, name);
    const exp = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
    const res = await run(['verify', dir, ...exp.trust_keys.flatMap((k) => ['--trust-key', k]), '--json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(exp.ok ? 0 : 1);
    const report = JSON.parse(res.stdout) as JsonReport;
    expect(disagreements(report, exp)).toEqual([]);
  });
});

describe('receipt-audit: exit status and messages', () => {
  it('a large input runs again with a larger heap, with the same output and exit status', async () => {
    const exp = JSON.parse(readFileSync(path.join(CORPUS, 'tampered-signature/expected.json'), 'utf8')) as Expected;
    const args = ['verify', path.join(CORPUS, 'tampered-signature'), '--trust-key', exp.trust_keys[0]!];
    const env = { ...process.env, NODE_OPTIONS: '', RECEIPT_AUDIT_SHOW_HEAP: '1' };
    const plain = await run(args, env);
    // Every input counts as large: the command runs itself again with --max-old-space-size.
    const again = await run(args, { ...env, RECEIPT_AUDIT_LARGE_INPUT_MB: '0' });
    const heap = (r: { stderr: string }) => Number(/^heap limit (\d+) MB$/.exec(r.stderr.trim())?.[1]);
    // V8's limit is the flag's old space plus its young generation. On a machine whose 3/4 of
    // memory is not well above Node's default, there is nothing to gain and no second run.
    const want = Math.floor((os.totalmem() / 2 ** 20) * 0.75);
    if (want > heap(plain) * 1.25) {
      expect(heap(again)).toBeGreaterThanOrEqual(want);
      expect(heap(again)).toBeLessThan(want + 512);
    } else {
      expect(heap(again)).toBe(heap(plain));
    }
    expect(again.code).toBe(1);
    expect(again.stdout.replace(/ in [\d.,]+ (ms|s)/g, '')).toBe(plain.stdout.replace(/ in [\d.,]+ (ms|s)/g, ''));
  });

  it('prints a readable summary: verdict counts, check totals, problems with file:line, budgets', async () => {
    const exp = JSON.parse(readFileSync(path.join(CORPUS, 'tampered-signature/expected.json'), 'utf8')) as Expected;
    const res = await run(['verify', path.join(CORPUS, 'tampered-signature'), '--trust-key', exp.trust_keys[0]!]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/Result: FAILED/);
    expect(res.stdout).toMatch(/Receipts: 280 \(verified 279, failed 1, unverified 0\)/);
    expect(res.stdout).toMatch(/signature\s+279 pass\s+1 fail/);
    expect(res.stdout).toMatch(/signature_invalid\s+receipts\.ndjson:7 /);
    expect(res.stdout).toMatch(/Budgets: 2 \(capability, grant\)/);
    expect(res.stdout).toMatch(/cap-billing-1\s+0\s+USD/);
    // Every package check, in contract order, with its detail.
    expect(res.stdout).toMatch(
      /Package .*tampered-signature:\n\s+manifest\s+pass\s+\(12 listed files match; counts match; query\.json = manifest query; no proofCoverage stated; no receiptSemantics stated \(not compared\)\)\n\s+read_boundary\s+skipped\s+\(query\.readBoundary is absent\)\n\s+scope\s+pass\s+\(250 tool and 30 child receipts within the query \(no filters\)/,
    );
    expect(res.stdout).toMatch(/warning read_boundary_missing\s+query\.json /);
  });

  it('a missing path exits 2 with one line', async () => {
    const res = await run(['verify', '/nonexistent/log.ndjson']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toEqual(['receipt-audit: cannot read /nonexistent/log.ndjson: no such file or folder']);
  });

  it('an unknown format exits 2 with one line naming the file', async () => {
    const f = path.join(mkdtempSync(path.join(tmpdir(), 'ra-')), 'picture.png');
    writeFileSync(f, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
    const res = await run(['verify', f]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain(`unknown format: ${f}`);
  });

  it('a folder that is not a package, a malformed key and bad usage exit 2', async () => {
    expect((await run(['verify', mkdtempSync(path.join(tmpdir(), 'ra-empty-'))])).code).toBe(2);
    const badKey = await run(['verify', path.join(CORPUS, 'good'), '--trust-key', 'abc']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/not a valid kernel key/);
    expect((await run([])).code).toBe(2);
    expect((await run(['verify'])).code).toBe(2);
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['verify', path.join(CORPUS, 'good'), '--what'])).code).toBe(2);
  });

  it('a bad line is a problem with file and line, and every other record is still verified', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ra-pkg-')), 'pkg');
    cpSync(path.join(CORPUS, 'good'), dir, { recursive: true });
    appendFileSync(path.join(dir, 'receipts.ndjson'), '{"seq":251,"receipt":{"id":"broken"\n');
    const exp = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
    const res = await run(['verify', dir, '--trust-key', exp.trust_keys[0]!, '--json']);
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as JsonReport;
    expect(report.problems.find((p) => p.code === 'parse_error')).toMatchObject({ file: 'receipts.ndjson', line: 251 });
    expect(report.problems.some((p) => p.code === 'manifest_mismatch')).toBe(true);
    expect(report.receipts.filter((r) => r.verdict === 'verified').length).toBe(280);
  });

  it('--trust-file pins keys with a validity window', async () => {
    const exp = JSON.parse(readFileSync(path.join(CORPUS, 'good/expected.json'), 'utf8')) as Expected;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ra-trust-')), 'keys.json');
    writeFileSync(file, JSON.stringify([{ key: exp.trust_keys[0], label: 'kernel', not_before: '2026-01-01T00:00:00Z', not_after: 1767230000 }]));
    const res = await run(['verify', path.join(CORPUS, 'good'), '--trust-file', file, '--json']);
    const report = JSON.parse(res.stdout) as JsonReport;
    // Receipts after the window's end (Unix 1767230000) fail signer_trusted; earlier ones pass.
    const trusted = report.receipts.map((r) => r.checks.signer_trusted);
    expect(trusted.includes('pass') && trusted.includes('fail')).toBe(true);
    expect(res.code).toBe(1);
  });

  it('a bad --trust-file entry exits 2 naming the file and the entry', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ra-trust-')), 'keys.json');
    writeFileSync(file, JSON.stringify([{ key: 'a'.repeat(64) }, { key: 'a'.repeat(64), not_before: 'next tuesday' }]));
    const res = await run(['verify', path.join(CORPUS, 'good'), '--trust-file', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`trust file ${file}: entry 2: not_before must be Unix seconds or an ISO 8601 date`);
  });
});
