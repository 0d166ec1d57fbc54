// What the DAG's lineage panel says about each capability link (contract part 2 §5.3.1): signed
// and verified, failed (with its codes), or unsigned context. The verdicts are the report's, built
// by the same lib code as the command line's; a row the report does not have is context a loader
// kept (a local store's legacy row) or a package row the verifier could not read. Pure.
import type { CapabilityLineage } from '../sources/lineage';
import type { ReportLineage } from '../verdict/report';

export type LinkStatus =
  /** A signed token: its issuer signature, schema and projection checked. */
  | { kind: 'verified' }
  /** A synthetic federation anchor: its structure checked, but it carries no signed authority. */
  | { kind: 'anchor' }
  | { kind: 'failed'; codes: string[] }
  /** Nothing failed, but this engine could not check the token's signature (ECDSA, ML-DSA). */
  | { kind: 'not-checked' }
  /** A local store's legacy row: context only, never verified. */
  | { kind: 'unsigned' }
  /** A package row the verifier could not read: see the problems. */
  | { kind: 'unreadable' };

/** The report's lineage rows by file and capability id; of two for one key, the failed one. */
export function lineageVerdicts(rows: readonly ReportLineage[] | undefined): Map<string, ReportLineage> {
  const out = new Map<string, ReportLineage>();
  for (const r of rows ?? []) {
    const key = `${r.file}\u0000${r.capability_id}`;
    if (out.get(key)?.verdict !== 'failed') out.set(key, r);
  }
  return out;
}

/** The status of one row the loaders kept (`row.source` is the file, or `<store>#capability_lineage`). */
export function linkStatus(row: CapabilityLineage, verdicts: ReadonlyMap<string, ReportLineage>): LinkStatus {
  const v = verdicts.get(`${row.source}\u0000${row.capabilityId}`);
  if (!v) return row.source.endsWith('#capability_lineage') ? { kind: 'unsigned' } : { kind: 'unreadable' };
  if (v.verdict === 'failed') return { kind: 'failed', codes: [...v.problems] };
  if (v.verdict === 'unverified') return { kind: 'not-checked' };
  return v.provenance === 'synthetic_anchor' ? { kind: 'anchor' } : { kind: 'verified' };
}

/** The words the panel shows. */
export function linkText(s: LinkStatus): string {
  switch (s.kind) {
    case 'verified':
      return 'signed and verified';
    case 'anchor':
      return 'unsigned federation anchor';
    case 'failed':
      return `failed: ${s.codes.join(', ')}`;
    case 'not-checked':
      return 'signature not checked here';
    case 'unsigned':
      return 'unsigned context';
    case 'unreadable':
      return 'could not be read';
  }
}
