// ZeroClaw and CodeWhale receipts through the verifier the command line and the
// page share (LogVerifier → LogAssembler → auditDialects): every fixture with
// its expected outcome, the key and the diff supplied or not, malformed
// receipt strings, and logs that mix them with Chio receipts.
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { fromHex } from '../bytes/hex';
import { LogVerifier } from '../verify/log-verifier';
import type { VerificationReport } from '../verdict/report';
import type { RecordRole } from '../verify/intake';
import { genAReceipt, keyFromSeed } from '../../test/support/forge';
import { pinnedTrust } from '../../test/support/verify-records';
import { readTestdataJson, readTestdataText } from '../../test/support/testdata';
import { checkCodeOf } from '../verdict/check-text';
import type { DialectOptions } from '../verdict/family';
import { DIALECT_FAMILIES } from './families';
import { diffFingerprint } from './codewhale/review';

const KEY = fromHex('2a'.repeat(32))!;
const A = 'zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY';

interface Rec {
  text: string;
  file?: string;
  line?: number;
  role?: RecordRole;
}

async function verify(records: Rec[], dialect: DialectOptions = {}): Promise<{ report: VerificationReport; v: LogVerifier }> {
  // The keys this file's Chio receipts are signed with, pinned (a receipt is verified only under a pinned key).
  const v = new LogVerifier({ dialect, families: DIALECT_FAMILIES, trust: pinnedTrust([keyFromSeed(3).publicHex, keyFromSeed(5).publicHex]) });
  for (const [i, r] of records.entries())
    await v.addRecord(r.text, { file: r.file ?? 'log.ndjson', line: r.line ?? i + 1, role: r.role ?? 'auto', space: 's' });
  return { report: await v.finish(), v };
}

interface Vector {
  key_hex: string;
  tool_name: string;
  args: unknown;
  result: string;
  timestamp: number;
  receipt: string;
}
const vectors = readTestdataJson<Vector[]>('zeroclaw/synthesized/hmac-test-vectors.json');
const vectorRecords = (vs: unknown[] = vectors): Rec[] => vs.map((value) => ({ text: JSON.stringify(value), file: 'calls.ndjson' }));

describe('ZeroClaw tool-call records (the HMAC vectors)', () => {
  it('with the key every vector verifies: the tag recomputes from name|args|result|ts', async () => {
    const { report } = await verify(vectorRecords(), { hmacKey: KEY });
    expect(report.receipts.map((r) => [r.id, r.type, r.verdict, r.checks])).toEqual(
      vectors.map((x) => [x.receipt, 'zeroclaw', 'verified', { parse: 'pass', signature: 'pass' }]),
    );
    expect(report.ok).toBe(true);
  });

  it('without the key: skipped, "key not available (ephemeral)", never passed, never verified', async () => {
    const { report } = await verify(vectorRecords());
    for (const r of report.receipts) {
      expect(r.verdict).toBe('unverified');
      expect(r.checks.signature).toBe('skipped');
      expect(checkCodeOf(r.details!.signature)).toBe('key_ephemeral');
    }
    expect(report.summary).toMatchObject({ receipts: 4, verified: 0, unverified: 4, failed: 0 });
  });

  it('a wrong key fails every tag, and says the key may be the cause', async () => {
    const { report } = await verify(vectorRecords(), { hmacKey: fromHex('2b'.repeat(32))! });
    expect(report.receipts.map((r) => r.verdict)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(report.problems.map((p) => p.code)).toEqual(['signature_invalid', 'signature_invalid', 'signature_invalid', 'signature_invalid']);
    expect(report.problems[0]!.message).toMatch(/or the key is not this receipt scope's/);
  });

  it.each([
    ['the tool name', (v: Vector) => ({ ...v, tool_name: 'shell2' })],
    ['the arguments', (v: Vector) => ({ ...v, args: { command: 'date -u' } })],
    ['the output', (v: Vector) => ({ ...v, result: `${v.result} ` })],
    ['the receipt time', (v: Vector) => ({ ...v, receipt: v.receipt.replace('1711547700', '1711547701') })],
    ['an added argument', (v: Vector) => ({ ...v, args: { command: 'date', n: 1 } })],
  ])('a change to %s fails the tag with the key', async (_, change) => {
    const { report } = await verify(vectorRecords([change(vectors[0]!)]), { hmacKey: KEY });
    expect(report.receipts[0]!.verdict).toBe('failed');
    expect(report.receipts[0]!.checks.signature).toBe('fail');
    expect(report.problems).toEqual([expect.objectContaining({ code: 'signature_invalid', file: 'calls.ndjson', line: 1 })]);
  });

  it('the MAC covers the arguments as serde_json prints them: 1.0 stays 1.0 from the record to the audit', async () => {
    // The expected tag from Node's own HMAC over the exact bytes ZeroClaw would MAC (not our code).
    const tag = createHmac('sha256', KEY).update('calc|{"n":1.0,"x":1e-7}|2|1711547700').digest('base64url');
    const receipt = `zc-receipt-1711547700-${tag}`;
    const text = `{"tool_name":"calc","args":{"x":1e-7,"n":1.0},"result":"2","receipt":"${receipt}"}`;
    const { report } = await verify([{ text, file: 'calls.ndjson' }], { hmacKey: KEY });
    expect(report.receipts.map((r) => [r.id, r.verdict])).toEqual([[receipt, 'verified']]);
  });

  it('a whole JSON array of records (the vectors file as it is) loads record by record', async () => {
    const raw = readTestdataText('zeroclaw/synthesized/hmac-test-vectors.json');
    const { report } = await verify([{ text: raw, file: 'hmac-test-vectors.json' }], { hmacKey: KEY });
    expect(report.receipts.map((r) => r.verdict)).toEqual(['verified', 'verified', 'verified', 'verified']);
  });
});

describe('malformed receipt strings (strict form)', () => {
  const record = (receipt: string) => ({ text: JSON.stringify({ ...vectors[0], receipt }), file: 'calls.ndjson' });
  it.each([
    ['a bad prefix', A.replace('zc-receipt-', 'zc-reciept-'), /does not start with "zc-receipt-"/],
    ['a tag of the wrong length', A.slice(0, -1), /tag has 42 characters/],
    ['a non-canonical last character', `${A.slice(0, -1)}B`, /last character "B" is not canonical/],
    ['a timestamp with a leading zero (u64::from_str would accept it)', A.replace('-1711547700-', '-01711547700-'), /not plain decimal seconds/],
    ['a signed timestamp', A.replace('-1711547700-', '-+1711547700-'), /not plain decimal seconds/],
    ['padding', `${A.slice(0, -1)}=`, /padded/],
  ])('%s: parse fails, the signature is not run, and the record is named', async (_, receipt, why) => {
    const { report } = await verify([record(receipt)], { hmacKey: KEY });
    const r = report.receipts[0]!;
    expect(r).toMatchObject({ id: receipt, type: 'zeroclaw', verdict: 'failed', checks: { parse: 'fail' } });
    expect(r.checks.signature).toBeUndefined();
    expect(r.details!.parse).toMatch(why);
    expect(report.problems).toEqual([expect.objectContaining({ code: 'parse_error', receipt_id: receipt, file: 'calls.ndjson', line: 1 })]);
  });

  it('a tag that itself holds "-" is well-formed (the split is at the first "-" after the prefix)', async () => {
    expect(A.split('-').length).toBeGreaterThan(4);
    const { report } = await verify([record(A)], { hmacKey: KEY });
    expect(report.receipts[0]!.verdict).toBe('verified');
  });
});

describe('ZeroClaw transcripts', () => {
  const msgs = (...ms: unknown[]): Rec[] => ms.map((m) => ({ text: JSON.stringify(m), file: 'chat.jsonl' }));
  const call = { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":"date"}' } }] };

  it("with the key, a transcript's untruncated output recomputes the tag: verified", async () => {
    const { report } = await verify(
      msgs({ role: 'user', content: 'date?' }, call, { role: 'tool', tool_call_id: 'c1', content: `Mon Mar 27\n\n[receipt: ${A}]` }),
      { hmacKey: KEY },
    );
    expect(report.receipts.map((r) => [r.verdict, r.checks.signature])).toEqual([['verified', 'pass']]);
  });

  it('a transcript holds the output as the model saw it (ZeroClaw may cut it): a mismatch there is skipped, never a pass or a proof of forgery', async () => {
    const { report } = await verify(
      msgs({ role: 'user', content: 'date?' }, call, { role: 'tool', tool_call_id: 'c1', content: `Mon Mar…\n\n[receipt: ${A}]` }),
      { hmacKey: KEY },
    );
    expect(report.receipts.map((r) => [r.verdict, r.checks.signature])).toEqual([['unverified', 'skipped']]);
    expect(report.receipts[0]!.details!.signature).toMatch(/as the model saw it/);
  });

  it('a reply quoting a receipt from another turn, and one naming the wrong tool: fabricated_tool_call at the reply', async () => {
    const B = vectors[1]!.receipt;
    const { report } = await verify(
      msgs(
        { role: 'user', content: 'one' },
        call,
        { role: 'tool', tool_call_id: 'c1', content: `Mon Mar 27\n\n[receipt: ${A}]` },
        { role: 'assistant', content: `Done.\n\n---\nTool receipts:\n  web_search: ${A}` },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: `Also ran it again: ${A}` },
        { role: 'tool', content: `x\n\n[receipt: ${B}]`, name: 'shell' },
      ),
    );
    const problems = report.problems.filter((p) => p.code === 'fabricated_tool_call');
    expect(problems.map((p) => [p.line, p.receipt_id])).toEqual([
      [4, A],
      [6, A],
    ]);
    expect(problems[0]!.message).toMatch(/on a result of shell/);
    expect(problems[1]!.message).toMatch(/another turn/);
    expect(report.receipts.map((r) => [r.id, r.verdict, r.checks.claims])).toEqual([
      [A, 'failed', 'fail'],
      [B, 'unverified', undefined],
    ]);
  });
});

describe('CodeWhale review receipts', () => {
  interface Expectation {
    receipt_file: string;
    current_diff: string;
    expected_check: { passed: boolean; status: string; reason: string };
  }
  const expectations = readTestdataJson<Expectation[]>('codewhale/synthesized/check-expectations.json');
  const file = (e: Expectation) => ({ text: readTestdataText(`codewhale/synthesized/${e.receipt_file}`), file: e.receipt_file, line: 1 });

  it.each(expectations.map((e) => [e.receipt_file, e] as const))('%s with its diff reproduces --check-receipt', async (_, e) => {
    const diff = { name: 'current.diff', fingerprint: diffFingerprint(new TextEncoder().encode(e.current_diff)) };
    const { report } = await verify([file(e)], { diff });
    const r = report.receipts[0]!;
    expect(r.type).toBe('codewhale-review');
    expect(r.checks.review_gate).toBe(e.expected_check.passed ? 'pass' : 'fail');
    expect(r.details!.review_gate).toBe(`${e.expected_check.status}: ${e.expected_check.reason}`);
    // Unsigned: a pass is integrity, never `verified`.
    expect(r.checks.signature).toBe('skipped');
    expect(checkCodeOf(r.details!.signature)).toBe('unsigned');
    expect(r.verdict).toBe(e.expected_check.passed ? 'unverified' : 'failed');
    expect(report.problems.map((p) => p.code)).toEqual(e.expected_check.passed ? [] : ['review_gate_failed']);
  });

  it('without the diff the fingerprint and the gate are skipped, not passed; the rules that need no diff still run', async () => {
    const clean = expectations.find((e) => e.expected_check.passed)!;
    const { report } = await verify([file(clean)]);
    expect(report.receipts[0]).toMatchObject({
      verdict: 'unverified',
      checks: {
        parse: 'pass',
        signature: 'skipped',
        schema: 'pass',
        diff_fingerprint: 'skipped',
        unresolved_risk: 'pass',
        checks_run: 'pass',
        review_gate: 'skipped',
      },
    });
  });

  it('a receipt missing a required field is a parse_error naming the field; the rest of the log still loads', async () => {
    const broken = JSON.parse(readTestdataText('codewhale/synthesized/review-receipt.clean-pass.json')) as Record<string, unknown>;
    delete broken.unresolved_risk;
    const good = genAReceipt({ seq: 1, key: keyFromSeed(3) });
    const { report } = await verify([
      { text: JSON.stringify(broken), file: 'r.ndjson' },
      { text: JSON.stringify(good), file: 'r.ndjson' },
    ]);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'parse_error', file: 'r.ndjson', line: 1, message: expect.stringMatching(/\$\.unresolved_risk is missing/) }),
    ]);
    expect(report.receipts.map((r) => [r.type, r.verdict])).toEqual([['tool', 'verified']]);
  });
});

describe('CodeWhale turn receipts (the draft)', () => {
  const example = readTestdataText('codewhale/conformance-receipt-v0.draft-example.json');
  it('the documentation example passes every rule and stays unverified: unsigned', async () => {
    const { report } = await verify([{ text: example, file: 'turn.json' }]);
    const r = report.receipts[0]!;
    expect(r.type).toBe('codewhale-turn');
    expect(r.verdict).toBe('unverified');
    expect(Object.entries(r.checks).filter(([, s]) => s !== 'pass')).toEqual([['signature', 'skipped']]);
    expect(report.problems).toEqual([]);
  });

  it('an event gap is a warning in the detail, not a failure (seq is per store)', async () => {
    const t = JSON.parse(example) as { source_event_lineage: { event_count: number } };
    t.source_event_lineage.event_count -= 3;
    const { report } = await verify([{ text: JSON.stringify(t), file: 'turn.json' }]);
    expect(report.receipts[0]!.checks.event_sequence).toBe('pass');
    expect(report.receipts[0]!.details!.event_sequence).toMatch(/^warning: 3 seq number/);
  });
});

describe('mixed logs', () => {
  it('Chio, ZeroClaw and CodeWhale receipts in one log, each in log order, counted together', async () => {
    const key = keyFromSeed(5);
    const { report, v } = await verify([
      { text: JSON.stringify(genAReceipt({ seq: 1, key })) },
      { text: JSON.stringify(vectors[0]) },
      { text: readTestdataText('codewhale/conformance-receipt-v0.draft-example.json').replace(/\n/g, '') },
      { text: JSON.stringify(genAReceipt({ seq: 2, key })) },
      { text: `reply\n\n---\nTool receipts:\n  shell: ${A}`, role: 'text', file: 'reply.txt' },
    ]);
    expect(report.receipts.map((r) => [r.type, r.line])).toEqual([
      ['tool', 1],
      ['zeroclaw', 2],
      ['codewhale-turn', 3],
      ['tool', 4],
    ]);
    expect(report.receipts[1]!.checks.claims).toBe('pass');
    expect(report.summary).toMatchObject({ receipts: 4, verified: 2, unverified: 2 });
    // The page's rows and facts come from the same audit.
    expect(v.dialectAudit!.receipts.map((r) => [r.view.type, r.view.toolName])).toEqual([
      ['zeroclaw', 'shell'],
      ['codewhale-turn', 'turn completed'],
    ]);
    expect(v.dialectAudit!.receipts[1]!.facts.find(([k]) => k === 'Unsigned')![1]).toMatch(/no signature or MAC/);
  });
});
