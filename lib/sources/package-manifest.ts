// An evidence package's manifest.json and query.json (chio-format.md §11.1,
// chio-format-v2.md §16.8): what the manifest alone decides — query.json equals
// manifest.query, the disclosure notice matches the read boundary, proofCoverage
// and receiptSemantics are well formed — and the `read_boundary` check (contract
// part 2 §5.3). What needs the receipts goes on as PackageClaims. Attacker-
// controlled input: every malformed field is a located problem, never a throw.
import { parseJson } from '../json/parse';
import { canonicalize } from '../json/canonicalize';
import { type JsonObject, type JsonValue, isJsonArray, isJsonNumber, isJsonObject, jsonTypeName } from '../json/value';
import { type CheckResult, fail, pass, skipped } from '../verdict/check';
import type { PackageClaims } from '../verify/package-claims';
import { type PackageQuery, clip, disclosureNoticeError, parsePackageQuery, readBoundaryRuleError } from '../verify/package-query';
import type { ScopeClaim } from '../verify/package-scope';
import { type Problem, makeProblem } from '../verdict/problems';
import { SEMANTIC_COUNTERS, type SemanticCounts } from '../verify/receipt-semantics';

export interface ManifestEntry {
  path: string;
  sha256: string;
  bytes: bigint;
}

export interface Manifest {
  files: ManifestEntry[];
  counts: Map<string, bigint>;
  /** The whole document, for the fields of part 2. */
  tree: JsonObject;
}

export function readManifest(text: string): { ok: true; manifest: Manifest } | { ok: false; error: string } {
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, error: `${parsed.issue.message} at ${parsed.issue.path} (line ${parsed.issue.line})` };
  const m = parsed.value;
  if (!isJsonObject(m)) return { ok: false, error: 'manifest.json is not a JSON object' };
  const files = m.get('files');
  if (!isJsonArray(files)) return { ok: false, error: 'manifest.json has no "files" list' };
  const entries: ManifestEntry[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const path = isJsonObject(f) ? f.get('path') : undefined;
    const sha = isJsonObject(f) ? f.get('sha256') : undefined;
    const size = isJsonObject(f) ? f.get('bytes') : undefined;
    if (typeof path !== 'string' || typeof sha !== 'string' || !isJsonNumber(size) || !size.isIntegerLiteral) {
      return { ok: false, error: `manifest.json files[${i}] needs a string path, a string sha256 and an integer bytes` };
    }
    entries.push({ path, sha256: sha, bytes: BigInt(size.raw) });
  }
  const counts = new Map<string, bigint>();
  const c: JsonValue | undefined = m.get('counts');
  if (isJsonObject(c)) for (const [k, v] of c) if (isJsonNumber(v) && v.isIntegerLiteral) counts.set(k, BigInt(v.raw));
  return { ok: true, manifest: { files: entries, counts, tree: m } };
}

/** query.json as read: its text (at most MAX_QUERY_BYTES), or why it could not be kept. */
export type QueryFile = { text: string } | { error: string };
export const MAX_QUERY_BYTES = 1 << 20;

/** What manifest.json and query.json say, beyond the files. */
export interface ManifestFindings {
  /** Each a `manifest_mismatch` message naming the field and both values. */
  mismatches: string[];
  claims: Omit<PackageClaims, 'toolRecords'>;
}

/**
 * The manifest-only rules of part 2 §5.3 and what goes on to the receipts. `manifest` is null
 * when there is none (or it cannot be read): then only query.json states the query.
 */
export function manifestFindings(manifest: Manifest | null, queryFile: QueryFile | null): ManifestFindings {
  const mismatches: string[] = [];
  const claims: ManifestFindings['claims'] = {};
  const tree = manifest?.tree;
  let queryJson: JsonValue | undefined;
  let queryError: string | undefined;
  if (queryFile && 'error' in queryFile) queryError = queryFile.error;
  else if (queryFile) {
    const parsed = parseJson(queryFile.text);
    if (parsed.ok) queryJson = parsed.value;
    else queryError = `query.json cannot be read: ${parsed.issue.message} at ${parsed.issue.path} (line ${parsed.issue.line})`;
  }
  if (queryError !== undefined) mismatches.push(queryError);
  const manifestQuery = tree?.get('query');
  if (tree && queryJson !== undefined) {
    const a = canonicalize(queryJson);
    const b = manifestQuery === undefined ? undefined : canonicalize(manifestQuery);
    if (a !== b) mismatches.push(`query.json is ${clip(a)}, but manifest.json query is ${b === undefined ? 'absent' : clip(b)}`);
  }
  if (tree) {
    const mq = manifestQuery === undefined ? null : parsePackageQuery(manifestQuery);
    const notice = disclosureNoticeError(mq?.ok ? mq.query : null, tree.get('disclosureNotice'));
    if (notice) mismatches.push(notice);
    readCounters(tree, claims, mismatches);
  }
  // The receipts are held to query.json (as upstream), else to the manifest's query.
  const [source, stated] = queryJson !== undefined ? ['query.json', queryJson] : ['manifest.json', manifestQuery];
  if (stated === undefined && queryError !== undefined) claims.scope = { file: 'query.json', query: { error: queryError } };
  else if (stated !== undefined) {
    const parsed = parsePackageQuery(stated);
    const scope = tree?.get('childReceiptScope');
    claims.scope = {
      file: source,
      query: parsed.ok ? parsed.query : { error: parsed.error },
      ...(scope !== undefined ? { childReceiptScope: typeof scope === 'string' ? scope : `(${jsonTypeName(scope)})` } : {}),
    } satisfies ScopeClaim;
  }
  return { mismatches, claims };
}

/** counts, proofCoverage and receiptSemantics: the numbers the receipts are checked against. */
function readCounters(tree: JsonObject, claims: ManifestFindings['claims'], mismatches: string[]): void {
  const counts = tree.get('counts');
  if (isJsonObject(counts)) {
    const u = u64(counts.get('uncheckpointedReceipts'));
    const t = u64(counts.get('toolReceipts'));
    if (u !== null) claims.unprovenToolReceipts = u;
    if (t !== null) claims.toolReceipts = t;
  }
  const pc = tree.get('proofCoverage');
  if (pc !== undefined) {
    const c = isJsonObject(pc) ? u64(pc.get('checkpointedReceipts')) : null;
    const u = isJsonObject(pc) ? u64(pc.get('uncheckpointedReceipts')) : null;
    if (c === null || u === null)
      mismatches.push(`manifest.json proofCoverage needs unsigned integers checkpointedReceipts and uncheckpointedReceipts, found ${clip(canonicalize(pc))}`);
    else claims.proofCoverage = { checkpointedReceipts: c, uncheckpointedReceipts: u };
  }
  // Absent: the package predates the field (upstream reads all zeros and refuses one with tool receipts).
  const rs = tree.get('receiptSemantics');
  if (rs !== undefined) {
    const counters = {} as SemanticCounts;
    const bad = SEMANTIC_COUNTERS.filter((name) => {
      const n = isJsonObject(rs) ? u64(rs.get(name)) : null;
      if (n !== null) counters[name] = n;
      return n === null;
    });
    if (bad.length)
      mismatches.push(
        `manifest.json receiptSemantics needs the eight unsigned integer counters; ${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} missing or not an unsigned integer`,
      );
    else claims.receiptSemantics = counters;
  }
}

function u64(v: JsonValue | undefined): bigint | null {
  const n = isJsonNumber(v) ? v.toBigInt() : null;
  return n !== null && n >= 0n && n < 2n ** 64n ? n : null;
}

/**
 * `read_boundary` (part 2 §5.3, §16.8.2): the query's `readBoundary` is present and well formed.
 * Absent, it is `skipped` with the warning `read_boundary_missing` (upstream refuses such a
 * package; this project's older corpus packages have none, and must stay `ok`). Present but
 * malformed, it fails, with the same code naming the broken rule.
 */
export function checkReadBoundary(scope: ScopeClaim | undefined, hasNotice: boolean): { result: CheckResult; problems: Problem[] } {
  const where = { file: scope?.file ?? 'manifest.json' };
  if (!scope) {
    const msg = 'the package states no query (no query.json, no query in manifest.json), so it has no readBoundary; upstream refuses such a package';
    return { result: skipped('no_query'), problems: [makeProblem('read_boundary_missing', msg, where)] };
  }
  if ('error' in scope.query) return { result: skipped('query_unreadable'), problems: [] };
  const q: PackageQuery = scope.query;
  if (q.readBoundary === undefined && q.readBoundaryError === undefined) {
    const msg = `${scope.file === 'query.json' ? 'query.json' : `${scope.file} query`} has no readBoundary; upstream refuses such a package ("evidence export requires an explicit receipt read boundary"), packages written before the field have none`;
    return { result: skipped('read_boundary_absent'), problems: [makeProblem('read_boundary_missing', msg, where)] };
  }
  const broken = readBoundaryRuleError(q);
  if (broken) {
    const result = fail('read_boundary_malformed', scope.file, broken);
    return { result, problems: [makeProblem('read_boundary_missing', result.detail!, where)] };
  }
  const b = q.readBoundary!;
  return { result: pass('read_boundary_stated', b.kind === 'admin_all' ? null : clip(JSON.stringify(b.tenant)), hasNotice), problems: [] };
}
