// The checks of receipts delivered in envelopes (contract part 2 §5.4, §6),
// on the real Claude Code outcome and the transcripts derived from it, and on
// tampered copies of them: each tamper must fail exactly its check, the
// receipt keeps its own checks, and a wrapper's claim never lifts a verdict.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/parse';
import { isJsonObject, type JsonObject } from '../json/value';
import { decodeToolReceipt } from '../chio/tool-receipt';
import type { DecodedToolReceipt } from '../chio/types';
import { readTestdataText } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from './log-verifier';
import type { VerificationReport } from '../verdict/report';
import { requestHash } from './envelope-checks';

const KEY = '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917';
const ID = '9be6277d4770f9cf7c3f03f58c5075c3fdf23c7a120e46deb070da5fe64f2ac2';
const REAL = readTestdataText('chio/realworld-2026-09/claude-code-tool-result-text.json');
type Outcome = Record<string, unknown> & {
  receipt: Record<string, unknown> & { metadata: Record<string, unknown> };
  result: Record<string, unknown>;
  delivery: Record<string, unknown>;
};
const outcome = (): Outcome => JSON.parse(REAL) as Outcome;
const derived = (name: string) => readTestdataText(`derived/envelopes/${name}`);

async function verify(texts: string[], keys: string[] = [KEY]): Promise<VerificationReport> {
  const trust = TrustStore.create(keys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store });
  for (const [i, text] of texts.entries()) await v.addRecord(text, { file: 'host.jsonl', line: i + 1, role: 'auto', space: 's' });
  return v.finish();
}

const codes = (r: VerificationReport) => r.problems.map((p) => p.code);

describe('the real vector and its transcripts (part 2 §10)', () => {
  it('claude-code-tool-result-text.json: 9be6277d… unchecked_tail, content_hash and delivery pass, no problems, ok', async () => {
    const r = await verify([REAL]);
    expect(r.receipts).toHaveLength(1);
    expect(r.receipts[0]).toMatchObject({
      id: ID,
      verdict: 'verified',
      checks: {
        parse: 'pass',
        signature: 'pass',
        receipt_id: 'pass',
        semantics: 'pass',
        parameter_hash: 'pass',
        content_hash: 'pass',
        delivery: 'pass',
        inclusion: 'skipped',
        signer_trusted: 'pass',
      },
      details: { inclusion: 'uncheckpointed' },
      envelope: { kind: 'chio-bridge-outcome', state: 'completed', evidence: 'verified', claimed: true },
    });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('the worked example: requestHash over tools/call(write_file, parameters, chioRequestId) is bb7854d0…7fb', () => {
    const parsed = parseJson(REAL);
    const receipt = (parsed.ok && isJsonObject(parsed.value) ? parsed.value.get('receipt') : null) as JsonObject;
    const d = decodeToolReceipt(receipt);
    if (!d.ok) throw new Error('decode');
    const r = d.value as DecodedToolReceipt;
    expect(requestHash(r.toolName, r.parameters, outcome().requestId as string)).toBe('bb7854d071bd4ba62ec2cdedd3829b780f086df6e6d2712b470d131ceb7ae7fb');
  });

  it.each([
    ['Claude Code stream-json', 'claude-code-stream.jsonl', 3, 'claude-code-stream-json'],
    ['Codex exec --json', 'codex-exec.jsonl', 4, 'codex-exec-json'],
  ])('%s: the same receipt, once, at its tool-result line', async (_, file, line, host) => {
    const r = await verify(derived(file).trimEnd().split('\n'));
    expect(r.receipts.map((x) => [x.id, x.verdict, x.line, x.checks.content_hash, x.checks.delivery])).toEqual([[ID, 'verified', line, 'pass', 'pass']]);
    expect(r.receipts[0]!.envelope).toEqual({ kind: 'chio-bridge-outcome', host, state: 'completed', evidence: 'verified', claimed: true });
    expect(r.problems).toEqual([]);
  });

  it('the MCP tool result: content_hash over chioEvidence.output, delivery from chioDelivery, MCP claims', async () => {
    const r = await verify([derived('mcp-tool-result.json')]);
    expect(r.receipts.map((x) => [x.id, x.verdict, x.checks.content_hash, x.checks.delivery])).toEqual([[ID, 'verified', 'pass', 'pass']]);
    expect(r.receipts[0]!.envelope).toEqual({ kind: 'mcp-tool-result', state: 'completed', output_kind: 'value', decision: 'allow', claimed: true });
    expect(r.ok).toBe(true);
  });
});

describe('tampered envelopes fail their own check; the receipt keeps its checks', () => {
  it('the result changed: content_hash_mismatch, the signature still passes, the verdict fails', async () => {
    const o = outcome();
    o.result = { ...o.result, isError: true };
    const r = await verify([JSON.stringify(o)]);
    expect(r.receipts[0]!.checks).toMatchObject({ signature: 'pass', content_hash: 'fail', delivery: 'pass' });
    expect(r.receipts[0]!.details!.content_hash).toMatch(/not the output the kernel signed for/);
    expect(r.receipts[0]!.verdict).toBe('failed');
    expect(codes(r)).toEqual(['content_hash_mismatch']);
    expect(r.problems[0]).toMatchObject({ receipt_id: ID, file: 'host.jsonl', line: 1 });
    expect(r.ok).toBe(false);
  });

  it.each([
    ['resultHash', (d: Record<string, unknown>) => (d.resultHash = '0'.repeat(64)), /resultHash "0000.*is not the signed content_hash/],
    ['requestHash', (d: Record<string, unknown>) => (d.requestHash = 'f'.repeat(64)), /requestHash "ffff.* is not bb7854d0/],
    ['receiptId', (d: Record<string, unknown>) => (d.receiptId = 'rcpt-other'), /receiptId "rcpt-other" is not the receipt's id/],
    [
      'acknowledgement format',
      (d: Record<string, unknown>) => (d.acknowledgement = 'wVweRTfb+C5iX2wiFkJqc2I9WW0VBzp2RxbkXFu5HyW8'),
      /acknowledgement .* is not 43 base64url characters/,
    ],
    ['schema', (d: Record<string, unknown>) => (d.schema = 'chio.mcp.delivery-ack.v2'), /schema is "chio\.mcp\.delivery-ack\.v2"/],
    ['requestId', (d: Record<string, unknown>) => (d.requestId = 'other-request'), /requestId "other-request" is not the bridge outcome's/],
  ])('delivery %s changed: delivery_mismatch naming that binding', async (_, change, why) => {
    const o = outcome();
    change(o.delivery);
    const r = await verify([JSON.stringify(o)]);
    expect(r.receipts[0]!.checks).toMatchObject({ signature: 'pass', content_hash: 'pass', delivery: 'fail' });
    expect(r.receipts[0]!.details!.delivery).toMatch(why);
    expect(r.receipts[0]!.verdict).toBe('failed');
    expect(codes(r)).toEqual(['delivery_mismatch']);
  });

  it("the outcome's requestId differs from the signed request_id: envelope_invalid (and the delivery no longer binds)", async () => {
    const o = outcome();
    o.requestId = 'f992702d-1761-4371-a733-33cb64117d6e:another-call';
    const r = await verify([JSON.stringify(o)]);
    expect(codes(r).sort()).toEqual(['delivery_mismatch', 'envelope_invalid']);
    expect(r.problems.find((p) => p.code === 'envelope_invalid')!.message).toMatch(
      /requestId ".*another-call" differs from the signed metadata\.receipt_context\.request_id/,
    );
    expect(r.receipts[0]!.checks.signature).toBe('pass');
    expect(r.ok).toBe(false);
  });

  it('an MCP result with another chioEvidence.schema: envelope_invalid; the receipt is still verified on its own checks', async () => {
    const r = await verify([derived('mcp-tool-result.json').replace('"chio.mcp.execution-evidence.v1"', '"chio.mcp.execution-evidence.v9"')]);
    expect(codes(r)).toEqual(['envelope_invalid']);
    expect(r.problems[0]!.message).toMatch(/_meta\.chioEvidence\.schema is "chio\.mcp\.execution-evidence\.v9"/);
    expect(r.receipts[0]!.checks).toMatchObject({ signature: 'pass', content_hash: 'pass', delivery: 'pass' });
    expect(r.ok).toBe(false);
  });

  it('a forged evidence "verified" on a receipt whose signature fails: failed, and the claim is shown as written', async () => {
    const o = outcome();
    o.receipt.tool_name = 'delete_file';
    o.state = 'completed';
    o.evidence = 'verified';
    const r = await verify([JSON.stringify(o)]);
    expect(r.receipts[0]!.checks.signature).toBe('fail');
    expect(r.receipts[0]!.verdict).toBe('failed');
    expect(r.receipts[0]!.envelope).toEqual({ kind: 'chio-bridge-outcome', state: 'completed', evidence: 'verified', claimed: true });
    expect(codes(r)).toContain('signature_invalid');
    expect(r.ok).toBe(false);
  });
});

describe('skipped for want of output does not make a receipt unverified (part 2 §6)', () => {
  it('a denied outcome with no result and no delivery', async () => {
    const o = outcome();
    delete (o as Partial<Outcome>).result;
    delete (o as Partial<Outcome>).delivery;
    o.state = 'denied';
    const r = await verify([JSON.stringify(o)]);
    expect(r.receipts[0]).toMatchObject({
      verdict: 'verified',
      checks: { content_hash: 'skipped', delivery: 'skipped' },
      details: { content_hash: 'no_output', delivery: 'no_delivery' },
    });
    expect(r.ok).toBe(true);
  });

  it.each([
    ['stream', 'stream_output'],
    ['none', 'no_output'],
  ])('an MCP result with outputKind %s', async (kind, reason) => {
    const mcp = JSON.parse(derived('mcp-tool-result.json')) as { _meta: { chioEvidence: Record<string, unknown> } };
    mcp._meta.chioEvidence.outputKind = kind;
    mcp._meta.chioEvidence.output = null;
    const r = await verify([JSON.stringify(mcp)]);
    expect(r.receipts[0]).toMatchObject({ verdict: 'verified', checks: { content_hash: 'skipped', delivery: 'pass' }, details: { content_hash: reason } });
  });

  it('without a pinned key: unverified for want of trust, never for want of output', async () => {
    const o = outcome();
    delete (o as Partial<Outcome>).result;
    const r = await verify([JSON.stringify(o)], []);
    expect(r.receipts[0]!.checks.signer_trusted).toBe('skipped');
    expect(r.receipts[0]!.checks.content_hash).toBe('skipped');
    expect(r.receipts[0]!.verdict).not.toBe('failed');
  });
});
