// The package checks of contract part 2 §5.3 on the real 2026-09 packages and
// on forged variants of them (a file changed, the manifest rehashed the way an
// attacker would): `manifest` (counts, proofCoverage, receiptSemantics,
// query.json, disclosureNotice), `read_boundary` and `scope`.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeDir } from '../../bin/cli/node-source';
import { sha256Hex } from '../crypto/sha256';
import { type Plain, genAReceipt, keyFromSeed, ndjson, writePackage } from '../../test/support/forge';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from '../verify/log-verifier';
import { TENANT_SCOPED_DISCLOSURE_NOTICE } from '../verify/package-query';
import { MAX_SCOPE_PROBLEMS } from '../verify/package-scope';
import type { VerificationReport } from '../verdict/report';
import { loadPackage } from './package';

const REAL = 'chio/realworld-2026-09';
const REAL_KEY = '0b56c90209563b17ffe35943f7d35759dca4d86aac45b65c3741dfa5ba714a93';
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** `keys`: pinned; by default the real package's key and the forge's (a receipt is verified only under a pinned key). */
async function verifyDir(dir: string, keys: string[] = [REAL_KEY, keyFromSeed(7).publicHex]): Promise<VerificationReport> {
  const trust = TrustStore.create(keys.map((key) => ({ key })));
  if (!trust.ok) throw new Error(trust.error);
  const v = new LogVerifier({ trust: trust.store });
  await loadPackage(nodeDir(dir, 'pkg'), v, 'package:0');
  return v.finish();
}

/**
 * A copy of a real package with `files` replaced and the manifest edited, every listed file's
 * hash and size recomputed afterwards (so only the change under test can fail).
 */
function forgeReal(name: string, change: { files?: Record<string, string>; manifest?: (m: Plain) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ra-v2-'));
  made.push(dir);
  cpSync(testdataPath(`${REAL}/${name}`), dir, { recursive: true });
  for (const [f, text] of Object.entries(change.files ?? {})) writeFileSync(path.join(dir, f), text);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Plain & { files: { path: string; sha256: string; bytes: number }[] };
  change.manifest?.(manifest);
  for (const f of manifest.files) {
    const bytes = readFileSync(path.join(dir, f.path));
    f.sha256 = sha256Hex(new Uint8Array(bytes));
    f.bytes = bytes.length;
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

const realReceiptLine = () => readFileSync(testdataPath(`${REAL}/minimal-evidence/receipts.ndjson`), 'utf8');
const codes = (r: VerificationReport) => r.problems.map((p) => p.code);
const messages = (r: VerificationReport, code: string) => r.problems.filter((p) => p.code === code).map((p) => p.message);

describe('the real 2026-09 packages (verification-v2.md §10)', () => {
  it('minimal-evidence: manifest, read_boundary (admin_all, no notice) and scope pass, in contract order', async () => {
    const r = await verifyDir(testdataPath(`${REAL}/minimal-evidence`), [REAL_KEY]);
    const pkg = r.packages[0]!;
    expect(Object.entries(pkg.checks)).toEqual([
      ['manifest', 'pass'],
      ['read_boundary', 'pass'],
      ['scope', 'pass'],
    ]);
    expect(pkg.details!.manifest).toBe(
      '12 listed files match; counts match; query.json = manifest query; proofCoverage recomputes; receiptSemantics recomputes',
    );
    expect(pkg.details!.read_boundary).toBe('admin_all, no disclosure notice');
    expect(pkg.details!.scope).toMatch(/^1 tool and 0 child receipts within the query \(no filters\); childReceiptScope full_query_window/);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('rehashed-changed-signed-token: the manifest still passes (the change is in a lineage row, rehashed)', async () => {
    const r = await verifyDir(testdataPath(`${REAL}/rehashed-changed-signed-token`), [REAL_KEY]);
    expect(r.packages[0]!.checks).toEqual({ manifest: 'pass', read_boundary: 'pass', scope: 'pass' });
    expect(codes(r)).not.toContain('manifest_mismatch');
  });
});

describe('manifest additions (part 2 §5.3): each forged field is a manifest_mismatch naming it and both values', () => {
  it('receiptSemantics.authorized says 1 while the receipt signature fails', async () => {
    const line = realReceiptLine().replace(/"signature":"4ca4/, '"signature":"5ca4');
    const r = await verifyDir(forgeReal('minimal-evidence', { files: { 'receipts.ndjson': line } }));
    expect(r.receipts[0]!.checks).toMatchObject({ signature: 'fail', receipt_id: 'pass', parameter_hash: 'pass' });
    expect(r.packages[0]!.checks.manifest).toBe('fail');
    expect(messages(r, 'manifest_mismatch')).toEqual([
      'manifest.json receiptSemantics.authorized says 1, the tool receipts give 0 (it counts allowed receipts whose id, signature and parameter_hash verify)',
    ]);
    expect(r.ok).toBe(false);
  });

  it('receiptSemantics counting a trace observation that is not there', async () => {
    const dir = forgeReal('minimal-evidence', { manifest: (m) => ((m.receiptSemantics as Plain).traceObservations = 1) });
    const r = await verifyDir(dir);
    expect(messages(r, 'manifest_mismatch')).toEqual(['manifest.json receiptSemantics.traceObservations says 1, the tool receipts give 0']);
  });

  it('receiptSemantics without one of its counters', async () => {
    const r = await verifyDir(forgeReal('minimal-evidence', { manifest: (m) => delete (m.receiptSemantics as Plain).cannotSee }));
    expect(messages(r, 'manifest_mismatch')).toEqual([
      'manifest.json receiptSemantics needs the eight unsigned integer counters; cannotSee is missing or not an unsigned integer',
    ]);
  });

  it('proofCoverage off by one', async () => {
    const r = await verifyDir(forgeReal('minimal-evidence', { manifest: (m) => ((m.proofCoverage as Plain).checkpointedReceipts = 1) }));
    expect(r.packages[0]!.checks.manifest).toBe('fail');
    expect(messages(r, 'manifest_mismatch')).toEqual([
      'manifest.json proofCoverage.checkpointedReceipts says 1, but toolReceipts 1 − uncheckpointedReceipts 1 = 0',
    ]);
  });

  it('proofCoverage.uncheckpointedReceipts that disagrees with the counts', async () => {
    const r = await verifyDir(forgeReal('minimal-evidence', { manifest: (m) => ((m.proofCoverage as Plain).uncheckpointedReceipts = 0) }));
    expect(messages(r, 'manifest_mismatch')).toEqual(['manifest.json proofCoverage.uncheckpointedReceipts says 0, but counts.uncheckpointedReceipts give 1']);
  });

  it('query.json that is not manifest.query (compared as canonical JSON)', async () => {
    const query = '{"readBoundary":{"kind":"admin_all"},"capabilityId":"cap-other"}\n';
    const r = await verifyDir(forgeReal('minimal-evidence', { files: { 'query.json': query } }));
    expect(r.packages[0]!.checks.manifest).toBe('fail');
    expect(r.problems.find((p) => p.code === 'manifest_mismatch')).toMatchObject({
      file: 'query.json',
      message:
        'query.json is {"capabilityId":"cap-other","readBoundary":{"kind":"admin_all"}}, but manifest.json query is {"readBoundary":{"kind":"admin_all"}}',
    });
    // The receipts are held to query.json, as upstream holds them to the bundle's query.
    expect(r.packages[0]!.checks.scope).toBe('fail');
  });

  it('query.json written with other spacing and key order is the same query', async () => {
    const r = await verifyDir(forgeReal('minimal-evidence', { files: { 'query.json': '{ "readBoundary" : { "kind":"admin_all" } }' } }));
    expect(r.packages[0]!.checks.manifest).toBe('pass');
  });

  it('a disclosureNotice on an admin_all package', async () => {
    const r = await verifyDir(forgeReal('minimal-evidence', { manifest: (m) => (m.disclosureNotice = { ...TENANT_SCOPED_DISCLOSURE_NOTICE }) }));
    expect(r.packages[0]!.checks.manifest).toBe('fail');
    expect(messages(r, 'manifest_mismatch')).toEqual([
      'manifest.json carries a disclosureNotice, but its query is not tenant_scoped (only a tenant-scoped package carries one)',
    ]);
    expect(r.packages[0]!.details!.read_boundary).toBe('admin_all, with a disclosure notice');
  });
});

const key = keyFromSeed(7);
const wrapped = (rs: Plain[]) => ndjson(rs.map((receipt, i) => ({ seq: i + 1, receipt })));

/** A Gen A package of `receipts` whose query.json and manifest say `manifest` (query included). */
function forgePackage(receipts: Plain[], manifest: Plain): string {
  const query = (manifest.query ?? {}) as Plain;
  const dir = writePackage({ 'query.json': JSON.stringify(query, null, 2), 'receipts.ndjson': wrapped(receipts) }, { manifest });
  made.push(dir);
  return dir;
}

const TENANT_A = { readBoundary: { kind: 'tenant_scoped', tenant: 'tenant-a' } };
const tenantReceipt = (seq: number, tenant: string) => genAReceipt({ seq, key, extra: { tenant_id: tenant } });

describe('read_boundary (part 2 §5.3, §16.8.2)', () => {
  it('absent: skipped with the warning read_boundary_missing, and the package stays ok', async () => {
    const r = await verifyDir(forgePackage([genAReceipt({ seq: 1, key })], { query: {}, childReceiptScope: 'full_query_window' }));
    expect(r.packages[0]!.checks).toEqual({ manifest: 'pass', read_boundary: 'skipped', scope: 'pass' });
    expect(r.packages[0]!.details!.read_boundary).toBe('query.readBoundary is absent');
    expect(r.problems).toMatchObject([{ code: 'read_boundary_missing', severity: 'warning', file: 'query.json' }]);
    expect(r.ok).toBe(true);
  });

  it('tenant_scoped with its disclosure notice: pass', async () => {
    const dir = forgePackage([tenantReceipt(1, 'tenant-a')], {
      query: TENANT_A,
      childReceiptScope: 'omitted_no_join_path',
      disclosureNotice: TENANT_SCOPED_DISCLOSURE_NOTICE,
    });
    const r = await verifyDir(dir);
    expect(r.packages[0]!.checks).toEqual({ manifest: 'pass', read_boundary: 'pass', scope: 'pass' });
    expect(r.packages[0]!.details!.read_boundary).toBe('tenant_scoped, tenant "tenant-a", with a disclosure notice');
    expect(r.problems).toEqual([]);
  });

  it('tenant_scoped without the notice, or with a notice one word off: manifest_mismatch', async () => {
    const without = await verifyDir(forgePackage([tenantReceipt(1, 'tenant-a')], { query: TENANT_A, childReceiptScope: 'omitted_no_join_path' }));
    expect(messages(without, 'manifest_mismatch')).toEqual(['manifest.json has no disclosureNotice, which a tenant_scoped package must carry']);
    const notice = { ...TENANT_SCOPED_DISCLOSURE_NOTICE, disclosedPublicationFields: ['entry_start_seq', 'entry_end_seq'] };
    const off = await verifyDir(
      forgePackage([tenantReceipt(1, 'tenant-a')], { query: TENANT_A, childReceiptScope: 'omitted_no_join_path', disclosureNotice: notice }),
    );
    expect(messages(off, 'manifest_mismatch')).toEqual([
      'manifest.json disclosureNotice differs from the canonical tenant-scoped notice (disclosedPublicationFields is ["entry_start_seq","entry_end_seq"], expected ["entry_start_seq","entry_end_seq","log_tree_size"])',
    ]);
  });

  it('malformed: an unknown kind, an empty tenant, a query.tenant that differs: fail', async () => {
    const cases: [Plain, string][] = [
      [{ readBoundary: { kind: 'everyone' } }, 'readBoundary kind "everyone" is not admin_all or tenant_scoped'],
      [{ readBoundary: { kind: 'tenant_scoped', tenant: ' ' } }, 'readBoundary tenant_scoped has an empty tenant'],
      [{ ...TENANT_A, tenant: 'tenant-b' }, 'query.tenant "tenant-b" differs from readBoundary tenant "tenant-a"'],
      [{ readBoundary: { kind: 'admin_all' }, tenant: '' }, 'readBoundary admin_all with an empty query.tenant filter'],
    ];
    for (const [query, why] of cases) {
      const notice = (query.readBoundary as Plain).kind === 'tenant_scoped' ? { disclosureNotice: TENANT_SCOPED_DISCLOSURE_NOTICE } : {};
      const r = await verifyDir(forgePackage([tenantReceipt(1, 'tenant-a')], { query, ...notice }));
      expect(r.packages[0]!.checks.read_boundary, why).toBe('fail');
      expect(r.problems.find((p) => p.code === 'read_boundary_missing')?.message, why).toBe(`query.json query has no well-formed readBoundary: ${why}`);
      expect(r.ok, why).toBe(false);
    }
  });
});

describe('scope (part 2 §5.3): each receipt outside the query is a query_scope_violation at its file and line', () => {
  it('a tenant_scoped query with a receipt of another tenant, and one with no tenant', async () => {
    const rs = [tenantReceipt(1, 'tenant-a'), tenantReceipt(2, 'tenant-b'), genAReceipt({ seq: 3, key })];
    const r = await verifyDir(
      forgePackage(rs, { query: TENANT_A, childReceiptScope: 'omitted_no_join_path', disclosureNotice: TENANT_SCOPED_DISCLOSURE_NOTICE }),
    );
    expect(r.packages[0]!.checks.scope).toBe('fail');
    expect(r.packages[0]!.details!.scope).toBe('2 of 3 receipts lie outside the query (tenant: 2)');
    expect(r.problems.filter((p) => p.code === 'query_scope_violation')).toEqual([
      expect.objectContaining({
        receipt_id: 'rcpt-test-000002',
        file: 'receipts.ndjson',
        line: 2,
        message: "rcpt-test-000002 lies outside the package query: tenant_id tenant-b is not the query's tenant tenant-a",
      }),
      expect.objectContaining({
        receipt_id: 'rcpt-test-000003',
        line: 3,
        message: 'rcpt-test-000003 lies outside the package query: no tenant_id, but the query is scoped to tenant tenant-a',
      }),
    ]);
    // The receipts themselves are still verified: scope is the package's claim, not theirs.
    expect(r.receipts.map((x) => x.verdict)).toEqual(['verified', 'verified', 'verified']);
    expect(r.ok).toBe(false);
  });

  it('an admin_all query with a tenant filter holds receipts to it too', async () => {
    const r = await verifyDir(
      forgePackage([tenantReceipt(1, 'acme'), tenantReceipt(2, 'other')], {
        query: { readBoundary: { kind: 'admin_all' }, tenant: 'acme' },
        childReceiptScope: 'omitted_no_join_path',
      }),
    );
    expect(r.problems.filter((p) => p.code === 'query_scope_violation').map((p) => p.line)).toEqual([2]);
  });

  it('a receipt outside the time window, and one of another capability', async () => {
    // Timestamps are 1767225600 + 10·seq.
    const rs = [1, 2, 3, 4].map((seq) => genAReceipt({ seq, key, ...(seq === 3 ? { extra: { capability_id: 'cap-other' } } : {}) }));
    const query = { readBoundary: { kind: 'admin_all' }, capabilityId: 'cap-test-1', since: 1767225620, until: 1767225640 };
    const r = await verifyDir(forgePackage(rs, { query, childReceiptScope: 'time_window_context_only' }));
    expect(r.problems.filter((p) => p.code === 'query_scope_violation').map((p) => [p.line, p.message])).toEqual([
      [1, 'rcpt-test-000001 lies outside the package query: timestamp 1767225610 is before since 1767225620'],
      [3, "rcpt-test-000003 lies outside the package query: capability_id cap-other is not the query's cap-test-1"],
    ]);
    expect(r.packages[0]!.details!.scope).toBe('2 of 4 receipts lie outside the query (time: 1, capability: 1)');
  });

  it('a wrong childReceiptScope (the query has a capability filter and a window)', async () => {
    const query = { readBoundary: { kind: 'admin_all' }, capabilityId: 'cap-test-1', until: 1767999999 };
    const r = await verifyDir(forgePackage([genAReceipt({ seq: 1, key })], { query, childReceiptScope: 'omitted_no_join_path' }));
    expect(r.packages[0]!.checks.scope).toBe('fail');
    expect(r.problems).toEqual([
      expect.objectContaining({
        code: 'query_scope_violation',
        file: 'query.json',
        message: 'childReceiptScope says "omitted_no_join_path", but the query implies time_window_context_only',
      }),
    ]);
  });

  it('an agentSubject query: a receipt whose capability has no verified lineage row lies outside it (upstream needs the row)', async () => {
    // The verified rows themselves: lib/verify/lineage.test.ts, on the real signed-lineage package.
    const query = { readBoundary: { kind: 'admin_all' }, agentSubject: 'ab'.repeat(32) };
    const r = await verifyDir(forgePackage([genAReceipt({ seq: 1, key })], { query, childReceiptScope: 'omitted_no_join_path' }));
    expect(r.packages[0]!.checks.scope).toBe('fail');
    expect(r.problems).toEqual([
      expect.objectContaining({ code: 'query_scope_violation', message: expect.stringMatching(/has no verified lineage to show its agent/) }),
    ]);
    expect(r.ok).toBe(false);
  });

  it(`a million-receipt package cannot make a million problems: the first ${MAX_SCOPE_PROBLEMS}, then one counted summary`, async () => {
    const rs = Array.from({ length: MAX_SCOPE_PROBLEMS + 30 }, (_, i) => tenantReceipt(i + 1, 'tenant-b'));
    const r = await verifyDir(
      forgePackage(rs, { query: TENANT_A, childReceiptScope: 'omitted_no_join_path', disclosureNotice: TENANT_SCOPED_DISCLOSURE_NOTICE }),
    );
    const scope = r.problems.filter((p) => p.code === 'query_scope_violation');
    expect(scope).toHaveLength(MAX_SCOPE_PROBLEMS + 1);
    expect(scope.at(-1)).toMatchObject({
      line: MAX_SCOPE_PROBLEMS + 1,
      message: `… and 30 more receipts lie outside the package query (from receipts.ndjson:${MAX_SCOPE_PROBLEMS + 1} to line ${MAX_SCOPE_PROBLEMS + 30})`,
    });
    expect(r.packages[0]!.details!.scope).toBe(
      `${MAX_SCOPE_PROBLEMS + 30} of ${MAX_SCOPE_PROBLEMS + 30} receipts lie outside the query (tenant: ${MAX_SCOPE_PROBLEMS + 30})`,
    );
  });
});

describe('receiptSemantics that cannot be recomputed exactly is undecided, never passed', () => {
  it('Gen A receipts (upstream counting UNCONFIRMED): a claim inside the possible range leaves manifest skipped', async () => {
    const semantics = {
      mediatedDecisions: 1,
      traceObservations: 0,
      advisoryEvaluations: 0,
      prevent: 1,
      detectOnly: 0,
      advisoryOnly: 0,
      cannotSee: 0,
      authorized: 0,
    };
    const r = await verifyDir(forgePackage([genAReceipt({ seq: 1, key })], { query: {}, receiptSemantics: semantics }));
    expect(r.packages[0]!.checks.manifest).toBe('skipped');
    expect(r.packages[0]!.details!.manifest).toMatch(/^receiptSemantics cannot be recomputed exactly: 1 Gen A tool receipt/);
    // A Gen A receipt is never authorized: its id does not recompute as a Gen B id.
    const claimed = await verifyDir(forgePackage([genAReceipt({ seq: 1, key })], { query: {}, receiptSemantics: { ...semantics, authorized: 1 } }));
    expect(claimed.packages[0]!.checks.manifest).toBe('fail');
  });
});
