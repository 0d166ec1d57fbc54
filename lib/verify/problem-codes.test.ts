// One test per problem code of the contract (§7): each builds the smallest log
// that must raise it, and checks the code, its severity, its location, and
// that the other records of the log are still verified.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { TrustStore } from '../trust/trust-store';
import { type Rec, pinnedVerifier, verifyRecords } from '../../test/support/verify-records';
import { LogVerifier } from './log-verifier';
import type { VerificationReport } from '../verdict/report';
import { checkCodeOf } from '../verdict/check-text';
import { reportToJson } from './report-json';
import { PROBLEM_CODES, PROBLEM_SEVERITY, type ProblemCode } from '../verdict/problems';
import {
  capabilityToken,
  chainLeafOf,
  checkpoint,
  checkpointV2,
  genAReceipt,
  goodLog,
  keyFromSeed,
  leafOf,
  lineageRowOf,
  ndjson,
  proof,
  writePackage,
} from '../../test/support/forge';
import { loadPackage } from '../sources/package';
import { nodeDir } from '../../bin/cli/node-source';
import { readTestdataJson, readTestdataText as readTestdata } from '../../test/support/testdata';

const verify = verifyRecords;

const codes = (r: VerificationReport) => [...new Set(r.problems.map((p) => p.code))].sort();
const verdictOf = (r: VerificationReport, id: string) => r.receipts.find((x) => x.id === id)?.verdict;

function expectProblem(report: VerificationReport, code: ProblemCode, where: { line?: number; receipt_id?: string } = {}) {
  const p = report.problems.find((x) => x.code === code);
  expect(p, `${code} in ${reportToJson(report.problems)}`).toBeDefined();
  expect(p!.severity).toBe(PROBLEM_SEVERITY[code]);
  expect(p!.message.length).toBeGreaterThan(10);
  if (where.line !== undefined) expect(p!.line).toBe(where.line);
  if (where.receipt_id !== undefined) expect(p!.receipt_id).toBe(where.receipt_id);
}

const key = keyFromSeed(7);
const good = (seq: number) => genAReceipt({ seq, key });

describe('every problem code of the contract', () => {
  const tested = new Set<ProblemCode>();
  const mark = (c: ProblemCode) => tested.add(c);

  it('parse_error: a line that is not JSON, with file and line; the other lines verify', async () => {
    const r = await verify([{ value: good(1) }, { value: null, raw: '{"id": "rcpt-x", "timestamp": ' }, { value: good(3) }]);
    expectProblem(r, 'parse_error', { line: 2 });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
    expect(r.ok).toBe(false);
    mark('parse_error');
  });

  it('parse_error: a receipt of the wrong shape names the field', async () => {
    const r = await verify([{ value: { ...good(1), timestamp: 'yesterday' } }]);
    expect(r.problems[0]!.message).toMatch(/\$\.timestamp: expected an unsigned 64-bit integer/);
    expect(r.receipts).toEqual([]);
  });

  it('duplicate_key: the record is rejected, never read with the last value', async () => {
    const text = JSON.stringify(good(1)).replace('"tool_name":"file_read"', '"tool_name":"shadow","tool_name":"file_read"');
    const r = await verify([{ value: null, raw: text }, { value: good(2) }]);
    expectProblem(r, 'duplicate_key', { line: 1 });
    expect(r.problems[0]!.message).toMatch(/tool_name/);
    expect(r.receipts.map((x) => x.id)).toEqual(['rcpt-test-000002']);
    mark('duplicate_key');
  });

  it('signature_invalid: a signed field changed after signing', async () => {
    const r = await verify([{ value: { ...good(1), tool_name: 'file_delete' } }, { value: good(2) }]);
    expectProblem(r, 'signature_invalid', { receipt_id: 'rcpt-test-000001', line: 1 });
    expect(verdictOf(r, 'rcpt-test-000001')).toBe('failed');
    expect(verdictOf(r, 'rcpt-test-000002')).toBe('verified');
    mark('signature_invalid');
  });

  const genB = readTestdataJson<{ cases: { id: string; receipt: unknown }[] }>('chio/gen-b-upstream/tests/bindings/vectors/receipt/v1.json').cases;
  const genBCase = (id: string) => genB.find((c) => c.id === id)!.receipt;

  it('receipt_id_mismatch: a Gen B id that does not recompute', async () => {
    const r = await verify([{ value: genBCase('tampered_receipt_signature') }]);
    expectProblem(r, 'receipt_id_mismatch');
    mark('receipt_id_mismatch');
  });

  it('semantics_invalid: a Gen B kind/trust combination that is not allowed', async () => {
    const r = await verify([{ value: genBCase('trace_observation_wrong_trust_level') }]);
    expectProblem(r, 'semantics_invalid');
    expect(r.receipts[0]!.checks.semantics).toBe('fail');
    mark('semantics_invalid');
  });

  it('parameter_hash_mismatch', async () => {
    const r = await verify([{ value: genBCase('signed_receipt_with_invalid_parameter_hash') }]);
    expectProblem(r, 'parameter_hash_mismatch');
    expect(r.receipts[0]!.checks.signature).toBe('pass');
    mark('parameter_hash_mismatch');
  });

  it('algorithm_mismatch: the algorithm field disagrees with the signature prefix', async () => {
    const r = await verify([{ value: { ...good(1), algorithm: 'p384' } }]);
    expectProblem(r, 'algorithm_mismatch', { receipt_id: 'rcpt-test-000001' });
    expect(r.receipts[0]!.verdict).toBe('failed');
    mark('algorithm_mismatch');
  });

  it('untrusted_signer: keys are pinned and the signer is not among them', async () => {
    const r = await verify([{ value: good(1) }], [keyFromSeed(9).publicHex]);
    expectProblem(r, 'untrusted_signer', { receipt_id: 'rcpt-test-000001' });
    expect(r.receipts[0]!.checks.signer_trusted).toBe('fail');
    expect((await verify([{ value: good(1) }], [key.publicHex])).receipts[0]!.verdict).toBe('verified');
    mark('untrusted_signer');
  });

  it('untrusted_signer: pinned, but outside the validity window', async () => {
    const trust = TrustStore.create([{ key: key.publicHex, notAfter: 1767225600n }]);
    if (!trust.ok) throw new Error();
    const v = new LogVerifier({ trust: trust.store });
    await v.addRecord(JSON.stringify(good(1)), { file: 'x', line: 1, role: 'auto', space: 's' });
    const r = await v.finish();
    expect(r.receipts[0]!.checks.signer_trusted).toBe('fail');
    expect(r.problems[0]!.message).toMatch(/validity window/);
  });

  it('inclusion_failed: a proof that does not lead from the stored receipt to the signed root', async () => {
    const { receipts, cp, proofs } = goodLog(4, 4);
    const bad = { ...proofs[2]!, proof: { ...(proofs[2]!.proof as object), audit_path: (proofs[1]!.proof as { audit_path: string[] }).audit_path } };
    const r = await verify([
      { value: cp },
      ...receipts.map((x, i) => ({ value: x, seq: i + 1 })),
      { value: proofs[0] },
      { value: proofs[1] },
      { value: bad },
      { value: proofs[3] },
    ]);
    expectProblem(r, 'inclusion_failed', { receipt_id: 'rcpt-test-000003' });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'failed', 'verified']);
    mark('inclusion_failed');
  });

  it('missing_receipt: a proof for a seq that has no receipt', async () => {
    const { receipts, cp, proofs } = goodLog(3, 3);
    const r = await verify([{ value: cp }, { value: receipts[0], seq: 1 }, { value: receipts[2], seq: 3 }, ...proofs.map((p) => ({ value: p }))]);
    expectProblem(r, 'missing_receipt', { line: 5 });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
    mark('missing_receipt');
  });

  it('missing_receipt: without proofs, a gap in a checkpointed batch', async () => {
    const { receipts, cp } = goodLog(3, 3);
    const r = await verify([{ value: cp }, { value: receipts[0], seq: 1 }, { value: receipts[2], seq: 3 }]);
    expectProblem(r, 'missing_receipt');
    expect(r.receipts.every((x) => x.checks.inclusion === 'fail')).toBe(true);
  });

  it('checkpoint_signature_invalid: its batch is vouched for by nothing', async () => {
    const { receipts, cp, proofs } = goodLog(3, 2);
    const forged = { ...cp!, signature: cp!.signature.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
    const r = await verify([{ value: forged }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 })), ...proofs.map((p) => ({ value: p }))]);
    expectProblem(r, 'checkpoint_signature_invalid', { line: 1 });
    expect(r.checkpoints[0]!.verdict).toBe('failed');
    expect(r.receipts.map((x) => x.verdict)).toEqual(['unverified', 'unverified', 'verified']);
    mark('checkpoint_signature_invalid');
  });

  it('checkpoint_structure_invalid: tree_size that is not end - start + 1, even when signed', async () => {
    const leaves = [good(1), good(2)].map(leafOf);
    const cp = checkpoint({ seq: 1, start: 1, leaves, key, treeSize: 3 });
    const r = await verify([{ value: cp }]);
    expectProblem(r, 'checkpoint_structure_invalid', { line: 1 });
    expect(r.checkpoints[0]!.checks.signature).toBe('pass');
    expect(r.checkpoints[0]!.verdict).toBe('failed');
    mark('checkpoint_structure_invalid');
  });

  it('checkpoint_continuity_broken: the next batch does not start where the last ended', async () => {
    const rs = [1, 2, 3, 4].map(good);
    const cp1 = checkpoint({ seq: 1, start: 1, leaves: rs.slice(0, 2).map(leafOf), key });
    const cp2 = checkpoint({ seq: 2, start: 4, leaves: rs.slice(3).map(leafOf), key, previous: cp1.body });
    const r = await verify([{ value: cp1 }, { value: cp2 }]);
    expectProblem(r, 'checkpoint_continuity_broken', { line: 2 });
    expect(r.checkpoints.map((c) => c.verdict)).toEqual(['verified', 'failed']);
    mark('checkpoint_continuity_broken');
  });

  it('checkpoint_continuity_broken: previous_checkpoint_sha256 that does not match', async () => {
    const rs = [1, 2, 3].map(good);
    const cp1 = checkpoint({ seq: 1, start: 1, leaves: rs.slice(0, 2).map(leafOf), key });
    const cp2 = checkpoint({ seq: 2, start: 3, leaves: rs.slice(2).map(leafOf), key, previous: { other: 1 } });
    const r = await verify([{ value: cp1 }, { value: cp2 }]);
    expect(r.problems.find((p) => p.code === 'checkpoint_continuity_broken')?.message).toMatch(/previous_checkpoint_sha256/);
  });

  it('checkpoint_equivocation: two different signed checkpoints with the same seq', async () => {
    const cpA = checkpoint({ seq: 1, start: 1, leaves: [good(1), good(2)].map(leafOf), key });
    const cpB = checkpoint({ seq: 1, start: 1, leaves: [good(1), { ...good(2), tool_name: 'other' }].map(leafOf), key });
    const r = await verify([{ value: cpA }, { value: cpB }]);
    expectProblem(r, 'checkpoint_equivocation');
    expect(r.checkpoints.map((c) => c.verdict)).toEqual(['failed', 'failed']);
    mark('checkpoint_equivocation');
  });

  // Found by the adversarial corpus (lib/verify/adversarial.test.ts): a checkpoint that fails
  // vouches for nothing, and it must not take anything from one that verified either.
  it('a forged checkpoint sharing the seq of a real one fails alone: the real one and its receipts still verify', async () => {
    const { receipts, cp, proofs } = goodLog(3, 3);
    const forged = { body: { ...cp!.body, batch_start_seq: 2 }, signature: cp!.signature };
    const r = await verify(
      [{ value: forged }, { value: cp }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 })), ...proofs.map((p) => ({ value: p }))],
      [key.publicHex],
    );
    expectProblem(r, 'checkpoint_signature_invalid', { line: 1 });
    expect(r.checkpoints.map((c) => c.verdict)).toEqual(['failed', 'verified']);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified']);
    expect(codes(r)).not.toContain('checkpoint_equivocation');
  });

  it('a proof against a checkpoint that failed leaves its receipt unverified, never failed', async () => {
    const { receipts, cp, proofs } = goodLog(3, 3);
    const forged = { body: { ...cp!.body, batch_end_seq: 2, tree_size: 2 }, signature: cp!.signature };
    const r = await verify([{ value: forged }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 })), ...proofs.map((p) => ({ value: p }))]);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['unverified', 'unverified', 'unverified']);
    expect(r.receipts[2]!.details?.inclusion).toMatch(/checkpoint 1, which failed verification/);
  });

  it('continuity is checked against the signed predecessor, not a forged statement with its seq', async () => {
    const rs = [good(1), good(2), good(3), good(4)];
    const cp1 = checkpoint({ seq: 1, start: 1, leaves: rs.slice(0, 2).map(leafOf), key });
    const cp2 = checkpoint({ seq: 2, start: 3, leaves: rs.slice(2).map(leafOf), key, previous: cp1.body });
    const forged1 = { body: { ...cp1.body, issued_at: 1 }, signature: cp1.signature };
    const r = await verify([{ value: cp1 }, { value: forged1 }, { value: cp2 }]);
    expect(r.checkpoints.map((c) => c.verdict)).toEqual(['verified', 'failed', 'verified']);
  });

  it('inclusion_failed: a receipt replayed into the uncheckpointed tail (say, a payment counted twice); the original stays verified', async () => {
    const { receipts, cp, proofs } = goodLog(3, 2);
    const rows = [
      { value: cp },
      ...receipts.map((x, i) => ({ value: x, seq: i + 1 })),
      { value: receipts[0], seq: 4 },
      { value: receipts[2], seq: 5 },
      ...proofs.map((p) => ({ value: p })),
    ];
    const r = await verify(rows, [key.publicHex]);
    // seq 1 is checkpointed, its copy at seq 4 is not; seq 3 and its copy at 5 are both unproven: neither can be told from the other.
    expect(r.receipts.map((x) => `${x.seq}:${x.verdict}`)).toEqual(['1:verified', '2:verified', '3:failed', '4:failed', '5:failed']);
    const p = r.problems.find((x) => x.code === 'inclusion_failed' && x.line === 5);
    expect(p?.message).toMatch(/appears 2 times in this log \(also at seq 1\)/);
  });

  it('manifest_mismatch: a package file whose bytes differ from the manifest', async () => {
    const { receipts } = goodLog(2, 0);
    const dir = writePackage({ 'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))) });
    const manifest = readFileSync(`${dir}/manifest.json`, 'utf8');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/manifest.json`, manifest.replace(/"bytes": \d+/, '"bytes": 1'));
    const v = pinnedVerifier();
    await loadPackage(nodeDir(dir, 'pkg'), v, 'p');
    const r = await v.finish();
    expectProblem(r, 'manifest_mismatch');
    expect(r.packages[0]!.checks.manifest).toBe('fail');
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
    mark('manifest_mismatch');
  });

  it('read_boundary_missing: a package query without readBoundary is a warning; the package stays ok', async () => {
    const { receipts } = goodLog(2, 0);
    const dir = writePackage({ 'query.json': '{}', 'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))) });
    const v = pinnedVerifier();
    await loadPackage(nodeDir(dir, 'pkg'), v, 'p');
    const r = await v.finish();
    expectProblem(r, 'read_boundary_missing');
    expect(r.problems.find((p) => p.code === 'read_boundary_missing')!.file).toBe('query.json');
    expect(r.packages[0]!.checks).toEqual({ manifest: 'pass', read_boundary: 'skipped', scope: 'pass' });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
    expect(r.ok).toBe(true);
    mark('read_boundary_missing');
  });

  it('query_scope_violation: a receipt of a package outside its query, at its file and line; the others verify', async () => {
    const query = { readBoundary: { kind: 'admin_all' }, until: 1767225615 }; // receipt n has timestamp 1767225600 + 10n
    const { receipts } = goodLog(3, 0);
    const dir = writePackage(
      { 'query.json': JSON.stringify(query), 'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))) },
      { manifest: { query } },
    );
    const v = pinnedVerifier();
    await loadPackage(nodeDir(dir, 'pkg'), v, 'p');
    const r = await v.finish();
    expectProblem(r, 'query_scope_violation', { receipt_id: 'rcpt-test-000002', line: 2 });
    expect(r.problems.filter((p) => p.code === 'query_scope_violation').map((p) => p.line)).toEqual([2, 3]);
    expect(r.packages[0]!.checks.scope).toBe('fail');
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified']);
    expect(r.ok).toBe(false);
    mark('query_scope_violation');
  });

  it('unsigned_field: keys outside the signed set are reported, and the receipt still verifies', async () => {
    const r = await verify([{ value: { ...good(1), note: 'added later' } }]);
    expectProblem(r, 'unsigned_field', { receipt_id: 'rcpt-test-000001' });
    expect(r.problems[0]!.message).toContain('$.note');
    expect(r.receipts[0]!.verdict).toBe('verified');
    expect(r.ok).toBe(true);
    mark('unsigned_field');
  });

  it('legacy_canonicalization: signed under the old DEL/C1 escaping', async () => {
    const legacy = genAReceipt({ seq: 1, key, parameters: { note: 'bell\u0085del\u007f' }, legacy: true });
    const r = await verify([{ value: legacy }]);
    expectProblem(r, 'legacy_canonicalization');
    expect(r.receipts[0]!.checks.signature).toBe('pass');
    expect(r.receipts[0]!.verdict).toBe('verified');
    mark('legacy_canonicalization');
  });

  it('reconciliation_break: budget_remaining that does not follow from the previous receipt', async () => {
    const fin = (charged: number, remaining: number) => ({
      grant_index: 0,
      cost_charged: charged,
      currency: 'USD',
      budget_remaining: remaining,
      budget_total: 1000,
      delegation_depth: 0,
      root_budget_holder: 'org-a',
      settlement_status: 'settled',
    });
    const rs = [
      genAReceipt({ seq: 1, key, financial: fin(100, 900) }),
      genAReceipt({ seq: 2, key, financial: fin(50, 850) }),
      genAReceipt({ seq: 3, key, financial: fin(25, 800) }),
    ];
    const r = await verify(rs.map((value) => ({ value })));
    expectProblem(r, 'reconciliation_break', { receipt_id: 'rcpt-test-000003' });
    expect(r.finance.budgets[0]!.breaks).toEqual(['rcpt-test-000003']);
    expect(r.finance.budgets[0]!.charged).toBe(175n);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified']);
    mark('reconciliation_break');
  });

  const A = 'zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY';
  const FORGED = 'zc-receipt-1711547700-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  it('fabricated_tool_call: a reply lists a ZeroClaw receipt no tool result of its turn carries; the rest verifies', async () => {
    const transcript = [
      { role: 'user', content: 'what day is it?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":"date"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: `Mon Mar 27\n\n[receipt: ${A}]` },
      { role: 'assistant', content: `Monday, and I checked the weather too.\n\n---\nTool receipts:\n  shell: ${A}\n  weather: ${FORGED}` },
    ];
    const r = await verify([{ value: good(1) }, ...transcript.map((value) => ({ value }))]);
    expectProblem(r, 'fabricated_tool_call', { line: 5, receipt_id: FORGED });
    expect(r.receipts.map((x) => [x.type, x.verdict])).toEqual([
      ['tool', 'verified'],
      ['zeroclaw', 'unverified'],
      ['zeroclaw', 'failed'],
    ]);
    expect(r.receipts[1]!.checks).toEqual({ parse: 'pass', signature: 'skipped', claims: 'pass' });
    expect(r.receipts[2]!.details!.claims).toMatch(/weather: .*which no tool result carries: a fabricated tool call/);
    mark('fabricated_tool_call');
  });

  it('review_gate_failed: a CodeWhale review receipt with unresolved risk would not pass --check-receipt', async () => {
    const review = JSON.parse(readTestdata('codewhale/synthesized/review-receipt.unresolved-warning.json')) as unknown;
    const r = await verify([{ value: good(1) }, { value: review }]);
    expectProblem(r, 'review_gate_failed', { line: 2 });
    expect(r.receipts.map((x) => [x.type, x.verdict])).toEqual([
      ['tool', 'verified'],
      ['codewhale-review', 'failed'],
    ]);
    expect(r.receipts[1]!.checks.signature).toBe('skipped');
    mark('review_gate_failed');
  });

  it('turn_receipt_inconsistent: a CodeWhale turn receipt that exported raw reasoning', async () => {
    const turn = JSON.parse(readTestdata('codewhale/conformance-receipt-v0.draft-example.json')) as { reasoning_custody: { raw_reasoning_exported: boolean } };
    turn.reasoning_custody.raw_reasoning_exported = true;
    const r = await verify([{ value: turn }, { value: good(2) }]);
    expectProblem(r, 'turn_receipt_inconsistent', { line: 1 });
    expect(r.receipts.map((x) => [x.type, x.verdict])).toEqual([
      ['codewhale-turn', 'failed'],
      ['tool', 'verified'],
    ]);
    expect(r.receipts[0]!.checks.reasoning_custody).toBe('fail');
    mark('turn_receipt_inconsistent');
  });

  // Capability lineage (contract part 2 §5.3.1): rows of a capability-lineage.ndjson.
  const subject = keyFromSeed(21).publicHex;
  const capToken = (o: Partial<Parameters<typeof capabilityToken>[0]> = {}) => capabilityToken({ id: 'cap-test-1', key, subject, ...o });
  const lineageLine = (value: unknown): Rec => ({ value, role: 'lineage' });

  it('lineage_downgraded: a row without provenance (read as legacy_projection); the receipt still verifies', async () => {
    const { provenance: _, signed_capability: __, ...stripped } = lineageRowOf(capToken());
    const r = await verify([{ value: good(1) }, lineageLine(stripped)]);
    expectProblem(r, 'lineage_downgraded', { line: 2 });
    expect(r.lineage!.map((l) => [l.verdict, l.problems])).toEqual([['failed', ['lineage_downgraded']]]);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified']);
    expect(r.ok).toBe(false);
    mark('lineage_downgraded');
  });

  it('lineage_signature_invalid: a token re-signed by another key; the other row verifies', async () => {
    const forged = capToken({ key: keyFromSeed(22), issuer: key.publicHex });
    const r = await verify([lineageLine(lineageRowOf(forged)), lineageLine(lineageRowOf(capToken({ id: 'cap-test-2' })))]);
    expectProblem(r, 'lineage_signature_invalid', { line: 1 });
    expect(r.lineage!.map((l) => l.verdict)).toEqual(['failed', 'verified']);
    expect(r.ok).toBe(false);
    mark('lineage_signature_invalid');
  });

  it('lineage_mismatch: a delegation depth the signed token does not have', async () => {
    const r = await verify([lineageLine(lineageRowOf(capToken(), { delegation_depth: 1 }))]);
    expectProblem(r, 'lineage_mismatch', { line: 1 });
    expect(r.lineage![0]!.problems).toEqual(['lineage_mismatch']);
    mark('lineage_mismatch');
  });

  it('lineage_missing: a package receipt whose capability has no lineage row (a warning)', async () => {
    const row = lineageRowOf(capToken({ id: 'cap-other' }));
    const dir = writePackage({ 'receipts.ndjson': ndjson([{ seq: 1, receipt: good(1) }]), 'capability-lineage.ndjson': ndjson([row]) });
    const v = pinnedVerifier();
    await loadPackage(nodeDir(dir, 'pkg'), v, 'p');
    const r = await v.finish();
    expectProblem(r, 'lineage_missing', { receipt_id: 'rcpt-test-000001', line: 1 });
    expect(r.receipts[0]!.verdict).toBe('verified');
    expect(r.ok).toBe(true);
    mark('lineage_missing');
  });

  it('attribution_mismatch: a receipt whose signed attribution names another subject than its lineage row (a warning)', async () => {
    const attribution = { subject_key: keyFromSeed(23).publicHex, issuer_key: key.publicHex };
    const receipt = genAReceipt({ seq: 1, key, extra: { metadata: { attribution } } });
    const r = await verify([lineageLine(lineageRowOf(capToken())), { value: receipt, seq: 1 }]);
    expectProblem(r, 'attribution_mismatch', { receipt_id: 'rcpt-test-000001', line: 2 });
    expect(r.receipts[0]!.checks).toMatchObject({ signature: 'pass', inclusion: 'skipped' });
    expect(r.lineage![0]!.verdict).toBe('verified');
    expect(r.ok).toBe(true);
    mark('attribution_mismatch');
  });

  it('checkpoint_chain_invalid: a v2 chain_root that does not recompute, though the kernel signed it', async () => {
    const rs = [1, 2, 3, 4].map(good);
    const cp1 = checkpointV2({ seq: 1, start: 1, leaves: rs.slice(0, 2).map(leafOf), key, chainBefore: [] });
    const cp2 = checkpointV2({
      seq: 2,
      start: 3,
      leaves: rs.slice(2).map(leafOf),
      key,
      previous: cp1.body,
      chainBefore: [],
      edit: (b) => (b.chain_root = '0x' + '55'.repeat(32)),
    });
    const r = await verify([{ value: cp1 }, { value: cp2 }, ...rs.map((x, i) => ({ value: x, seq: i + 1 }))]);
    expectProblem(r, 'checkpoint_chain_invalid', { line: 2 });
    expect(r.checkpoints.map((c) => c.verdict)).toEqual(['verified', 'failed']);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'unverified', 'unverified']);
    mark('checkpoint_chain_invalid');
  });

  it('checkpoint_prefix_incomplete: a checkpoint whose predecessor is not in the log (a warning; its receipts verify)', async () => {
    const rs = [1, 2, 3, 4].map(good);
    const cp1 = checkpointV2({ seq: 1, start: 1, leaves: rs.slice(0, 2).map(leafOf), key, chainBefore: [] });
    const cp2 = checkpointV2({ seq: 2, start: 3, leaves: rs.slice(2).map(leafOf), key, previous: cp1.body, chainBefore: [chainLeafOf(cp1.body)] });
    const r = await verify([{ value: cp2 }, { value: rs[2], seq: 3 }, { value: rs[3], seq: 4 }]);
    expectProblem(r, 'checkpoint_prefix_incomplete', { line: 1 });
    expect(r.ok).toBe(true);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
    mark('checkpoint_prefix_incomplete');
  });

  it('transparency_record_mismatch: a publication record that differs from the signed checkpoint', async () => {
    const { receipts, cp } = goodLog(2, 2);
    const publication = { log_id: 'local-log-' + '0'.repeat(64), schema: 'chio.checkpoint_publication.v1', checkpoint_seq: 1 };
    const r = await verify([{ value: cp }, ...receipts.map((x, i) => ({ value: x, seq: i + 1 })), { value: publication }]);
    expectProblem(r, 'transparency_record_mismatch', { line: 4 });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified']);
    mark('transparency_record_mismatch');
  });

  it("inclusion_position_mismatch: a proof whose tree_size is not the checkpoint's (a warning; the path decides)", async () => {
    const rs = [1, 2, 3].map(good);
    const leaves = rs.map(leafOf);
    const cp = checkpoint({ seq: 1, start: 1, leaves, key });
    const p = proof(cp, 1, leaves, 0) as { proof: { tree_size: number } };
    p.proof.tree_size = 4; // leaf 0's path in a tree of 3 also reaches the root for a claimed tree of 4
    const r = await verify([
      { value: cp },
      ...rs.map((x, i) => ({ value: x, seq: i + 1 })),
      { value: p },
      { value: proof(cp, 2, leaves, 1) },
      { value: proof(cp, 3, leaves, 2) },
    ]);
    expectProblem(r, 'inclusion_position_mismatch', { receipt_id: 'rcpt-test-000001' });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified']);
    expect(r.ok).toBe(true);
    mark('inclusion_position_mismatch');
  });

  // Contract part 2 §5.4: the real Claude Code tool-result text (a chio-bridge outcome), tampered.
  const ENVELOPE_KEY = '1e5677d422400a3f2db017bb2b7864906a126285e1850556e0777c58d5ce1917';
  const envelope = () =>
    JSON.parse(readTestdata('chio/realworld-2026-09/claude-code-tool-result-text.json')) as {
      requestId: string;
      result: { isError: boolean };
      delivery: { resultHash: string };
      receipt: { id: string };
    };

  it('content_hash_mismatch: the output an envelope carries is not the one the receipt signed; the receipt itself still verifies its signature', async () => {
    const o = envelope();
    o.result.isError = true;
    const r = await verify([{ value: good(1) }, { value: o }], [key.publicHex, ENVELOPE_KEY]);
    expectProblem(r, 'content_hash_mismatch', { line: 2, receipt_id: o.receipt.id });
    expect(r.receipts[1]!.checks).toMatchObject({ signature: 'pass', content_hash: 'fail' });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'failed']);
    mark('content_hash_mismatch');
  });

  it('delivery_mismatch: the delivery acknowledgement names another result hash', async () => {
    const o = envelope();
    o.delivery.resultHash = '00'.repeat(32);
    const r = await verify([{ value: o }, { value: good(2) }], [key.publicHex, ENVELOPE_KEY]);
    expectProblem(r, 'delivery_mismatch', { line: 1, receipt_id: o.receipt.id });
    expect(r.receipts[0]!.checks).toMatchObject({ signature: 'pass', content_hash: 'pass', delivery: 'fail' });
    expect(r.receipts.map((x) => x.verdict)).toEqual(['failed', 'verified']);
    mark('delivery_mismatch');
  });

  it('envelope_invalid: the envelope names another request than the signed receipt_context.request_id', async () => {
    const o = envelope();
    o.requestId = `${o.requestId}-replayed`;
    const r = await verify([{ value: good(1) }, { value: o }], [key.publicHex, ENVELOPE_KEY]);
    expectProblem(r, 'envelope_invalid', { line: 2, receipt_id: o.receipt.id });
    expect(r.receipts[1]!.checks.signature).toBe('pass');
    expect(r.receipts[0]!.verdict).toBe('verified');
    expect(r.ok).toBe(false);
    mark('envelope_invalid');
  });

  it('signer_not_pinned: with no key pinned, an intact receipt is unverified and the log is not ok (part 2 §11)', async () => {
    const r = await verify([{ value: good(1) }, { value: good(2) }], []);
    expect(r.receipts[0]!.checks.signer_trusted).toBe('skipped');
    expect(checkCodeOf(r.receipts[0]!.details?.signer_trusted)).toBe('no_key_pinned');
    expect(r.receipts.map((x) => x.verdict)).toEqual(['unverified', 'unverified']);
    expect(r.summary).toMatchObject({ verified: 0, unverified: 2 });
    expect(r.trust.pinned).toBe(false);
    expectProblem(r, 'signer_not_pinned');
    expect(r.problems.find((p) => p.code === 'signer_not_pinned')!.message).toContain(key.publicHex);
    expect(r.ok).toBe(false);
    mark('signer_not_pinned');
  });

  it('signer_not_pinned: --allow-unpinned makes it a warning; the verdicts stay unverified', async () => {
    const r = await verify([{ value: good(1) }], [], { allowUnpinned: true });
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['signer_not_pinned', 'warning']]);
    expect(r.receipts[0]!.verdict).toBe('unverified');
    expect(r.ok).toBe(true);
  });

  it('an attacker who signs with a key of their own gets no verified receipt, pinned or not', async () => {
    const attacker = keyFromSeed(66);
    const forged = genAReceipt({ seq: 1, key: attacker });
    const unpinned = await verify([{ value: forged }], []);
    expect(unpinned.receipts[0]!.verdict).toBe('unverified');
    expect(unpinned.ok).toBe(false);
    const pinned = await verify([{ value: forged }]);
    expect(pinned.receipts[0]!.verdict).toBe('failed');
    expectProblem(pinned, 'untrusted_signer', { receipt_id: 'rcpt-test-000001' });
  });

  it("duplicate_receipt_id: a copy of a receipt's id with another body, re-signed by another key; the genuine one still verifies", async () => {
    const attacker = keyFromSeed(99);
    const forged = genAReceipt({ seq: 1, key: attacker, extra: { tool_name: 'file_delete' } });
    const r = await verify([{ value: good(1) }, { value: good(2) }, { value: forged }], [key.publicHex]);
    expectProblem(r, 'duplicate_receipt_id', { receipt_id: 'rcpt-test-000001', line: 1 });
    expect(r.problems.filter((p) => p.code === 'duplicate_receipt_id').map((p) => p.line)).toEqual([1, 3]);
    // One source, no checkpoint: the forged copy fails its signer, and the replay rule fails both
    // unplaced copies (nothing tells them apart). Across sources the genuine one keeps its verdict
    // (duplicate-ids.test.ts).
    expect(r.receipts.map((x) => `${x.line}:${x.verdict}`)).toEqual(['1:failed', '2:verified', '3:failed']);
    expect(r.ok).toBe(false);
    mark('duplicate_receipt_id');
  });

  it('covers the closed list', () => {
    expect([...tested].sort()).toEqual([...PROBLEM_CODES].sort());
  });
});

describe('verdict rules (contract §6)', () => {
  // Part 2 §12: a server that withholds every checkpoint cannot turn covered receipts into a tail.
  it('a receipt inside a checkpoint remembered from an earlier load is never the tail: without a checkpoint here, inclusion fails', async () => {
    const log = goodLog(6, 0);
    const v = pinnedVerifier();
    v.setRemembered(new Map([[key.publicHex, { checkpointSeq: 1n, batchEndSeq: 4n }]]));
    for (const [i, receipt] of log.receipts.entries())
      await v.addRecord(JSON.stringify({ seq: i + 1, receipt }), { file: 'r.ndjson', line: i + 1, role: 'auto', space: 's' });
    const r = await v.finish();
    expect(r.receipts.map((x) => x.verdict)).toEqual(['failed', 'failed', 'failed', 'failed', 'verified', 'verified']);
    expect(r.receipts[0]!.details?.inclusion).toMatch(/inside checkpoint 1 \(receipts up to seq 4\), which this browser verified before/);
    expect(r.problems.filter((p) => p.code === 'inclusion_failed')).toHaveLength(4);
    // Another key's memory changes nothing.
    const other = pinnedVerifier();
    other.setRemembered(new Map([[keyFromSeed(9).publicHex, { checkpointSeq: 1n, batchEndSeq: 4n }]]));
    for (const [i, receipt] of log.receipts.entries())
      await other.addRecord(JSON.stringify({ seq: i + 1, receipt }), { file: 'r.ndjson', line: i + 1, role: 'auto', space: 's' });
    expect((await other.finish()).receipts.every((x) => x.verdict === 'verified')).toBe(true);
  });

  it('the uncheckpointed tail is verified; a receipt in a gap before a later checkpoint is not', async () => {
    const rs = [1, 2, 3, 4, 5].map(good);
    // Checkpoint 1 is not in the log; checkpoint 2 names it (part 2 §5.1: a skip, not a failure).
    const cp1 = checkpoint({ seq: 1, start: 1, leaves: rs.slice(0, 2).map(leafOf), key });
    const cp2 = checkpoint({ seq: 2, start: 3, leaves: rs.slice(2, 4).map(leafOf), key, previous: cp1.body });
    const r = await verify([{ value: cp2 }, ...rs.map((x, i) => ({ value: x, seq: i + 1 }))]);
    expect(r.receipts.map((x) => [x.verdict, x.details?.inclusion ?? x.checks.inclusion])).toEqual([
      ['unverified', expect.stringMatching(/no checkpoint covers seq 1/)],
      ['unverified', expect.stringMatching(/no checkpoint covers seq 2/)],
      ['verified', expect.stringMatching(/batch root recomputed/)],
      ['verified', expect.stringMatching(/batch root recomputed/)],
      ['verified', 'uncheckpointed'],
    ]);
  });
});
