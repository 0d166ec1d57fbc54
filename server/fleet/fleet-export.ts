// Server side only: one kernel's evidence for an export query, read from the fleet's ClickHouse
// cluster (issue 9): its receipts' stored bytes, each checked before it is spliced, with their
// proofs, every checkpoint of the kernel, the lineage and consistency records, and the bundle of
// chio-format.md §11.2 built from them. Filters are built by ./sql.ts, never from request text.
import { type EvidenceQuery, exportChildScope, exportedQuery } from '../../lib/query/evidence-query';
import type { ChildReceiptScope } from '../../lib/verify/package-query';
import type { ClickHouse } from './clickhouse';
import { type RowProblem, checkStoredText, rowProblemJson } from '../stored-row';
import { col, list, sql, str, table, u64, type Sql } from './sql';

/** The kernels holding receipts of an export query (the export covers one). */
export async function kernelsOf(ch: ClickHouse, q: EvidenceQuery): Promise<string[]> {
  const rows = await ch.rows<{ kernel_key: string }>(sql`SELECT DISTINCT kernel_key FROM receipts WHERE ${exportFilter(q, 'tool')} ORDER BY kernel_key`);
  return rows.map((r) => r.kernel_key);
}

function exportFilter(q: EvidenceQuery, kind: 'tool' | 'child'): Sql {
  const c: Sql[] = [sql`kind = ${str(kind)}`];
  if (q.kernelKey !== undefined) c.push(sql`kernel_key = ${str(q.kernelKey)}`);
  if (kind === 'tool' && q.capabilityId !== undefined) c.push(sql`capability_id = ${str(q.capabilityId)}`);
  if (kind === 'tool' && q.agentSubject !== undefined) c.push(sql`subject_key = ${str(q.agentSubject)}`);
  if (q.since !== undefined) c.push(sql`timestamp >= ${u64(BigInt(q.since))}`);
  if (q.until !== undefined) c.push(sql`timestamp <= ${u64(BigInt(q.until))}`);
  return list(c, ' AND ');
}

export interface FleetExport {
  query: EvidenceQuery & { kernelKey: string };
  childScope: ChildReceiptScope;
  tools: { seq: string; receipt_id: string; raw_json: string }[];
  children: { seq: string; raw_json: string }[];
  proofs: { seq: string; raw: string }[];
  checkpoints: { raw: string }[];
  /** The lineage rows of the capabilities its tool receipts use, and the kernel's consistency records. */
  lineage: { raw: string }[];
  consistency: { raw: string }[];
  /** Tool receipts of the query with no inclusion proof in the index. */
  unproven: { seq: number; receiptId: string }[];
  /** Receipts whose stored body could not be spliced, by fleet_seq. */
  problems: RowProblem[];
}

/**
 * The evidence of an export query for one kernel (`q.kernelKey` set), read from the cluster.
 * Child receipts come as a store's do: with the query's window, unless a capability or agent
 * filter without a window leaves them no join path (chio-format-v2.md §16.8.2).
 */
export async function fleetExport(ch: ClickHouse, q: EvidenceQuery & { kernelKey: string }): Promise<FleetExport> {
  const childScope = exportChildScope(q);
  const [toolKeys, childKeys] = await Promise.all([
    ch.rows<{ seq: string; receipt_id: string; checkpoint_seq: string; fleet_seq: string; capability_id: string }>(
      sql`SELECT seq, receipt_id, checkpoint_seq, fleet_seq, capability_id FROM receipts WHERE ${exportFilter(q, 'tool')} ORDER BY seq`,
    ),
    childScope === 'omitted_no_join_path'
      ? []
      : ch.rows<{ seq: string; fleet_seq: string }>(sql`SELECT seq, fleet_seq FROM receipts WHERE ${exportFilter(q, 'child')} ORDER BY seq`),
  ]);
  // The kernel's bodies over the positions needed, kept in JS (a list of them could pass the
  // server's query size limit).
  const positions = [...toolKeys, ...childKeys].map((r) => BigInt(r.fleet_seq));
  const bodies = positions.length
    ? await ch.rows<{ fleet_seq: string; raw_json: string }>(
        sql`SELECT fleet_seq, raw_json FROM receipt_json WHERE kernel_key = ${str(q.kernelKey)} AND fleet_seq BETWEEN ${u64(positions.reduce((a, b) => (a < b ? a : b)))} AND ${u64(positions.reduce((a, b) => (a > b ? a : b)))}`,
      )
    : [];
  const body = new Map(bodies.map((b) => [b.fleet_seq, b.raw_json]));
  // Each body is checked before it is spliced (../stored-row.ts); one that fails, or is missing, is a problem.
  const problems: RowProblem[] = [];
  const withBody = <T extends { fleet_seq: string }>(rows: T[]) =>
    rows.flatMap((r) => {
      const raw = body.get(r.fleet_seq);
      const checked = raw === undefined ? null : checkStoredText('receipt_json', Number(r.fleet_seq), 'raw_json', raw);
      if (checked?.ok) return [{ ...r, raw_json: raw! }];
      problems.push(
        checked?.problem ?? {
          table: 'receipt_json',
          seq: Number(r.fleet_seq),
          code: 'invalid_column',
          message: `receipt_json seq ${r.fleet_seq}: no raw_json for this receipt`,
        },
      );
      return [];
    });
  const tools = withBody(toolKeys);
  const children = withBody(childKeys);
  // Read by the kernel's key range and kept in JS: an IN list of a whole kernel's seqs would pass
  // the server's query size limit.
  const covered = new Set(tools.filter((r) => r.checkpoint_seq !== '0').map((r) => r.seq));
  const seqs = [...covered].map(BigInt);
  const kernel = sql`kernel_key = ${str(q.kernelKey)}`;
  const proofs = seqs.length
    ? (
        await ch.rows<{ seq: string; checkpoint_seq: string; raw: string }>(
          sql`SELECT seq, checkpoint_seq, raw FROM proofs WHERE ${kernel} AND seq BETWEEN ${u64(seqs.reduce((a, b) => (a < b ? a : b)))} AND ${u64(seqs.reduce((a, b) => (a > b ? a : b)))} ORDER BY seq`,
        )
      ).filter((p) => covered.has(p.seq))
    : [];
  // Every checkpoint of the kernel, as a store's export carries them: with the whole prefix the
  // chain of each v2 checkpoint recomputes, and continuity is checked end to end.
  const [checkpoints, records] = await Promise.all([
    ch.rows<{ checkpoint_seq: string; raw: string }>(sql`SELECT checkpoint_seq, raw FROM checkpoints WHERE ${kernel} ORDER BY checkpoint_seq`),
    ch.rows<{ record_kind: string; record_key: string; raw: string }>(
      sql`SELECT ${col('record_kind')} AS record_kind, ${col('record_key')} AS record_key, raw FROM ${table('records')} WHERE ${kernel} ORDER BY record_kind, record_key`,
    ),
  ]);
  const caps = new Set(toolKeys.map((r) => r.capability_id));
  const lineage = records.filter((r) => r.record_kind === 'lineage' && caps.has(r.record_key));
  const consistency = records
    .filter((r) => r.record_kind === 'consistency')
    .sort((a, b) => Number(a.record_key.split(':')[1]) - Number(b.record_key.split(':')[1]));
  const proven = new Set(proofs.map((p) => p.seq));
  const unproven = tools.filter((r) => !proven.has(r.seq)).map((r) => ({ seq: Number(r.seq), receiptId: r.receipt_id }));
  return { query: q, childScope, tools, children, proofs, checkpoints, lineage, consistency, unproven, problems };
}

/** The bundle of chio-format.md §11.2 with the stored bytes (held whole already: the cluster's rows are read whole). */
export function fleetBundleText(e: FleetExport): string {
  const items = (rows: { seq: string; raw_json: string }[]) => rows.map((r) => `{"seq":${r.seq},"receipt":${r.raw_json}}`).join(',');
  return (
    `{"bundle":{"query":${JSON.stringify(exportedQuery(e.query))},"toolReceipts":[${items(e.tools)}],"childReceipts":[${items(e.children)}]` +
    `,"childReceiptScope":${JSON.stringify(e.childScope)}` +
    `,"inclusionProofs":[${e.proofs.map((p) => p.raw).join(',')}],"checkpoints":[${e.checkpoints.map((c) => c.raw).join(',')}]` +
    `,"capabilityLineage":[${e.lineage.map((r) => r.raw).join(',')}],"uncheckpointedReceipts":${JSON.stringify(e.unproven)}` +
    (e.problems.length ? `,"exportProblems":[${e.problems.map(rowProblemJson).join(',')}]` : '') +
    `},"transparency":{"publications":[],"witnesses":[],"consistency_proofs":[${e.consistency.map((r) => r.raw).join(',')}],"equivocations":[]}}`
  );
}
