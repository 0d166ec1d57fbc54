// Server side only: the receipt API answered from the fleet's ClickHouse cluster (issue 9), when
// CLICKHOUSE_URL is set. Filters, counts and aggregations run in the cluster; every statement is
// built by ./sql.ts from the parsed, typed query (lib/query/receipt-query.ts), never from request
// text. Pages carry each receipt's stored bytes, untouched, with the inclusion proofs and
// checkpoints they need, grouped by kernel (one seq space each), so the browser verifies them.
// Counts and sums are the index's figures: the response says so, and the page labels them.
import type { EvidenceQuery } from '../../../lib/query/evidence-query';
import type { ReceiptQuery } from '../../../lib/query/receipt-query';
import { ClickHouse } from './clickhouse';
import { list, sql, str, u64, type Sql } from './sql';

const clients = new Map<string, ClickHouse>();

/** One client per CLICKHOUSE_URL. */
export function fleetClient(url: string): ClickHouse {
  let ch = clients.get(url);
  if (!ch) clients.set(url, (ch = new ClickHouse(url)));
  return ch;
}

/** The WHERE clause of a receipt query's filters (tool receipts only, as the store API serves). */
export function receiptFilter(q: Omit<ReceiptQuery, 'limit' | 'cursor'>): Sql {
  const c: Sql[] = [sql`kind = 'tool'`];
  if (q.kernelKey !== undefined) c.push(sql`kernel_key = ${str(q.kernelKey)}`);
  if (q.capabilityId !== undefined) c.push(sql`capability_id = ${str(q.capabilityId)}`);
  if (q.toolServer !== undefined) c.push(sql`tool_server = ${str(q.toolServer)}`);
  if (q.toolName !== undefined) c.push(sql`tool_name = ${str(q.toolName)}`);
  if (q.outcome !== undefined) c.push(sql`decision_kind = ${str(q.outcome)}`);
  if (q.agentSubject !== undefined) c.push(sql`subject_key = ${str(q.agentSubject)}`);
  if (q.since !== undefined) c.push(sql`timestamp >= ${u64(q.since)}`);
  if (q.until !== undefined) c.push(sql`timestamp <= ${u64(q.until)}`);
  // cost_digits holds a plain decimal (no sign, no leading zeros): longer is larger, and digits
  // of equal length compare as text. Exact for costs beyond u64.
  if (q.minCost !== undefined) {
    const t = q.minCost.toString();
    c.push(sql`cost_digits != '' AND (length(cost_digits) > ${u64(BigInt(t.length))} OR (length(cost_digits) = ${u64(BigInt(t.length))} AND cost_digits >= ${str(t)}))`);
  }
  if (q.maxCost !== undefined) {
    const t = q.maxCost.toString();
    c.push(sql`cost_digits != '' AND (length(cost_digits) < ${u64(BigInt(t.length))} OR (length(cost_digits) = ${u64(BigInt(t.length))} AND cost_digits <= ${str(t)}))`);
  }
  return list(c, ' AND ');
}

interface PageRow {
  fleet_seq: string;
  kernel_key: string;
  seq: string;
  checkpoint_seq: string;
  raw_json: string;
}

/** `(kernel_key = K AND col IN (…)) OR …` for the given seqs of each kernel. */
function perKernel(column: Sql, byKernel: Map<string, Set<string>>): Sql {
  const parts = [...byKernel].map(([k, seqs]) => sql`(kernel_key = ${str(k)} AND ${column} IN (${list([...seqs].map((s) => u64(BigInt(s))))}))`);
  return parts.length ? list(parts, ' OR ') : sql`0`;
}

function group(rows: { kernel_key: string }[], key: (r: never) => string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const v = key(r as never);
    if (v === '0') continue;
    let s = out.get(r.kernel_key);
    if (!s) out.set(r.kernel_key, (s = new Set()));
    s.add(v);
  }
  return out;
}

const enc = new TextEncoder();

/**
 * One page of `/v1/receipts/query` from the cluster:
 * `{"totalCount","nextCursor","receipts":[…],"fleet":{"figures":"index","kernels":[{"kernelKey","receipts":[{"seq","index"}],"checkpoints":[…],"inclusionProofs":[…]}]}}`.
 * `receipts` is the contract's list (raw bytes in fleet order); `fleet.kernels` says which of them
 * belong to which kernel's log, with that log's proofs and checkpoints for them. The cursor is
 * the fleet order (`fleet_seq`) of the page's last receipt.
 */
export async function fleetPage(ch: ClickHouse, q: ReceiptQuery): Promise<{ body: Uint8Array; count: bigint; receipts: number }> {
  const where = receiptFilter(q);
  const after = q.cursor !== undefined ? sql` AND fleet_seq > ${u64(q.cursor)}` : sql``;
  const [rows, [total]] = await Promise.all([
    ch.rows<PageRow>(sql`SELECT fleet_seq, kernel_key, seq, checkpoint_seq, raw_json FROM receipts WHERE ${where}${after} ORDER BY fleet_seq LIMIT ${u64(BigInt(q.limit + 1))}`),
    ch.rows<{ n: string }>(sql`SELECT count() AS n FROM receipts WHERE ${where}`),
  ]);
  const page = rows.slice(0, q.limit);
  const nextCursor = rows.length > q.limit ? page[page.length - 1]!.fleet_seq : null;
  const [proofs, checkpoints] = await Promise.all([
    page.some((r) => r.checkpoint_seq !== '0')
      ? ch.rows<{ kernel_key: string; seq: string; raw: string }>(sql`SELECT kernel_key, seq, raw FROM proofs WHERE ${perKernel(sql`seq`, group(page.filter((r) => r.checkpoint_seq !== '0'), (r: PageRow) => r.seq))} ORDER BY kernel_key, seq`)
      : [],
    page.some((r) => r.checkpoint_seq !== '0')
      ? ch.rows<{ kernel_key: string; checkpoint_seq: string; raw: string }>(sql`SELECT kernel_key, checkpoint_seq, raw FROM checkpoints WHERE ${perKernel(sql`checkpoint_seq`, group(page, (r: PageRow) => r.checkpoint_seq))} ORDER BY kernel_key, checkpoint_seq`)
      : [],
  ]);
  const kernels = new Map<string, { receipts: string[]; checkpoints: string[]; proofs: string[] }>();
  const kernel = (k: string) => {
    let g = kernels.get(k);
    if (!g) kernels.set(k, (g = { receipts: [], checkpoints: [], proofs: [] }));
    return g;
  };
  page.forEach((r, i) => kernel(r.kernel_key).receipts.push(`{"seq":${r.seq},"index":${i}}`));
  for (const p of proofs) kernel(p.kernel_key).proofs.push(p.raw);
  for (const c of checkpoints) kernel(c.kernel_key).checkpoints.push(c.raw);
  const groups = [...kernels].map(([k, g]) => `{"kernelKey":${JSON.stringify(k)},"receipts":[${g.receipts.join(',')}],"checkpoints":[${g.checkpoints.join(',')}],"inclusionProofs":[${g.proofs.join(',')}]}`);
  const count = BigInt(total?.n ?? '0');
  const text = `{"totalCount":${count},"nextCursor":${nextCursor ?? 'null'},"receipts":[${page.map((r) => r.raw_json).join(',')}],"fleet":{"figures":"index","kernels":[${groups.join(',')}]}}`;
  return { body: enc.encode(text), count, receipts: page.length };
}

export interface KernelSummary {
  kernelKey: string;
  toolReceipts: string;
  childReceipts: string;
  /** Tool receipts whose seq lies in a checkpointed batch. */
  checkpointedReceipts: string;
  inclusionProofs: string;
  checkpoints: string;
  denied: string;
  firstTimestamp: string;
  lastTimestamp: string;
}

/** `GET /v1/fleet/kernels`: every kernel of the fleet with its index figures. */
export async function fleetKernels(ch: ClickHouse): Promise<{ figures: 'index'; kernels: KernelSummary[] }> {
  const [receipts, checkpoints, proofs] = await Promise.all([
    ch.rows<Record<string, string>>(sql`SELECT kernel_key, countIf(kind = 'tool') AS tool, countIf(kind = 'child') AS child, countIf(kind = 'tool' AND checkpoint_seq > 0) AS covered,
      countIf(kind = 'tool' AND decision_kind = 'deny') AS denied, min(timestamp) AS first, max(timestamp) AS last FROM receipts GROUP BY kernel_key ORDER BY kernel_key`),
    ch.rows<Record<string, string>>(sql`SELECT kernel_key, count() AS n FROM checkpoints GROUP BY kernel_key`),
    ch.rows<Record<string, string>>(sql`SELECT kernel_key, count() AS n FROM proofs GROUP BY kernel_key`),
  ]);
  const cps = new Map(checkpoints.map((r) => [r.kernel_key!, r.n!]));
  const prs = new Map(proofs.map((r) => [r.kernel_key!, r.n!]));
  const keys = [...new Set([...receipts.map((r) => r.kernel_key!), ...cps.keys()])].sort();
  const byKey = new Map(receipts.map((r) => [r.kernel_key!, r]));
  return {
    figures: 'index',
    kernels: keys.map((k) => {
      const r = byKey.get(k);
      return {
        kernelKey: k,
        toolReceipts: r?.tool ?? '0',
        childReceipts: r?.child ?? '0',
        checkpointedReceipts: r?.covered ?? '0',
        inclusionProofs: prs.get(k) ?? '0',
        checkpoints: cps.get(k) ?? '0',
        denied: r?.denied ?? '0',
        firstTimestamp: r?.first ?? '0',
        lastTimestamp: r?.last ?? '0',
      };
    }),
  };
}

/**
 * `GET /v1/fleet/summary?<filters>`: the filter set's matches per kernel and per outcome, and per
 * currency the sum of their cost_charged (Decimal128: exact up to 38 digits; a longer cost is
 * counted apart, not summed). Index figures.
 */
export async function fleetSummary(ch: ClickHouse, q: ReceiptQuery): Promise<Record<string, unknown>> {
  const where = receiptFilter(q);
  const [byKernel, byOutcome, costs] = await Promise.all([
    ch.rows<{ kernel_key: string; n: string }>(sql`SELECT kernel_key, count() AS n FROM receipts WHERE ${where} GROUP BY kernel_key ORDER BY kernel_key`),
    ch.rows<{ decision_kind: string; n: string }>(sql`SELECT decision_kind, count() AS n FROM receipts WHERE ${where} GROUP BY decision_kind ORDER BY decision_kind`),
    ch.rows<{ currency: string; sum: string; receipts: string; notSummed: string }>(
      sql`SELECT currency, toString(sum(toDecimal128(if(length(cost_digits) > 38, '0', cost_digits), 0))) AS sum, count() AS receipts,
        countIf(length(cost_digits) > 38) AS notSummed FROM receipts WHERE ${where} AND cost_digits != '' GROUP BY currency ORDER BY currency`,
    ),
  ]);
  return {
    figures: 'index',
    byKernel: Object.fromEntries(byKernel.map((r) => [r.kernel_key, r.n])),
    byOutcome: Object.fromEntries(byOutcome.map((r) => [r.decision_kind, r.n])),
    costCharged: Object.fromEntries(costs.map((r) => [r.currency, { sum: r.sum, receipts: r.receipts, notSummed: r.notSummed }])),
  };
}

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
  scoped: boolean;
  tools: { seq: string; receipt_id: string; raw_json: string }[];
  children: { seq: string; raw_json: string }[];
  proofs: { seq: string; raw: string }[];
  checkpoints: { raw: string }[];
  /** Tool receipts of the query with no inclusion proof in the index. */
  unproven: { seq: number; receiptId: string }[];
}

/**
 * The evidence of an export query for one kernel (`q.kernelKey` set), read from the cluster.
 * Child receipts come with unscoped queries only, as from a store.
 */
export async function fleetExport(ch: ClickHouse, q: EvidenceQuery & { kernelKey: string }): Promise<FleetExport> {
  const scoped = q.capabilityId !== undefined || q.agentSubject !== undefined;
  const [tools, children] = await Promise.all([
    ch.rows<{ seq: string; receipt_id: string; checkpoint_seq: string; raw_json: string }>(sql`SELECT seq, receipt_id, checkpoint_seq, raw_json FROM receipts WHERE ${exportFilter(q, 'tool')} ORDER BY seq`),
    scoped ? [] : ch.rows<{ seq: string; raw_json: string }>(sql`SELECT seq, raw_json FROM receipts WHERE ${exportFilter(q, 'child')} ORDER BY seq`),
  ]);
  const covered = tools.filter((r) => r.checkpoint_seq !== '0');
  const proofs = covered.length
    ? await ch.rows<{ seq: string; checkpoint_seq: string; raw: string }>(sql`SELECT seq, checkpoint_seq, raw FROM proofs WHERE ${perKernel(sql`seq`, new Map([[q.kernelKey, new Set(covered.map((r) => r.seq))]]))} ORDER BY seq`)
    : [];
  const cpSeqs = new Map([[q.kernelKey, new Set(proofs.map((p) => p.checkpoint_seq))]]);
  const checkpoints = proofs.length ? await ch.rows<{ raw: string }>(sql`SELECT raw FROM checkpoints WHERE ${perKernel(sql`checkpoint_seq`, cpSeqs)} ORDER BY checkpoint_seq`) : [];
  const proven = new Set(proofs.map((p) => p.seq));
  const unproven = tools.filter((r) => !proven.has(r.seq)).map((r) => ({ seq: Number(r.seq), receiptId: r.receipt_id }));
  return { query: q, scoped, tools, children, proofs, checkpoints, unproven };
}

/** The bundle of chio-format.md §11.2 with the stored bytes, in chunks. */
export function* fleetBundleChunks(e: FleetExport): Generator<string> {
  const items = (rows: { seq: string; raw_json: string }[]) => rows.map((r) => `{"seq":${r.seq},"receipt":${r.raw_json}}`).join(',');
  yield `{"bundle":{"query":${JSON.stringify(e.query)},"toolReceipts":[`;
  yield items(e.tools);
  yield `],"childReceipts":[`;
  yield items(e.children);
  yield `],"childReceiptScope":${JSON.stringify(e.scoped ? 'omitted_no_join_path' : 'full_query_window')}`;
  yield `,"inclusionProofs":[${e.proofs.map((p) => p.raw).join(',')}]`;
  yield `,"checkpoints":[${e.checkpoints.map((c) => c.raw).join(',')}]`;
  yield `,"capabilityLineage":[],"uncheckpointedReceipts":${JSON.stringify(e.unproven)}`;
  yield `},"transparency":{"publications":[],"witnesses":[],"consistency_proofs":[],"equivocations":[]}}`;
}
