// The command line with other runtimes' receipts: a real process, the fixtures
// as files, `--hmac-key`, `--diff` and `--diff-max-chars`, and their usage errors.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readTestdataJson, testdataPath } from '../../test/support/testdata';
import { runCli as run } from '../../test/support/cli-process';

const KEY = '2a'.repeat(32);

interface Report {
  ok: boolean;
  receipts: { id: string; type: string; verdict: string; checks: Record<string, string>; details?: Record<string, string> }[];
  problems: { code: string; file?: string; line?: number }[];
}

interface Expectation {
  receipt_file: string;
  current_diff: string;
  expected_check: { passed: boolean; status: string; reason: string };
}

const VECTORS = testdataPath('zeroclaw/synthesized/hmac-test-vectors.json');
const tmp = () => mkdtempSync(path.join(tmpdir(), 'ra-dialects-'));

describe('receipt-audit verify with ZeroClaw and CodeWhale receipts', () => {
  it('--hmac-key: every HMAC vector verifies (exit 0); without it each is skipped as ephemeral and the text report says what the key is for', async () => {
    const withKey = await run(['verify', VECTORS, '--hmac-key', KEY, '--json']);
    expect(withKey.code).toBe(0);
    const report = JSON.parse(withKey.stdout) as Report;
    expect(report.receipts.map((r) => [r.type, r.verdict])).toEqual(Array(4).fill(['zeroclaw', 'verified']));
    const without = await run(['verify', VECTORS]);
    expect(without.code).toBe(0);
    expect(without.stdout).toMatch(/signature\s+0 pass\s+0 fail\s+4 skipped \(key not available \(ephemeral\)\)/);
  });

  it('a wrong key fails the log (exit 1) with signature_invalid on each record', async () => {
    const { code, stdout } = await run(['verify', VECTORS, `--hmac-key=${'00'.repeat(32)}`, '--json']);
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as Report).problems.map((p) => p.code)).toEqual(Array(4).fill('signature_invalid'));
  });

  const expectations = readTestdataJson<Expectation[]>('codewhale/synthesized/check-expectations.json');
  it.each(expectations.map((e) => [e.receipt_file, e] as const))('--diff: %s reproduces its expected --check-receipt outcome', async (file, e) => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'current.diff'), e.current_diff);
    const { code, stdout } = await run(['verify', testdataPath(`codewhale/synthesized/${file}`), '--diff', path.join(dir, 'current.diff'), '--json']);
    const r = (JSON.parse(stdout) as Report).receipts[0]!;
    expect(r.details!.review_gate).toBe(`${e.expected_check.status}: ${e.expected_check.reason}`);
    expect(r.verdict).toBe(e.expected_check.passed ? 'unverified' : 'failed');
    expect(code).toBe(e.expected_check.passed ? 0 : 1);
  });

  it('--diff-max-chars: the fingerprint of a diff cut as CodeWhale cuts it', async () => {
    const e = expectations.find((x) => x.expected_check.passed)!;
    const dir = tmp();
    writeFileSync(path.join(dir, 'current.diff'), e.current_diff);
    // Cut at 20 bytes, the fingerprint is another: the receipt no longer matches.
    const { stdout } = await run([
      'verify',
      testdataPath(`codewhale/synthesized/${e.receipt_file}`),
      '--diff',
      path.join(dir, 'current.diff'),
      '--diff-max-chars',
      '20',
      '--json',
    ]);
    expect((JSON.parse(stdout) as Report).receipts[0]!.details!.review_gate).toMatch(/^diff_mismatch: /);
  });

  it('a reply as a .txt file loads as text; with the tool-call records its block entries hold', async () => {
    const vectors = readTestdataJson<{ receipt: string; tool_name: string }[]>('zeroclaw/synthesized/hmac-test-vectors.json');
    const dir = tmp();
    const reply = path.join(dir, 'reply.txt');
    writeFileSync(
      reply,
      `It is Monday.\n\n---\nTool receipts:\n  ${vectors[0]!.tool_name}: ${vectors[0]!.receipt}\n  weather: zc-receipt-1711547700-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    );
    const { code, stdout } = await run(['verify', VECTORS, reply, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(report.problems).toEqual([expect.objectContaining({ code: 'fabricated_tool_call', file: reply, line: 6 })]);
    expect(report.receipts.find((r) => r.id === vectors[0]!.receipt)!.checks.claims).toBe('pass');
  });

  it.each([
    [['--hmac-key', 'xyz'], /--hmac-key must be the key as hex/],
    [['--hmac-key', ''], /--hmac-key must be the key as hex/],
    [['--diff', '/nonexistent/current.diff'], /cannot read the diff \/nonexistent\/current\.diff/],
    [['--diff-max-chars', '10'], /--diff-max-chars goes with --diff/],
    [['--diff', VECTORS, '--diff-max-chars', '0'], /--diff-max-chars needs a positive whole number/],
  ])('usage error %j: exit 2 with one clear line', async (flags, message) => {
    const { code, stderr, stdout } = await run(['verify', VECTORS, ...flags]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });
});
