// Tampered ZeroClaw and CodeWhale receipts, enumerated: every change the
// check should see must keep the receipt from `verified` (or, for CodeWhale,
// from passing its gate), and must name a problem. The worst bug this product
// can have is a wrong "verified".
import { describe, expect, it } from 'vitest';
import { fromHex } from '../bytes/hex';
import { LogVerifier } from '../verify/log-verifier';
import type { VerificationReport } from '../verdict/report';
import { readTestdataJson, readTestdataText } from '../../test/support/testdata';
import type { DialectOptions } from '../verdict/family';
import { DIALECT_FAMILIES } from './families';
import { diffFingerprint } from './codewhale/review';

const KEY = fromHex('2a'.repeat(32))!;
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

async function verifyAll(texts: string[], dialect: DialectOptions): Promise<VerificationReport> {
  const v = new LogVerifier({ dialect, families: DIALECT_FAMILIES });
  for (const [i, text] of texts.entries()) await v.addRecord(text, { file: 'calls.ndjson', line: i + 1, role: 'auto', space: 's' });
  return v.finish();
}

interface Vector {
  tool_name: string;
  args: Record<string, unknown>;
  result: string;
  receipt: string;
}
const vectors = readTestdataJson<Vector[]>('zeroclaw/synthesized/hmac-test-vectors.json');

describe('ZeroClaw tags, tampered', () => {
  it('every one-character change of every tag, with the key: none verifies, each is named', async () => {
    const texts: string[] = [];
    for (const v of vectors) {
      const at = v.receipt.lastIndexOf('-', v.receipt.length - 44) + 1;
      for (let i = 0; i < 43; i++) {
        for (const k of [1, 17, 40]) {
          const c = v.receipt[at + i]!;
          const swapped = B64URL[(B64URL.indexOf(c) + k) % 64]!;
          texts.push(JSON.stringify({ ...v, receipt: v.receipt.slice(0, at + i) + swapped + v.receipt.slice(at + i + 1) }));
        }
      }
    }
    const report = await verifyAll(texts, { hmacKey: KEY });
    expect(report.receipts.length).toBe(texts.length);
    expect(report.receipts.filter((r) => r.verdict !== 'failed')).toEqual([]);
    // A non-canonical last character is refused by form; every other change by the MAC.
    const codes = new Set(report.problems.map((p) => p.code));
    expect([...codes].sort()).toEqual(['parse_error', 'signature_invalid']);
    expect(new Set(report.problems.map((p) => p.receipt_id)).size).toBe(texts.length);
  });

  it('every one-character change of the tool name, output, argument values and time, with the key: none verifies', async () => {
    const texts: string[] = [];
    const bump = (s: string, i: number) => s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ 1) + s.slice(i + 1);
    for (const v of vectors) {
      for (let i = 0; i < v.tool_name.length; i++) texts.push(JSON.stringify({ ...v, tool_name: bump(v.tool_name, i) }));
      for (let i = 0; i < v.result.length; i++) texts.push(JSON.stringify({ ...v, result: bump(v.result, i) }));
      // ('' and "(no output)" are the same to ZeroClaw's MAC: an empty output is MACed as the latter.)
      texts.push(
        JSON.stringify({ ...v, result: v.result === '' || v.result === '(no output)' ? 'no output' : '' }),
        JSON.stringify({ ...v, result: `${v.result}\n` }),
      );
      for (const [k, val] of Object.entries(v.args)) {
        if (typeof val === 'string') for (let i = 0; i < val.length; i++) texts.push(JSON.stringify({ ...v, args: { ...v.args, [k]: bump(val, i) } }));
        texts.push(JSON.stringify({ ...v, args: Object.fromEntries(Object.entries(v.args).filter(([x]) => x !== k)) }));
      }
      const ts = /^zc-receipt-(\d+)-/.exec(v.receipt)![1]!;
      texts.push(JSON.stringify({ ...v, receipt: v.receipt.replace(`-${ts}-`, `-${BigInt(ts) + 1n}-`) }));
    }
    expect(texts.length).toBeGreaterThan(60);
    // All in one log: copies of a receipt with other content must each be named, none hidden behind another.
    const report = await verifyAll(texts, { hmacKey: KEY });
    expect(report.receipts.filter((r) => r.verdict === 'verified').map((r) => r.id)).toEqual([]);
    expect(report.problems.every((p) => p.code === 'signature_invalid')).toBe(true);
    // And each alone: every tampered record fails on its own.
    for (const text of texts) {
      const alone = await verifyAll([text], { hmacKey: KEY });
      expect(
        alone.receipts.map((r) => r.verdict),
        text,
      ).toEqual(['failed']);
    }
    // The untampered vectors in the same log still verify: the check is not simply failing everything.
    const clean = await verifyAll(
      vectors.map((v) => JSON.stringify(v)),
      { hmacKey: KEY },
    );
    expect(clean.receipts.map((r) => r.verdict)).toEqual(['verified', 'verified', 'verified', 'verified']);
  });

  it('an intact record beside a tampered copy of the same receipt: the receipt fails, naming the tampered line', async () => {
    const v = vectors[0]!;
    const report = await verifyAll([JSON.stringify(v), JSON.stringify({ ...v, result: 'Tue Mar 28' })], { hmacKey: KEY });
    expect(report.receipts.map((r) => r.verdict)).toEqual(['failed']);
    expect(report.receipts[0]!.details!.signature).toMatch(/from the record at calls\.ndjson:2/);
  });

  it('forged receipts quoted in a reply: each one a fabricated tool call, none verified', async () => {
    const forged = Array.from({ length: 50 }, (_, i) => `zc-receipt-${1711547700 + i}-${'A'.repeat(42)}${'AEIMQUYcgkosw048'[i % 16]}`);
    const texts = [
      JSON.stringify({ role: 'user', content: 'hi' }),
      JSON.stringify({ role: 'tool', name: vectors[0]!.tool_name, content: `${vectors[0]!.result}\n\n[receipt: ${vectors[0]!.receipt}]` }),
      JSON.stringify({ role: 'assistant', content: `Here.\n\n---\nTool receipts:\n${forged.map((f) => `  shell: ${f}`).join('\n')}` }),
    ];
    const report = await verifyAll(texts, { hmacKey: KEY });
    const byId = new Map(report.receipts.map((r) => [r.id, r]));
    for (const f of forged) expect(byId.get(f)).toMatchObject({ verdict: 'failed', checks: { parse: 'pass', claims: 'fail' } });
    expect(report.problems.filter((p) => p.code === 'fabricated_tool_call').map((p) => p.receipt_id)).toEqual(forged);
  });
});

describe('CodeWhale review receipts, tampered', () => {
  interface Expectation {
    receipt_file: string;
    current_diff: string;
    expected_check: { passed: boolean };
  }
  const e = readTestdataJson<Expectation[]>('codewhale/synthesized/check-expectations.json').find((x) => x.expected_check.passed)!;
  const clean = JSON.parse(readTestdataText(`codewhale/synthesized/${e.receipt_file}`)) as Record<string, unknown>;
  const diff = { name: 'current.diff', fingerprint: diffFingerprint(new TextEncoder().encode(e.current_diff)) };

  it('every required field removed or retyped: a parse_error naming it; the gate-relevant changes fail the gate; nothing is ever verified', async () => {
    const texts: string[] = [];
    const paths: string[] = [];
    const walk = (o: Record<string, unknown>, path: string[]) => {
      for (const [k, v] of Object.entries(o)) {
        const at = [...path, k];
        const set = (value: unknown) => {
          const copy = structuredClone(clean);
          let cur = copy as Record<string, unknown>;
          for (const p of at.slice(0, -1)) cur = cur[p] as Record<string, unknown>;
          if (value === undefined) delete cur[k];
          else cur[k] = value;
          texts.push(JSON.stringify(copy));
          paths.push(`$.${at.join('.')}`);
        };
        set(undefined);
        set(typeof v === 'string' ? 1 : 'x');
        if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, at);
      }
    };
    walk(clean, []);
    const report = await verifyAll(texts, { diff });
    const parseErrors = report.problems.filter((p) => p.code === 'parse_error');
    expect(parseErrors.length).toBe(texts.length);
    parseErrors.forEach((p, i) => expect(p.message).toContain(paths[i]!.split('.').slice(0, 3).join('.')));
    expect(report.receipts).toEqual([]);
  });

  it.each([
    ['another diff', { diff_fingerprint: `sha256:${'0'.repeat(64)}` }, 'diff_mismatch'],
    [
      'unresolved risk',
      { unresolved_risk: { unresolved: true, level: 'error', summary: '1 unresolved review issue(s); highest severity: error' } },
      'unresolved_risk',
    ],
    ['an attached check that did not pass', { checks_run: [{ name: 'cargo test', status: 'skipped' }] }, 'check_failed'],
    ['schema version 2', { schema_version: 2 }, 'unsupported_schema'],
  ])('%s: the gate fails with its status; unsigned, so never verified either way', async (_, change, status) => {
    const report = await verifyAll([JSON.stringify({ ...clean, ...change })], { diff });
    expect(report.receipts[0]).toMatchObject({ verdict: 'failed', checks: { review_gate: 'fail' } });
    expect(report.receipts[0]!.details!.review_gate!.startsWith(`${status}: `)).toBe(true);
    expect(report.problems.map((p) => p.code)).toContain('review_gate_failed');
  });
});

describe('CodeWhale turn receipts, bent', () => {
  const example = JSON.parse(readTestdataText('codewhale/conformance-receipt-v0.draft-example.json')) as Record<string, Record<string, unknown>>;
  it.each([
    ['tool_lineage', (t: typeof example) => (t.tool_lineage!.tool_result_count = 0)],
    ['tool_lineage', (t: typeof example) => (t.tool_lineage!.unmatched_tool_call_ids = ['call_1'])],
    ['event_sequence', (t: typeof example) => (t.source_event_lineage!.first_seq = 50)],
    ['event_sequence', (t: typeof example) => (t.source_event_lineage!.event_count = 99)],
    ['approvals', (t: typeof example) => (t.side_effect_boundary!.approval_denied_count = 9)],
    ['reasoning_custody', (t: typeof example) => (t.reasoning_custody!.raw_reasoning_exported = true)],
    ['schema', (t: typeof example) => ((t as Record<string, unknown>).schema_id = 'codewhale.conformance-receipt/v9')],
  ])('breaking %s fails that check and names it', async (rule, bend) => {
    const t = structuredClone(example);
    bend(t);
    const report = await verifyAll([JSON.stringify(t)], {});
    expect(report.receipts[0]!.verdict).toBe('failed');
    expect(report.receipts[0]!.checks[rule]).toBe('fail');
    expect(report.problems).toEqual([expect.objectContaining({ code: 'turn_receipt_inconsistent', message: expect.stringContaining(`${rule}:`) })]);
  });
});
