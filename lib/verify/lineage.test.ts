// The `lineage` check (contract part 2 §5.3.1, format §16.9) over the two real
// 2026-09 vectors and variants forged here by re-signing with test keys: every
// rule keeps its own code, a bad row never stops the log, and lineage never
// touches a receipt's own checks.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nodeDir } from '../../bin/cli/node-source';
import { decodeCapabilityToken } from '../chio/capability-token';
import { verifyChioSignature } from '../crypto/chio-signature';
import { canonicalBytes } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { loadPackage } from '../sources/package';
import { type Plain, capabilityToken, genAReceipt, keyFromSeed, lineageRowOf, ndjson, writePackage } from '../../test/support/forge';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { ANCHOR_NOTE } from './lineage';
import { LogVerifier } from './log-verifier';
import type { VerificationReport } from '../verdict/report';

const REAL = 'chio/realworld-2026-09';
const KERNEL = '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93';
const realRowText = readFileSync(testdataPath(`${REAL}/minimal-evidence/capability-lineage.ndjson`), 'utf8').trim();
/** The real row as a plain object (its integers are safe, so JSON.parse keeps every signed byte's meaning). */
const realRow = () => JSON.parse(realRowText) as Plain & { signed_capability: Plain };

const issuerKey = keyFromSeed(11);
const subjectKey = keyFromSeed(12);
const otherKey = keyFromSeed(13);
const token = (o: Partial<Parameters<typeof capabilityToken>[0]> = {}) =>
  capabilityToken({ id: 'cap-forged-1', key: issuerKey, subject: subjectKey.publicHex, ...o });

/** `keys`: pinned; the key of this file's receipts by default (a receipt is verified only under a pinned key). */
async function verifyPackageDir(dir: string, keys: string[] = [keyFromSeed(11).publicHex]): Promise<VerificationReport> {
  const trust = TrustStore.create(keys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store });
  await loadPackage(nodeDir(dir, 'pkg'), v, 'p');
  return v.finish();
}

/** A package of `rows` (objects, or raw lines) and `receipts`, its query with a read boundary (part 2 §5.3). */
function pkg(rows: (Plain | string)[], receipts: Plain[] = []): Promise<VerificationReport> {
  const lines = rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)) + '\n').join('');
  const files = { 'capability-lineage.ndjson': lines, 'receipts.ndjson': ndjson(receipts.map((r, i) => ({ seq: i + 1, receipt: r }))) };
  return verifyPackageDir(writePackage(files, { manifest: { query: { readBoundary: { kind: 'admin_all' } } } }));
}

const rowCodes = (r: VerificationReport) => (r.lineage ?? []).map((l) => l.problems);
const verdicts = (r: VerificationReport) => (r.lineage ?? []).map((l) => l.verdict);

describe('the real vectors (verification-v2.md §10)', () => {
  it('minimal-evidence: the signed_token row verifies, the log is ok, summary counts it', async () => {
    const r = await verifyPackageDir(testdataPath(`${REAL}/minimal-evidence`), [KERNEL]);
    expect(r.lineage).toEqual([
      {
        capability_id: 'cap-01a08c9d-54ba-7cf2-83d1-6fbd326a9b21',
        provenance: 'signed_token',
        verdict: 'verified',
        checks: { lineage: 'pass' },
        problems: [],
        file: 'capability-lineage.ndjson',
        line: 1,
      },
    ]);
    expect(r.summary).toEqual({ receipts: 1, verified: 1, failed: 0, unverified: 0, checkpoints: 0, lineage: 1, lineage_failed: 0 });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('minimal-evidence: the issuer signed the 366-byte schema-aware body, and not the plain one', async () => {
    const parsed = parseJson(realRowText);
    if (!parsed.ok || !(parsed.value instanceof Map)) throw new Error('row');
    const decoded = decodeCapabilityToken(parsed.value.get('signed_capability')!);
    if (!decoded.ok) throw new Error(decoded.issues.join('; '));
    expect(decoded.issues).toEqual([]);
    const schemaBody = canonicalBytes(decoded.token.signingBody);
    expect(schemaBody.length).toBe(366);
    expect((await verifyChioSignature(KERNEL, decoded.token.signature, schemaBody)).status).toBe('pass');
    expect((await verifyChioSignature(KERNEL, decoded.token.signature, canonicalBytes(decoded.token.plainBody!))).status).toBe('fail');
  });

  it('rehashed-changed-signed-token: fails with lineage_signature_invalid then lineage_mismatch; the receipt keeps its verdict', async () => {
    const r = await verifyPackageDir(testdataPath(`${REAL}/rehashed-changed-signed-token`), [KERNEL]);
    expect(rowCodes(r)).toEqual([['lineage_signature_invalid', 'lineage_mismatch']]);
    expect(r.lineage![0]!.details!.lineage).toMatch(/signature does not verify.*subject_key c43ce1a6…dac6 differs from the token's subject 01010101…0101/);
    expect(r.problems.map((p) => [p.code, p.file, p.line])).toEqual([
      ['lineage_mismatch', 'capability-lineage.ndjson', 1],
      ['lineage_signature_invalid', 'capability-lineage.ndjson', 1],
    ]);
    expect(r.receipts.map((x) => [x.verdict, x.checks.signature, x.checks.inclusion])).toEqual([['verified', 'pass', 'skipped']]);
    expect(r.packages[0]!.checks.manifest).toBe('pass');
    expect(r.summary.lineage_failed).toBe(1);
    expect(r.ok).toBe(false);
  });

  it('a log without lineage rows has no lineage keys (older reports stay the same)', async () => {
    const r = await pkg([], [genAReceipt({ seq: 1, key: issuerKey })]);
    expect('lineage' in r).toBe(false);
    expect(Object.keys(r.summary)).toEqual(['receipts', 'verified', 'failed', 'unverified', 'checkpoints']);
  });
});

describe('forged tokens (re-signed with test keys)', () => {
  it('a token signed over the schema-aware body verifies; so does a plain token signed without schema', async () => {
    const r = await pkg([lineageRowOf(token()), lineageRowOf(token({ id: 'cap-forged-2', plain: true }))]);
    expect(verdicts(r)).toEqual(['verified', 'verified']);
    expect(r.ok).toBe(true);
  });

  it('a token without schema means chio.capability.v1 (its signing body still includes it)', async () => {
    const r = await pkg([lineageRowOf(token({ omitSchema: true })), lineageRowOf(token({ id: 'cap-forged-2', omitSchema: true, plain: true }))]);
    expect(verdicts(r)).toEqual(['verified', 'verified']);
  });

  it('the plain fallback is refused for a token that is not plain (an aggregate budget)', async () => {
    const t = token({ plain: true, extra: { aggregate_invocation_budget: { max_invocations: 3, scope: 'capability' } } });
    const r = await pkg([lineageRowOf(t)]);
    expect(rowCodes(r)).toEqual([['lineage_signature_invalid']]);
    expect(r.lineage![0]!.details!.lineage).toMatch(/signature does not verify/);
  });

  it('a token re-signed by another key (issuer unchanged) fails its signature, nothing else', async () => {
    const t = token({ key: otherKey, issuer: issuerKey.publicHex });
    const r = await pkg([lineageRowOf(t)]);
    expect(rowCodes(r)).toEqual([['lineage_signature_invalid']]);
  });

  it('a token re-issued under another key, row rewritten to match: verified as intact, but the receipt attribution says otherwise', async () => {
    const receipt = genAReceipt({
      seq: 1,
      key: issuerKey,
      extra: { capability_id: 'cap-forged-1', metadata: { attribution: { subject_key: subjectKey.publicHex, issuer_key: issuerKey.publicHex } } },
    });
    const r = await pkg([lineageRowOf(token({ key: otherKey }))], [receipt]);
    // The token is intact under its own issuer; nothing pins who that issuer must be (reported as a gap).
    expect(verdicts(r)).toEqual(['verified']);
    expect(r.problems.map((p) => [p.code, p.severity, p.receipt_id])).toEqual([['attribution_mismatch', 'warning', 'rcpt-test-000001']]);
    expect(r.receipts[0]!.verdict).toBe('verified');
  });

  it('a changed grants_json is a mismatch against the token scope (compared canonically, not as text)', async () => {
    const t = token();
    const reordered = '{"grants":[{"operations":["invoke"],"tool_name":"read_file","server_id":"*"}]}';
    const widened = '{"grants":[{"server_id":"*","tool_name":"*","operations":["invoke"]}]}';
    const r = await pkg([
      lineageRowOf(t, { grants_json: reordered }),
      lineageRowOf(token({ id: 'cap-2' }), { grants_json: widened }),
      lineageRowOf(token({ id: 'cap-3' }), { grants_json: '{"grants":' }),
    ]);
    expect(rowCodes(r)).toEqual([[], ['lineage_mismatch'], ['lineage_mismatch']]);
    expect(r.lineage![1]!.details!.lineage).toBe("grants_json differs from the token's scope");
    expect(r.lineage![2]!.details!.lineage).toMatch(/^grants_json is not JSON/);
  });

  it('a depth or parent lie is a mismatch against the signed delegation chain', async () => {
    const link = {
      capability_id: 'cap-root',
      delegator: issuerKey.publicHex,
      delegatee: subjectKey.publicHex,
      timestamp: 1789065000,
      signature: '00'.repeat(64),
    };
    const delegated = token({ chain: [link] });
    const r = await pkg([
      lineageRowOf(delegated),
      lineageRowOf(token({ id: 'cap-2', chain: [link] }), { delegation_depth: 0 }),
      lineageRowOf(token({ id: 'cap-3', chain: [link] }), { parent_capability_id: 'cap-other' }),
      lineageRowOf(token({ id: 'cap-4' }), { delegation_depth: 2, parent_capability_id: 'cap-root' }),
    ]);
    expect(rowCodes(r)).toEqual([[], ['lineage_mismatch'], ['lineage_mismatch'], ['lineage_mismatch']]);
    expect(r.lineage![1]!.details!.lineage).toBe("delegation_depth 0 differs from the token's delegation chain of 1 link(s)");
    expect(r.lineage![3]!.details!.lineage).toMatch(/parent_capability_id "cap-root" differs .*empty: a root capability.*; delegation_depth 2 differs/);
  });

  it('an algorithm that lies is refused; one that agrees is informational', async () => {
    const r = await pkg([
      lineageRowOf(token({ after: { algorithm: 'p256' } })),
      lineageRowOf(token({ id: 'cap-2', after: { algorithm: 'ed25519' } })),
      lineageRowOf(token({ id: 'cap-3', after: { algorithm: 'rsa' } })),
      lineageRowOf(token({ id: 'cap-4', after: { algorithm: null } })),
    ]);
    expect(rowCodes(r)).toEqual([['lineage_signature_invalid'], [], ['lineage_signature_invalid'], []]);
    expect(r.lineage![0]!.details!.lineage).toBe('its token fails schema validation: algorithm says p256, but the signature is ed25519');
  });

  it('schema validation: another schema, caveats, a key not in to_hex form, an unknown field', async () => {
    const upper = token({ id: 'cap-3', subject: subjectKey.publicHex.toUpperCase() });
    const r = await pkg([
      lineageRowOf(token({ extra: {} }), {}),
      lineageRowOf({ ...token({ id: 'cap-2', extra: { caveats: [{ kind: 'bind_security_context' }] } }) }),
      lineageRowOf(upper, { subject_key: subjectKey.publicHex }),
      lineageRowOf(token({ id: 'cap-4', after: { note: 'unsigned extra' } })),
    ]);
    expect(rowCodes(r)).toEqual([[], ['lineage_signature_invalid'], ['lineage_signature_invalid'], ['lineage_signature_invalid']]);
    expect(r.lineage![1]!.details!.lineage).toMatch(/rejects non-empty caveats/);
    expect(r.lineage![2]!.details!.lineage).toMatch(/subject is not written as Chio writes keys/);
    // Rust drops an unknown key before checking the signature, so it verifies: the key itself is what is refused.
    expect(r.lineage![3]!.details!.lineage).toBe(
      'its token fails schema validation: carries "note", outside the chio.capability.v1 fields (not covered by its signature)',
    );
    const wrongSchema = { ...token({ id: 'cap-5' }), schema: 'chio.capability.v2' };
    const r2 = await pkg([lineageRowOf(wrongSchema)]);
    expect(r2.lineage![0]!.details!.lineage).toMatch(/schema is "chio.capability.v2", not chio.capability.v1/);
  });

  it('an unreadable token fails rule 2 and leaves rule 3 unevaluated', async () => {
    const { subject: _, ...noSubject } = token();
    const r = await pkg([
      lineageRowOf(token(), { signed_capability: 'not a token' }),
      lineageRowOf({ ...noSubject, id: 'cap-2' }, { subject_key: subjectKey.publicHex }),
    ]);
    expect(rowCodes(r)).toEqual([['lineage_signature_invalid'], ['lineage_signature_invalid']]);
    expect(r.lineage![1]!.details!.lineage).toBe('its token cannot be read: subject: expected a string, found missing');
  });
});

describe('downgrades (format §16.9: an absent provenance means legacy_projection)', () => {
  it('token stripped and provenance removed: lineage_downgraded, an error', async () => {
    const { signed_capability: _, provenance: __, ...stripped } = realRow();
    const r = await pkg([stripped]);
    expect(r.lineage!.map((l) => [l.provenance, l.verdict, l.problems])).toEqual([['legacy_projection', 'failed', ['lineage_downgraded']]]);
    expect(r.lineage![0]!.details!.lineage).toMatch(/no provenance \(read as legacy_projection\)/);
    expect(r.ok).toBe(false);
  });

  it('token stripped, provenance kept: lineage_signature_invalid; relabelled legacy with the token kept: downgraded only', async () => {
    const { signed_capability: _, ...noToken } = realRow();
    const r = await pkg([noToken]);
    expect(rowCodes(r)).toEqual([['lineage_signature_invalid']]);
    expect(r.lineage![0]!.details!.lineage).toBe('it claims signed_token provenance but carries no signed_capability');
    const relabelled = await pkg([{ ...realRow(), provenance: 'legacy_projection' }]);
    expect(rowCodes(relabelled)).toEqual([['lineage_downgraded']]);
  });
});

describe('row shape: a bad row never stops the log', () => {
  it('an unknown provenance is a parse_error naming file and line; the next row still verifies', async () => {
    const r = await pkg([{ ...realRow(), provenance: 'self_signed' }, realRow()]);
    expect(r.problems.map((p) => [p.code, p.file, p.line])).toEqual([['parse_error', 'capability-lineage.ndjson', 1]]);
    expect(r.problems[0]!.message).toMatch(/\$\.provenance: expected one of signed_token, synthetic_anchor, legacy_projection, found "self_signed"/);
    expect(r.lineage!.map((l) => [l.line, l.verdict])).toEqual([[2, 'verified']]);
  });

  it('null and extra keys: nulls read as serde reads them, unknown keys ignored, wrong types refused', async () => {
    const extra = await pkg([{ ...realRow(), federated_parent_capability_id: null, note: 'ignored', extra: { deep: [1, 2] } }]);
    expect(extra.lineage!.map((l) => [l.verdict, l.problems])).toEqual([['verified', []]]);
    const noToken = await pkg([{ ...realRow(), signed_capability: null }]);
    expect(rowCodes(noToken)).toEqual([['lineage_signature_invalid']]);
    const { parent_capability_id: _, ...noParent } = realRow();
    const raw = (edit: (t: string) => string) => edit(realRowText);
    const r = await pkg([
      { ...realRow(), subject_key: null },
      { ...realRow(), provenance: null },
      raw((t) => t.replace('"issued_at":1789065516', '"issued_at":1789065516.0')),
      { ...realRow(), delegation_depth: -1 },
      noParent,
      raw((t) => t.replace('"expires_at":1789069116', '"expires_at":18446744073709551616')),
    ]);
    expect(r.lineage).toBeUndefined();
    expect(r.problems.map((p) => [p.code, p.line, p.message])).toEqual([
      ['parse_error', 1, '$.subject_key: expected a string, found null'],
      ['parse_error', 2, '$.provenance: expected one of signed_token, synthetic_anchor, legacy_projection, found null'],
      ['parse_error', 3, '$.issued_at: expected an unsigned 64-bit integer, found the number 1789065516.0'],
      ['parse_error', 4, '$.delegation_depth: expected an unsigned 64-bit integer, found the number -1'],
      ['parse_error', 5, '$.parent_capability_id: missing (Chio writes it, null for a root capability)'],
      ['parse_error', 6, '$.expires_at: integer outside the 64-bit range cannot be represented exactly'],
    ]);
  });

  it('a row that is not an object, or a line that is not JSON, is a parse_error with its line', async () => {
    const r = await pkg(['[1]', '{"capability_id":', realRow()]);
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([
      ['parse_error', 1],
      ['parse_error', 2],
    ]);
    expect(verdicts(r)).toEqual(['verified']);
  });
});

describe('synthetic anchors and federated parents', () => {
  const anchorId = `fed-del-${'ab'.repeat(32)}`;
  let n = 0;
  /** An anchor with an id of its own (rows of one capability must agree with each other). */
  const anchor = (o: Plain = {}): Plain => ({
    capability_id: `fed-del-${(n++).toString(16).padStart(64, '0')}`,
    subject_key: subjectKey.publicHex,
    issuer_key: issuerKey.publicHex,
    issued_at: 10,
    expires_at: 20,
    grants_json: '{"grants":[]}',
    delegation_depth: 0,
    parent_capability_id: null,
    provenance: 'synthetic_anchor',
    ...o,
  });

  it('a well-formed anchor passes, described as an unsigned federation anchor', async () => {
    const r = await pkg([anchor()]);
    expect(r.lineage![0]).toMatchObject({ provenance: 'synthetic_anchor', verdict: 'verified', details: { lineage: ANCHOR_NOTE }, problems: [] });
  });

  it('every broken anchor rule is named under lineage_mismatch', async () => {
    const r = await pkg([
      anchor({ signed_capability: token() }),
      anchor({ capability_id: `fed-del-${'AB'.repeat(32)}` }),
      anchor({ parent_capability_id: 'cap-x', delegation_depth: 1 }),
      anchor({ issued_at: 20 }),
      anchor({ issuer_key: 'zz' }),
      anchor({ grants_json: '[]' }),
    ]);
    expect(rowCodes(r)).toEqual(Array(6).fill(['lineage_mismatch']));
    expect(r.lineage!.map((l) => l.details!.lineage)).toEqual([
      'a synthetic anchor must not carry a signed token',
      expect.stringMatching(/is not fed-del- followed by 64 lowercase hex digits/),
      expect.stringMatching(/unsigned federation data in the signed lineage fields/),
      'its validity window is empty or reversed (issued_at 20, expires_at 20)',
      expect.stringMatching(/^issuer_key is not a valid public key/),
      'grants_json is not a JSON scope object',
    ]);
  });

  it('a row that is its own federated parent is a mismatch, whatever its provenance', async () => {
    const r = await pkg([
      lineageRowOf(token(), { federated_parent_capability_id: 'cap-forged-1' }),
      anchor({ capability_id: anchorId, federated_parent_capability_id: anchorId }),
    ]);
    expect(rowCodes(r)).toEqual([['lineage_mismatch'], ['lineage_mismatch']]);
  });
});

describe('linking receipts to lineage (warnings, beyond upstream)', () => {
  const attributed = (seq: number, capability: string, attribution: Plain) =>
    genAReceipt({ seq, key: issuerKey, extra: { capability_id: capability, metadata: { attribution } } });
  const keys = { subject_key: subjectKey.publicHex, issuer_key: issuerKey.publicHex };

  it('lineage_missing for a capability with no row; attribution_mismatch for keys that differ; receipts keep their checks', async () => {
    const r = await pkg(
      [lineageRowOf(token())],
      [attributed(1, 'cap-forged-1', keys), attributed(2, 'cap-unknown', keys), attributed(3, 'cap-forged-1', { ...keys, subject_key: otherKey.publicHex })],
    );
    expect(r.problems.map((p) => [p.code, p.severity, p.receipt_id])).toEqual([
      ['lineage_missing', 'warning', 'rcpt-test-000002'],
      ['attribution_mismatch', 'warning', 'rcpt-test-000003'],
    ]);
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified']);
    expect(r.ok).toBe(true);
  });

  it('a package without lineage rows raises no lineage_missing', async () => {
    const r = await pkg([], [attributed(1, 'cap-unknown', keys)]);
    expect(r.problems).toEqual([]);
  });

  it('a second row for the same capability naming another provenance, subject or issuer is a mismatch; a repeated row is not', async () => {
    const t = token();
    const r = await pkg([
      lineageRowOf(t),
      lineageRowOf(t),
      lineageRowOf(t, { provenance: 'legacy_projection' }),
      lineageRowOf(t, { subject_key: otherKey.publicHex }),
    ]);
    expect(rowCodes(r)).toEqual([[], [], ['lineage_downgraded', 'lineage_mismatch'], ['lineage_mismatch']]);
    expect(r.lineage![2]!.details!.lineage).toMatch(
      /another row for this capability_id \(capability-lineage.ndjson:1\) names another provenance, subject or issuer/,
    );
  });
});

describe("a package query's agentSubject is held to the verified lineage", () => {
  const SUBJECT = 'c43ce1a6e958d9bed1506ebc39626b4dfcd08ee443e4b1100af8cce90566dac6';
  /** The real package with `agentSubject` in its query (and the childReceiptScope it implies), its manifest rehashed. */
  function scoped(agentSubject: string, lineageFrom = 'minimal-evidence'): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-agent-'));
    cpSync(testdataPath(`${REAL}/minimal-evidence`), dir, { recursive: true });
    cpSync(testdataPath(`${REAL}/${lineageFrom}/capability-lineage.ndjson`), path.join(dir, 'capability-lineage.ndjson'));
    const query = { agentSubject, readBoundary: { kind: 'admin_all' } };
    writeFileSync(path.join(dir, 'query.json'), JSON.stringify(query));
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
      query: unknown;
      childReceiptScope: string;
      files: { path: string; sha256: string; bytes: number }[];
    };
    manifest.query = query;
    manifest.childReceiptScope = 'omitted_no_join_path';
    for (const f of manifest.files) {
      const bytes = readFileSync(path.join(dir, f.path));
      f.sha256 = createHash('sha256').update(bytes).digest('hex');
      f.bytes = bytes.length;
    }
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    return dir;
  }

  it("the receipt's capability has a verified row whose subject is the agent: scope passes", async () => {
    const r = await verifyPackageDir(scoped(SUBJECT), [KERNEL]);
    expect(r.packages[0]!.checks.scope).toBe('pass');
    expect(r.problems.filter((p) => p.code === 'query_scope_violation')).toEqual([]);
  });

  it('another agent, or a row that failed its check, puts the receipt outside the query', async () => {
    const other = await verifyPackageDir(scoped('01'.repeat(32)), [KERNEL]);
    expect(other.packages[0]!.checks.scope).toBe('fail');
    expect(other.problems.find((p) => p.code === 'query_scope_violation')!.message).toMatch(/its capability's subject c43ce1a6.* is not the query's agent/);
    const tampered = await verifyPackageDir(scoped(SUBJECT, 'rehashed-changed-signed-token'), [KERNEL]);
    expect(tampered.packages[0]!.checks.scope).toBe('fail');
    expect(tampered.problems.find((p) => p.code === 'query_scope_violation')!.message).toMatch(/has no verified lineage to show its agent/);
  });
});

describe('an evidence-export bundle carries lineage too', () => {
  it('bundle.capabilityLineage rows are judged like a package file, each named in its message', async () => {
    const rehashed = readFileSync(testdataPath(`${REAL}/rehashed-changed-signed-token/capability-lineage.ndjson`), 'utf8').trim();
    const bundle = `{"bundle":{"toolReceipts":[],"capabilityLineage":[${realRowText},${rehashed.replace('cap-01a08c9d-54ba-7cf2-83d1-6fbd326a9b21', 'cap-other')}]}}`;
    const v = new LogVerifier();
    await v.addRecord(bundle, { file: 'export.json', line: 1, role: 'auto', space: 'bundle' });
    const r = await v.finish();
    expect(r.lineage!.map((l) => [l.capability_id, l.verdict])).toEqual([
      ['cap-01a08c9d-54ba-7cf2-83d1-6fbd326a9b21', 'verified'],
      ['cap-other', 'failed'],
    ]);
    expect(r.problems.every((p) => p.file === 'export.json' && p.line === 1 && p.message.startsWith('capability cap-other: '))).toBe(true);
  });
});

describe('scale', () => {
  it('100,000 rows stay fast and bounded: one result each, in file order', async () => {
    const signed = JSON.stringify(lineageRowOf(token()));
    const { signed_capability: _, ...legacy } = lineageRowOf(token());
    const v = new LogVerifier();
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) {
      const text = i % 100 === 0 ? signed : JSON.stringify({ ...legacy, capability_id: `cap-${i}`, provenance: 'legacy_projection' });
      await v.addRecord(text, { file: 'capability-lineage.ndjson', line: i + 1, role: 'lineage', space: 'p' });
    }
    const r = await v.finish();
    const ms = performance.now() - started;
    expect(r.lineage!.length).toBe(100_000);
    expect(r.summary.lineage_failed).toBe(99_000);
    expect(r.lineage![0]!.verdict).toBe('verified');
    expect(r.lineage![99_999]).toMatchObject({ capability_id: 'cap-99999', line: 100_000, problems: ['lineage_downgraded'] });
    // One lineage_downgraded a row, capped per file (problem-cap.ts): each row's verdict and codes are in r.lineage.
    expect(r.problems.length).toBe(101);
    expect(r.problems.at(-1)!.message).toBe(
      '… and 98900 more lineage_downgraded problems in capability-lineage.ndjson (first at line 103, last at line 100000); only the first 100 are listed',
    );
    // About 5 s on two busy shared cores; a quadratic step would take hours.
    expect(ms).toBeLessThan(30_000);
  }, 120_000);
});
