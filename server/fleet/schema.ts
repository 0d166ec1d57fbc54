// Server side only: the fleet's tables (issue 9). Each shard holds the `_local` MergeTree tables;
// shard 1 also holds a Distributed table over each, sharded by kernel key so that one kernel's
// receipts, checkpoints and proofs live on one shard. `fleet:up` creates them on every shard.
//
// receipts: one row per tool or child receipt: the columns the filters of contract §5 need.
// receipt_json: each receipt's exported JSON, byte for byte, by (kernel_key, fleet_seq). `fleet_seq` is the fleet's own order (given
//   at ingest, one ingest at a time), the cursor of `/v1/receipts/query` in fleet mode.
//   `kernel_key` is the kernel whose log (seq space) the receipt is in: its checkpoints' signer,
//   or the receipt's own `kernel_key` when its log has no checkpoints; `signer_key` is always
//   the receipt's own. `cost_digits` is metadata.financial.cost_charged as written when it is a
//   non-negative integer, '' otherwise, and `currency` metadata.financial.currency ('' when none). `checkpoint_seq` is 0 when no proof was ingested.
// checkpoints: one row per signed checkpoint of a kernel, its record as exported.
// proofs: one inclusion proof per checkpointed tool receipt, as exported.
// records: a kernel's other evidence, as exported: its capability-lineage rows (record_kind
//   'lineage', keyed by capability_id) and its checkpoint consistency records ('consistency',
//   keyed by `<from>:<to>`), so a page and an export carry the signed lineage and v2 chain
//   proofs of what they show (contract part 2 §5.1, §5.3.1).
//
// The JSON lives apart from the filter columns, in small granules (64 rows), because a page reads
// 200 bodies found by key, often scattered (a sparse filter's matches): in one wide table with
// 256-row granules a page of one capability read 47 MB of JSON (now about 1.4 MB), and every
// filter scan read past the JSON. Proofs, read the same way, have 1024-row granules.
import { ClickHouse } from './clickhouse';
import { sql, type Sql } from './sql';

export const CLUSTER = 'fleet';

const LOCAL_TABLES: [name: string, ddl: Sql][] = [
  [
    'receipts_local',
    sql`CREATE TABLE IF NOT EXISTS receipts_local (
  fleet_seq UInt64, kernel_key String, kind Enum8('tool' = 1, 'child' = 2), seq UInt64, receipt_id String,
  signer_key String, timestamp UInt64, capability_id String, subject_key String, tool_server String,
  tool_name String, decision_kind String, cost_digits String, currency String, checkpoint_seq UInt64, source String
) ENGINE = MergeTree() ORDER BY (kernel_key, fleet_seq)`,
  ],
  [
    'receipt_json_local',
    sql`CREATE TABLE IF NOT EXISTS receipt_json_local (
  kernel_key String, fleet_seq UInt64, raw_json String
) ENGINE = MergeTree() ORDER BY (kernel_key, fleet_seq) SETTINGS index_granularity = 64`,
  ],
  [
    'checkpoints_local',
    sql`CREATE TABLE IF NOT EXISTS checkpoints_local (
  kernel_key String, checkpoint_seq UInt64, batch_start_seq UInt64, batch_end_seq UInt64, tree_size UInt64,
  issued_at UInt64, source String, raw String
) ENGINE = MergeTree() ORDER BY (kernel_key, checkpoint_seq)`,
  ],
  [
    'proofs_local',
    sql`CREATE TABLE IF NOT EXISTS proofs_local (
  kernel_key String, seq UInt64, checkpoint_seq UInt64, source String, raw String
) ENGINE = MergeTree() ORDER BY (kernel_key, seq) SETTINGS index_granularity = 1024`,
  ],
  [
    'records_local',
    sql`CREATE TABLE IF NOT EXISTS records_local (
  kernel_key String, record_kind String, record_key String, source String, raw String
) ENGINE = MergeTree() ORDER BY (kernel_key, record_kind, record_key)`,
  ],
];

const DISTRIBUTED: Sql[] = [
  sql`CREATE TABLE IF NOT EXISTS receipts AS receipts_local ENGINE = Distributed(fleet, default, receipts_local, cityHash64(kernel_key))`,
  sql`CREATE TABLE IF NOT EXISTS receipt_json AS receipt_json_local ENGINE = Distributed(fleet, default, receipt_json_local, cityHash64(kernel_key))`,
  sql`CREATE TABLE IF NOT EXISTS checkpoints AS checkpoints_local ENGINE = Distributed(fleet, default, checkpoints_local, cityHash64(kernel_key))`,
  sql`CREATE TABLE IF NOT EXISTS proofs AS proofs_local ENGINE = Distributed(fleet, default, proofs_local, cityHash64(kernel_key))`,
  sql`CREATE TABLE IF NOT EXISTS records AS records_local ENGINE = Distributed(fleet, default, records_local, cityHash64(kernel_key))`,
];

/** Creates the local tables on every shard and the Distributed tables on the first. Idempotent. */
export async function createSchema(shardUrls: string[]): Promise<void> {
  for (const url of shardUrls) {
    const ch = new ClickHouse(url);
    for (const [, ddl] of LOCAL_TABLES) await ch.exec(ddl);
  }
  const head = new ClickHouse(shardUrls[0]!);
  for (const ddl of DISTRIBUTED) await head.exec(ddl);
}

/** Why `ch` cannot serve or take the fleet, or null when its Distributed tables are there. */
export async function schemaProblem(ch: ClickHouse): Promise<string | null> {
  const rows = await ch.rows<{ name: string; engine: string }>(sql`SELECT name, engine FROM system.tables WHERE database = 'default'`);
  const engines = new Map(rows.map((r) => [r.name, r.engine]));
  const missing = ['receipts', 'receipt_json', 'checkpoints', 'proofs', 'records'].filter((t) => engines.get(t) !== 'Distributed');
  if (missing.length === 0) return null;
  return `${ch.url.origin} has no Distributed table${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: point at the node fleet:up printed, or run npm run fleet:up (it adds what a cluster made by an older version lacks)`;
}
