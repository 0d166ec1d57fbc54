// The whole-log half of the `lineage` check (contract part 2 §5.3.1): rows of
// one capability within one source that disagree on what links receipts to it, receipts linked to their source's rows
// (`lineage_missing`, `attribution_mismatch`: warnings, beyond upstream), and a
// problem per failing rule of each row. Linear in receipts plus rows. Lineage
// never changes a receipt's checks: it fails the log through its own codes.
import type { LineageEntry, ReceiptEntry } from './entries';
import { LINEAGE_RULE_ORDER, addFailure } from './lineage';
import { type Problem, makeProblem } from '../verdict/problems';

const short = (s: string) => (s.length > 20 ? `${s.slice(0, 8)}…${s.slice(-4)}` : s);

/**
 * `lineage` and `receipts` in log order. `packageSpaces`: the sources that are evidence
 * packages (a capability with no row there is `lineage_missing`; a store or loose files need
 * not carry every row). A second row of a capability that names another provenance, subject or
 * issuer fails (receipts link to the first). Adds those failures to the entries; returns every problem.
 */
export function linkLineage(lineage: readonly LineageEntry[], receipts: readonly ReceiptEntry[], packageSpaces: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const bySpace = new Map<string, Map<string, LineageEntry>>();
  for (const e of lineage) {
    let rows = bySpace.get(e.space);
    if (!rows) bySpace.set(e.space, (rows = new Map()));
    const first = rows.get(e.capabilityId);
    if (!first) rows.set(e.capabilityId, e);
    else if (first.provenance !== e.provenance || first.subjectKey !== e.subjectKey || first.issuerKey !== e.issuerKey) {
      addFailure(
        e.failures,
        'lineage_mismatch',
        `another row for this capability_id (${first.file}:${first.line}) names another provenance, subject or issuer`,
      );
    }
  }
  for (const r of receipts) {
    if (r.type !== 'tool' || r.capabilityId === undefined) continue;
    const rows = bySpace.get(r.space);
    if (!rows) continue;
    const row = rows.get(r.capabilityId);
    const where = { receipt_id: r.id, file: r.file, line: r.line };
    if (!row) {
      if (packageSpaces.has(r.space))
        problems.push(makeProblem('lineage_missing', `${r.id}: its capability ${r.capabilityId} has no row in the package's capability lineage`, where));
      continue;
    }
    const differ: string[] = [];
    if (r.attributionSubjectKey !== undefined && r.attributionSubjectKey !== row.subjectKey)
      differ.push(`subject_key ${short(r.attributionSubjectKey)} (the row says ${short(row.subjectKey)})`);
    if (r.attributionIssuerKey !== undefined && r.attributionIssuerKey !== row.issuerKey)
      differ.push(`issuer_key ${short(r.attributionIssuerKey)} (the row says ${short(row.issuerKey)})`);
    if (differ.length > 0) {
      problems.push(
        makeProblem(
          'attribution_mismatch',
          `${r.id}: metadata.attribution has ${differ.join(' and ')}, unlike the lineage row of ${r.capabilityId} at ${row.file}:${row.line}`,
          where,
        ),
      );
    }
  }
  for (const e of lineage) {
    for (const code of LINEAGE_RULE_ORDER) {
      const f = e.failures.find((x) => x.code === code);
      if (f) problems.push(makeProblem(code, `capability ${e.capabilityId}: ${f.detail}`, { file: e.file, line: e.line }));
    }
  }
  return problems;
}

/**
 * Per source, each capability's agent (`subject_key`) as its verified signed_token row states it:
 * what a package query's `agentSubject` is held to (package-scope.ts SubjectOf). A failed row, an
 * unsigned federation anchor or a row whose signature was not checked shows no agent.
 */
export function verifiedSubjects(lineage: readonly LineageEntry[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const e of lineage) {
    if (e.provenance !== 'signed_token' || e.failures.length > 0 || e.skipped !== undefined) continue;
    let rows = out.get(e.space);
    if (!rows) out.set(e.space, (rows = new Map()));
    if (!rows.has(e.capabilityId)) rows.set(e.capabilityId, e.subjectKey);
  }
  return out;
}
