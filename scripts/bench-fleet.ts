// `npm run bench:fleet`: the fleet at scale (issue 9). Prints numbers; asserts nothing.
//
//   node --import tsx scripts/bench-fleet.ts [--count 1000000] [--requests 300] [--dir DIR] [--json FILE]
//
// 1. Data: `count` synthetic receipts (server/synthetic-store.ts, the SQLite API benchmark's
//    generator) for three kernels (a third each, each its own kernel key and ids), written as three
//    evidence packages (receipts.ndjson) and, the same receipts, as one Chio SQLite store.
//    Synthetic receipts are not validly signed: this measures the index, not verification.
// 2. Ingest: `receipt-audit ingest` of the three packages into a fresh two-shard cluster of its own
//    (FLEET_BASE_PORT 19520, data under DIR/cluster, stopped at the end); the rate is the CLI's.
// 3. Queries (after merging the shards' parts): the same mix of filtered pages of 200 (first pages and cursor walks) against the
//    cluster (CLICKHOUSE_URL server) and against the SQLite store (RECEIPT_DB server), each server a
//    child process on 127.0.0.1, requests one at a time; p50/p95/p99 per backend and scenario.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type LoopbackApi, startApiServer } from '../server/loopback-api';
import { syntheticLineage, syntheticReceipt, type SyntheticReceipt } from '../server/synthetic-store';
import { CHIO_STORE_SCHEMA_SQL } from '../lib/sources/chio-store-schema';
import { INSERT_TOOL } from '../lib/sources/sqlite-store-writer';
import { PAGE_HEAD, percentile } from './bench/pages';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const COUNT = Number(arg('count') ?? 1_000_000);
const REQUESTS = Number(arg('requests') ?? 300);
const DIR = path.resolve(arg('dir') ?? path.join(ROOT, 'bench-out', `fleet-${COUNT}`));
const BASE_PORT = 19520;
const KERNELS = [1, 2, 3].map((k) => ({ k, key: `${'0'.repeat(62)}f${k}`, dir: path.join(DIR, `kernel-${k}`) }));
const STORE = path.join(DIR, 'all-kernels.sqlite3');

/** Kernel k's copy of a synthetic receipt: its own kernel key and ids (seq stays the kernel's own). */
function kernelReceipt(seq: number, k: number): SyntheticReceipt & { raw: string } {
  const r = syntheticReceipt(seq, k);
  const raw = r.rawJson.replace(/"kernel_key":"[0-9a-f]{64}"/, `"kernel_key":"${KERNELS[k - 1]!.key}"`).replace('"id":"rcpt-', `"id":"rcpt-k${k}-`);
  return { ...r, raw, receiptId: r.receiptId.replace('rcpt-', `rcpt-k${k}-`) };
}

async function writeData(): Promise<void> {
  const done = path.join(DIR, 'data-complete');
  if (existsSync(done)) return void console.log(`data: reusing ${DIR}`);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const t0 = performance.now();
  const db = new Database(STORE);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(CHIO_STORE_SCHEMA_SQL);
  const lineage = db.prepare('INSERT INTO capability_lineage VALUES (?, ?, ?, ?, ?, ?, ?, NULL)');
  for (const l of syntheticLineage()) lineage.run(l.capabilityId, l.subjectKey, l.issuerKey, l.issuedAt, l.expiresAt, l.grantsJson, l.delegationDepth);
  const insert = db.prepare(INSERT_TOOL);
  const perKernel = Math.ceil(COUNT / 3);
  for (const { k, dir } of KERNELS) {
    mkdirSync(dir, { recursive: true });
    const out = createWriteStream(path.join(dir, 'receipts.ndjson'));
    const n = Math.min(perKernel, COUNT - perKernel * (k - 1));
    for (let from = 1; from <= n; from += 20_000) {
      const lines: string[] = [];
      db.transaction(() => {
        for (let seq = from; seq < Math.min(from + 20_000, n + 1); seq++) {
          const r = kernelReceipt(seq, k);
          lines.push(`{"seq":${seq},"receipt":${r.raw}}\n`);
          insert.run(
            r.receiptId,
            r.timestamp,
            r.capabilityId,
            r.subjectKey ?? null,
            r.issuerKey ?? null,
            r.grantIndex ?? null,
            r.toolServer,
            r.toolName,
            r.decisionKind,
            r.policyHash,
            r.contentHash,
            r.raw,
            r.tenantId ?? null,
          );
        }
      })();
      if (!out.write(lines.join(''))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
  db.close();
  writeFileSync(done, '');
  const bytes = KERNELS.reduce((a, { dir }) => a + statSync(path.join(dir, 'receipts.ndjson')).size, 0);
  console.log(
    `data: ${COUNT.toLocaleString('en-US')} receipts, 3 packages (${(bytes / 2 ** 30).toFixed(2)} GiB) and one SQLite store (${(statSync(STORE).size / 2 ** 30).toFixed(2)} GiB) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}

function fleet(command: 'up' | 'down'): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/fleet.mjs', command], {
    cwd: ROOT,
    env: { ...process.env, FLEET_DIR: path.join(DIR, 'cluster'), FLEET_BASE_PORT: String(BASE_PORT) },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`fleet ${command}: ${r.stderr}${r.stdout}`);
  return r.stdout.trim().split('\n').pop()!;
}

interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1) ?? NaN };
}

/** Walks `pages` pages of 200 from the first; returns each request's milliseconds. */
async function walk(api: LoopbackApi, filters: Record<string, string>, pages: number): Promise<number[]> {
  const ms: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++) {
    const params = new URLSearchParams({ ...filters, limit: '200', ...(cursor ? { cursor } : {}) });
    const t0 = performance.now();
    const res = await fetch(`${api.origin}/v1/receipts/query?${params}`);
    const text = await res.text();
    ms.push(performance.now() - t0);
    const head = PAGE_HEAD.exec(text);
    if (res.status !== 200 || !head) throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
    cursor = head[2] === 'null' ? null : head[2]!;
    if (cursor === null) break;
  }
  return ms;
}

async function main(): Promise<void> {
  console.log(
    `bench:fleet: ${COUNT.toLocaleString('en-US')} receipts in 3 kernels; node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  await writeData();
  rmSync(path.join(DIR, 'cluster'), { recursive: true, force: true });
  const url = fleet('up');
  const servers: LoopbackApi[] = [];
  try {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['bin/receipt-audit.mjs', 'ingest', ...KERNELS.map((k) => k.dir), '--clickhouse', url, '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    if (r.status !== 0) throw new Error(`ingest exited ${r.status}: ${r.stderr}`);
    const report = JSON.parse(r.stdout) as { receiptsRead: number; seconds: number; receiptsPerSecond: number; rejected: unknown[] };
    const wall = (performance.now() - t0) / 1000;
    console.log(
      `ingest: ${report.receiptsRead.toLocaleString('en-US')} receipts in ${report.seconds.toFixed(1)} s = ${report.receiptsPerSecond.toLocaleString('en-US')} receipts/s (wall ${wall.toFixed(1)} s with start-up; ${report.rejected.length} rejected)`,
    );
    const disk = spawnSync('du', ['-sb', path.join(DIR, 'cluster')], { encoding: 'utf8' }).stdout.split('\t')[0];
    console.log(`cluster on disk: ${(Number(disk) / 2 ** 30).toFixed(2)} GiB (both shards)`);

    // Parts an ingest leaves are merged in the background; queries are measured on the merged
    // index (merging beside them took a core and made the numbers noise).
    const t1 = performance.now();
    for (const i of [1, 2]) {
      for (const t of ['receipts_local', 'receipt_json_local', 'proofs_local', 'checkpoints_local']) {
        const res = await fetch(`http://127.0.0.1:${BASE_PORT + i}/`, { method: 'POST', body: `OPTIMIZE TABLE ${t} FINAL` });
        if (!res.ok) throw new Error(`OPTIMIZE ${t}: ${await res.text()}`);
      }
    }
    console.log(`merged the shards' parts in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const fleetApi = await startApiServer({ CLICKHOUSE_URL: url, RECEIPT_API_TOKEN: '' });
    const sqliteApi = await startApiServer({ RECEIPT_DB: STORE, RECEIPT_API_TOKEN: '' });
    servers.push(fleetApi, sqliteApi);
    const sample = kernelReceipt(12_345, 2);
    const base = sample.timestamp;
    const scenarios: [string, Record<string, string>, boolean][] = [
      ['all', {}, true],
      ['outcome=deny', { outcome: 'deny' }, true],
      ['toolServer', { toolServer: sample.toolServer }, true],
      ['toolServer+toolName', { toolServer: sample.toolServer, toolName: sample.toolName }, true],
      ['capabilityId', { capabilityId: sample.capabilityId }, true],
      ['agentSubject', { agentSubject: sample.subjectKey ?? '' }, Boolean(sample.subjectKey)],
      ['since+until', { since: String(base), until: String(base + 200_000) }, true],
      ['minCost=50000', { minCost: '50000' }, true],
      ['cost 100..200+deny', { minCost: '100', maxCost: '200', outcome: 'deny' }, true],
      ['kernelKey (fleet only)', { kernelKey: KERNELS[1]!.key }, false],
      ['kernelKey+outcome (fleet only)', { kernelKey: KERNELS[2]!.key, outcome: 'cancelled' }, false],
    ];
    const pages = Math.max(1, Math.floor(REQUESTS / scenarios.length / 3));
    const results: Record<string, Record<string, Stats>> = { clickhouse: {}, sqlite: {} };
    const all: Record<string, number[]> = { clickhouse: [], sqlite: [] };
    for (const [backend, api] of [
      ['clickhouse', fleetApi],
      ['sqlite', sqliteApi],
    ] as const) {
      await walk(api, {}, 3); // warm the server process
      for (const [name, filters, both] of scenarios) {
        if (!both && backend === 'sqlite') continue;
        const ms: number[] = [];
        for (let rep = 0; rep < 3; rep++) ms.push(...(await walk(api, filters, pages)));
        results[backend]![name] = stats(ms);
        all[backend]!.push(...ms);
      }
    }
    const f = (n: number) => n.toFixed(1).padStart(8);
    console.log(`\nfiltered pages of 200 at ${COUNT.toLocaleString('en-US')} receipts (ms; each scenario: ${pages} page(s) from the first, 3 times)`);
    console.log(`${'scenario'.padEnd(32)} ${'ClickHouse p50'.padStart(14)} ${'p95'.padStart(8)}   ${'SQLite p50'.padStart(10)} ${'p95'.padStart(8)}`);
    for (const [name] of scenarios) {
      const c = results.clickhouse![name]!;
      const s = results.sqlite![name];
      console.log(
        `${name.padEnd(32)} ${f(c.p50).padStart(14)} ${f(c.p95)}   ${s ? f(s.p50).padStart(10) : '       –'.padStart(10)} ${s ? f(s.p95) : '       –'}`,
      );
    }
    const ch = stats(all.clickhouse!);
    const sq = stats(all.sqlite!);
    console.log(`${'ALL'.padEnd(32)} ${f(ch.p50).padStart(14)} ${f(ch.p95)}   ${f(sq.p50).padStart(10)} ${f(sq.p95)}`);
    const out = arg('json');
    if (out)
      writeFileSync(
        out,
        JSON.stringify(
          {
            count: COUNT,
            ingest: { receiptsPerSecond: report.receiptsPerSecond, seconds: report.seconds },
            clickhouse: { all: ch, ...results.clickhouse },
            sqlite: { all: sq, ...results.sqlite },
          },
          null,
          2,
        ),
      );
  } finally {
    for (const s of servers) await s.stop();
    fleet('down');
  }
}

await main();
