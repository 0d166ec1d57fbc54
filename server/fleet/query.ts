// Server side only: the receipt API answered from the fleet's ClickHouse cluster (issue 9), when
// CLICKHOUSE_URL is set. Filters, counts and aggregations run in the cluster; every statement is
// built by ./sql.ts from the parsed, typed query (lib/query/receipt-query.ts), never from request
// text. Pages carry each receipt's stored bytes, untouched, with the inclusion proofs and
// checkpoints they need, grouped by kernel (one seq space each), so the browser verifies them.
// Counts and sums are the index's figures: the response says so, and the page labels them.
import { type ReceiptQuery, toFilterKey } from '../../lib/query/receipt-query';
import { ClickHouse } from './clickhouse';
import { checkStoredText, rowProblemJson } from '../stored-row';
import { col, list, sql, str, table, u64, type Sql } from './sql';
import { Lru } from '../lru';
import { LISTED_MAX, MAX_FILTER_SETS, envCount, firstAfter } from '../paging';

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
    c.push(
      sql`cost_digits != '' AND (length(cost_digits) > ${u64(BigInt(t.length))} OR (length(cost_digits) = ${u64(BigInt(t.length))} AND cost_digits >= ${str(t)}))`,
    );
  }
  if (q.maxCost !== undefined) {
    const t = q.maxCost.toString();
    c.push(
      sql`cost_digits != '' AND (length(cost_digits) < ${u64(BigInt(t.length))} OR (length(cost_digits) = ${u64(BigInt(t.length))} AND cost_digits <= ${str(t)}))`,
    );
  }
  return list(c, ' AND ');
}

interface PageKey {
  fleet_seq: string;
  kernel_key: string;
  seq: string;
  checkpoint_seq: string;
  capability_id: string;
}

/** `(kernel_key = K AND col BETWEEN lo AND hi AND col IN (…)) OR …`: each kernel's values, found through the primary key. */
function perKernel(column: Sql, byKernel: Map<string, bigint[]>): Sql {
  const parts = [...byKernel].map(([k, values]) => {
    const lo = values.reduce((a, b) => (a < b ? a : b));
    const hi = values.reduce((a, b) => (a > b ? a : b));
    return sql`(kernel_key = ${str(k)} AND ${column} BETWEEN ${u64(lo)} AND ${u64(hi)} AND ${column} IN (${list(values.map(u64))}))`;
  });
  return parts.length ? list(parts, ' OR ') : sql`0`;
}

function byKernel<T extends { kernel_key: string }>(rows: T[], value: (r: T) => string): Map<string, bigint[]> {
  const out = new Map<string, bigint[]>();
  for (const r of rows) {
    const v = value(r);
    if (v === '0') continue;
    const list = out.get(r.kernel_key);
    if (list) list.push(BigInt(v));
    else out.set(r.kernel_key, [BigInt(v)]);
  }
  return out;
}

/** FLEET_QUERY_FIRST_WINDOW and FLEET_QUERY_LISTED_MAX override these (the tests walk small fleets through every plan). */
const FIRST_WINDOW = BigInt(Math.max(1, envCount('FLEET_QUERY_FIRST_WINDOW', 8_192)));
const OPEN_AFTER = 4_000_000n;

/**
 * Fleet positions are given densely at ingest, so a page is looked for in growing windows of them
 * after the cursor: each window is read through the primary key, and a page of common matches
 * reads one small window instead of every match in the fleet (18.16 sorts every match for an
 * ORDER BY … LIMIT). The last window is open-ended, so nothing after the cursor is missed.
 */
async function pageKeys(ch: ClickHouse, where: Sql, after: bigint, want: number, maxWindows = Infinity): Promise<PageKey[]> {
  const found: PageKey[] = [];
  let lo = after + 1n;
  for (let window = FIRST_WINDOW, n = 0; found.length < want && n < maxWindows; window *= 8n, n++) {
    const open = window > OPEN_AFTER;
    const range = open ? sql`fleet_seq >= ${u64(lo)}` : sql`fleet_seq BETWEEN ${u64(lo)} AND ${u64(lo + window - 1n)}`;
    const rows = await ch.rows<PageKey>(
      sql`SELECT fleet_seq, kernel_key, seq, checkpoint_seq, capability_id FROM receipts WHERE ${where} AND ${range} ORDER BY fleet_seq LIMIT ${u64(BigInt(want - found.length))}`,
    );
    found.push(...rows);
    if (open) break;
    lo += window;
  }
  return found;
}

const enc = new TextEncoder();

/**
 * What the index knows of a filter set, kept per cluster state (its receipt count, which only
 * grows: an ingest changes it, and with it every key): the count, and when there are at most
 * LISTED matches, all their keys in fleet order, so each page is a slice. Like the SQLite
 * server's plan, it spares sparse filters a scan of the fleet per page.
 */
interface FilterState {
  version: string;
  count: bigint;
  keys: PageKey[] | null;
}

const LISTED = envCount('FLEET_QUERY_LISTED_MAX', LISTED_MAX);
const states = new Lru<string, FilterState>(MAX_FILTER_SETS);

/** Forgets every filter state (tests, benchmarks). */
export function forgetFleetStates(): void {
  states.clear();
}

/** Index of the first key after `cursor` (keys ascend by fleet_seq). */
function keyAfter(keys: PageKey[], cursor: bigint): number {
  return firstAfter(keys.length, (i) => BigInt(keys[i]?.fleet_seq ?? '0'), cursor);
}

/**
 * The page's keys (one more than the limit, to know whether another page follows) and the count.
 * From a kept list the page is answered at once, and `current` says later whether the list was
 * still the cluster's (checked while the page's bodies are read: one round trip, not two).
 */
async function keysAndCount(ch: ClickHouse, q: ReceiptQuery): Promise<{ keys: PageKey[]; count: bigint; current: Promise<boolean> }> {
  const where = receiptFilter(q);
  const after = q.cursor ?? 0n;
  const want = q.limit + 1;
  const stateKey = `${ch.url.href}\u0000${toFilterKey(q)}`;
  const known = states.peek(stateKey);
  const version = ch.rows<{ n: string }>(sql`SELECT count() AS n FROM receipts`).then(([r]) => r?.n ?? '0');
  version.catch(() => {}); // awaited below, or by the caller through `current`
  if (known?.keys) {
    states.set(stateKey, known);
    const from = keyAfter(known.keys, after);
    return { keys: known.keys.slice(from, from + want), count: known.count, current: version.then((v) => v === known.version) };
  }
  if (known) {
    // A large filter's keys are looked for while the version is checked.
    const keys = pageKeys(ch, where, after, want);
    keys.catch(() => {});
    if (known.version === (await version)) {
      states.set(stateKey, known);
      return { keys: await keys, count: known.count, current: Promise.resolve(true) };
    }
  }
  // The count, and where the first match after the cursor is, in one scan beside a first window.
  const [v, [total], first] = await Promise.all([
    version,
    ch.rows<{ n: string; next: string }>(sql`SELECT count() AS n, minIf(fleet_seq, fleet_seq > ${u64(after)}) AS next FROM receipts WHERE ${where}`),
    pageKeys(ch, where, after, want, 1),
  ]);
  const count = BigInt(total?.n ?? '0');
  if (count > BigInt(LISTED)) {
    states.set(stateKey, { version: v, count, keys: null });
    // minIf over no rows is 0: nothing matches after the cursor.
    if (first.length >= want || total?.next === '0') return { keys: first, count, current: Promise.resolve(true) };
    // Go on from the first match (or from where the window ended), not through the gap before it.
    const from = first.length ? BigInt(first[first.length - 1]!.fleet_seq) : BigInt(total!.next) - 1n;
    const more = await pageKeys(ch, where, from, want - first.length);
    return { keys: [...first, ...more], count, current: Promise.resolve(true) };
  }
  const all = await ch.rows<PageKey>(
    sql`SELECT fleet_seq, kernel_key, seq, checkpoint_seq, capability_id FROM receipts WHERE ${where} ORDER BY fleet_seq LIMIT ${u64(BigInt(LISTED))}`,
  );
  states.set(stateKey, { version: v, count, keys: all });
  const from = keyAfter(all, after);
  return { keys: all.slice(from, from + want), count, current: Promise.resolve(true) };
}

/**
 * One page of `/v1/receipts/query` from the cluster:
 * `{"totalCount","nextCursor","receipts":[…],"fleet":{"figures":"index","kernels":[{"kernelKey","receipts":[{"seq","index"}],"checkpoints":[…],"inclusionProofs":[…]}]}}`.
 * `receipts` is the contract's list (raw bytes in fleet order); `fleet.kernels` says which of them
 * belong to which kernel's log, with that log's proofs and checkpoints for them. The cursor is
 * the fleet order (`fleet_seq`) of the page's last receipt.
 *
 * Two round trips: the page's keys (a slice of the filter's list, or found in windows of narrow
 * columns) beside the cluster's receipt count, then its raw JSON, proofs and checkpoints, each
 * found by primary key.
 */
export async function fleetPage(ch: ClickHouse, q: ReceiptQuery, retried = false): Promise<Uint8Array> {
  const { keys, count, current } = await keysAndCount(ch, q);
  const page = keys.slice(0, q.limit);
  const nextCursor = keys.length > q.limit ? page[page.length - 1]!.fleet_seq : null;
  const covered = page.filter((r) => r.checkpoint_seq !== '0');
  const [raws, proofs, checkpoints, records, stillCurrent] = await Promise.all([
    page.length
      ? ch.rows<{ fleet_seq: string; raw_json: string }>(
          sql`SELECT fleet_seq, raw_json FROM receipt_json WHERE ${perKernel(
            sql`fleet_seq`,
            byKernel(page, (r) => r.fleet_seq),
          )}`,
        )
      : [],
    covered.length
      ? ch.rows<{ kernel_key: string; seq: string; raw: string }>(
          sql`SELECT kernel_key, seq, raw FROM proofs WHERE ${perKernel(
            sql`seq`,
            byKernel(covered, (r) => r.seq),
          )} ORDER BY kernel_key, seq`,
        )
      : [],
    covered.length
      ? ch.rows<{ kernel_key: string; checkpoint_seq: string; raw: string }>(
          sql`SELECT kernel_key, checkpoint_seq, raw FROM checkpoints WHERE ${perKernel(
            sql`checkpoint_seq`,
            byKernel(covered, (r) => r.checkpoint_seq),
          )} ORDER BY kernel_key, checkpoint_seq`,
        )
      : [],
    pageRecords(ch, page),
    current,
  ]);
  const rawOf = new Map(raws.map((r) => [r.fleet_seq, r.raw_json]));
  if (!retried && (!stillCurrent || page.some((r) => !rawOf.has(r.fleet_seq)))) {
    // A kept list is older than the cluster (an ingest since), or outlived its data (tables
    // emptied and filled to the same count): read afresh.
    forgetFleetStates();
    return fleetPage(ch, q, true);
  }
  const kernels = new Map<string, { receipts: string[]; checkpoints: string[]; proofs: string[]; lineage: string[]; consistency: string[] }>();
  const kernel = (k: string) => {
    let g = kernels.get(k);
    if (!g) kernels.set(k, (g = { receipts: [], checkpoints: [], proofs: [], lineage: [], consistency: [] }));
    return g;
  };
  const receipts: string[] = [];
  const problems: string[] = [];
  for (const r of page) {
    const raw = rawOf.get(r.fleet_seq);
    if (raw === undefined) throw new Error(`fleet: receipt at fleet_seq ${r.fleet_seq} vanished between two reads`);
    // Checked before it is spliced, as a store's rows are (../stored-row.ts): named by its place in the index.
    const checked = checkStoredText('receipt_json', Number(r.fleet_seq), 'raw_json', raw);
    if (!checked.ok) {
      problems.push(rowProblemJson(checked.problem));
      continue;
    }
    kernel(r.kernel_key).receipts.push(`{"seq":${r.seq},"index":${receipts.length}}`);
    receipts.push(raw);
  }
  for (const p of proofs) kernel(p.kernel_key).proofs.push(p.raw);
  for (const c of checkpoints) kernel(c.kernel_key).checkpoints.push(c.raw);
  for (const r of records) kernel(r.kernel_key)[r.record_kind === 'lineage' ? 'lineage' : 'consistency'].push(r.raw);
  const groups = [...kernels].map(
    ([k, g]) =>
      `{"kernelKey":${JSON.stringify(k)},"receipts":[${g.receipts.join(',')}],"checkpoints":[${g.checkpoints.join(',')}],"inclusionProofs":[${g.proofs.join(',')}]` +
      `,"capabilityLineage":[${g.lineage.join(',')}],"consistencyProofs":[${g.consistency.join(',')}]}`,
  );
  const problemList = problems.length ? `,"problems":[${problems.join(',')}]` : '';
  const text = `{"totalCount":${count},"nextCursor":${nextCursor ?? 'null'},"receipts":[${receipts.join(',')}]${problemList},"fleet":{"figures":"index","kernels":[${groups.join(',')}]}}`;
  return enc.encode(text);
}

/**
 * A page's records (the `records` table): per kernel, the lineage rows of the capabilities its
 * receipts use, and the consistency records between checkpoints the page carries (both ends on
 * the page, so each one can be verified there).
 */
async function pageRecords(ch: ClickHouse, page: PageKey[]): Promise<{ kernel_key: string; record_kind: string; raw: string }[]> {
  const wanted: Sql[] = [];
  for (const [k, rows] of groupByKernel(page)) {
    const caps = [...new Set(rows.map((r) => r.capability_id).filter((c) => c !== ''))];
    const seqs = new Set(rows.filter((r) => r.checkpoint_seq !== '0').map((r) => BigInt(r.checkpoint_seq)));
    const pairs = [...seqs].filter((s) => seqs.has(s - 1n)).map((s) => `${s - 1n}:${s}`);
    const keys = [
      ...caps.map((c) => sql`(record_kind = 'lineage' AND record_key = ${str(c)})`),
      ...(pairs.length ? [sql`(record_kind = 'consistency' AND record_key IN (${list(pairs.map((x) => str(x)))}))`] : []),
    ];
    if (keys.length) wanted.push(sql`(kernel_key = ${str(k)} AND (${list(keys, ' OR ')}))`);
  }
  if (wanted.length === 0) return [];
  return ch.rows(
    sql`SELECT kernel_key, ${col('record_kind')} AS record_kind, raw FROM ${table('records')} WHERE ${list(wanted, ' OR ')} ORDER BY kernel_key, record_kind, ${col('record_key')}`,
  );
}

function groupByKernel(rows: PageKey[]): Map<string, PageKey[]> {
  const out = new Map<string, PageKey[]>();
  for (const r of rows) {
    const list = out.get(r.kernel_key);
    if (list) list.push(r);
    else out.set(r.kernel_key, [r]);
  }
  return out;
}
