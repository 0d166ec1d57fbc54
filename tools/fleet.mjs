#!/usr/bin/env node
// `npm run fleet:up` / `npm run fleet:down` (issue 9): a local two-shard ClickHouse cluster on
// 127.0.0.1 for a fleet of kernels' receipts. Debian's clickhouse-server (18.16 here) is installed
// when missing and we run as root; otherwise we say what to install. Each shard is its own server
// process with its own data folder under FLEET_DIR (default .fleet/ in the checkout), and shard 1
// holds the Distributed tables that span both (the schema: server/fleet/schema.ts, loaded
// through tsx). The last line `fleet:up` prints is shard 1's URL.
//
// Ports: FLEET_BASE_PORT (default 19120). Shard i (1, 2) serves HTTP on base + i, the native
// protocol (which shards use to reach each other) on base + 10 + i, interserver on base + 20 + i.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = resolve(process.env.FLEET_DIR ?? join(ROOT, '.fleet'));
const BASE = Number(process.env.FLEET_BASE_PORT ?? 19120);
const SHARDS = [1, 2];
const PIDS = join(DIR, 'pids.json');
const SERVER = '/usr/sbin/clickhouse-server';

const ports = (i) => ({ http: BASE + i, tcp: BASE + 10 + i, interserver: BASE + 20 + i });
const shardUrl = (i) => `http://127.0.0.1:${ports(i).http}/`;

function fail(message) {
  console.error(`fleet: ${message}`);
  process.exit(1);
}

/** Debian's clickhouse-server, installed when missing (as root), or a clear message. */
function ensureServer() {
  if (existsSync(SERVER)) return;
  if (process.getuid?.() !== 0) {
    fail(`${SERVER} is missing. Install Debian's ClickHouse first: sudo apt-get install -y clickhouse-server clickhouse-client`);
  }
  console.log("fleet: installing Debian's clickhouse-server (apt-get install -y clickhouse-server clickhouse-client) …");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', 'clickhouse-server', 'clickhouse-client'], { stdio: 'inherit', env }).status;
  let status = install();
  if (status !== 0) {
    // A fresh machine may have no package lists yet.
    console.log('fleet: apt-get install failed; apt-get update, then once more …');
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    status = install();
  }
  if (status !== 0 || !existsSync(SERVER))
    fail(
      `could not install clickhouse-server (apt-get exited ${status}); install it by hand: apt-get update && apt-get install -y clickhouse-server clickhouse-client`,
    );
}

function config(i) {
  const p = ports(i);
  const d = join(DIR, `shard${i}`);
  const shards = SHARDS.map((s) => `      <shard><replica><host>127.0.0.1</host><port>${ports(s).tcp}</port></replica></shard>`).join('\n');
  // Listens on 127.0.0.1 only. The users file is Debian's (user `default`, no password, local).
  // keep_alive_timeout outlasts Node's idle sockets (4 s): with ClickHouse's 3 s, the server closed
  // sockets fetch was about to reuse, and requests failed with "other side closed".
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${d}/log/server.log</log><errorlog>${d}/log/error.log</errorlog><size>10M</size><count>2</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${p.http}</http_port>
  <tcp_port>${p.tcp}</tcp_port>
  <interserver_http_port>${p.interserver}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <max_connections>256</max_connections>
  <keep_alive_timeout>30</keep_alive_timeout>
  <max_concurrent_queries>100</max_concurrent_queries>
  <uncompressed_cache_size>1073741824</uncompressed_cache_size>
  <mark_cache_size>268435456</mark_cache_size>
  <path>${d}/data/</path>
  <tmp_path>${d}/tmp/</tmp_path>
  <user_files_path>${d}/user_files/</user_files_path>
  <format_schema_path>${d}/format_schemas/</format_schema_path>
  <users_config>/etc/clickhouse-server/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <remote_servers>
    <fleet>
${shards}
    </fleet>
  </remote_servers>
</yandex>
`;
}

function readPids() {
  try {
    return JSON.parse(readFileSync(PIDS, 'utf8'));
  } catch {
    return null;
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function answers(i) {
  try {
    const res = await fetch(`${shardUrl(i)}?query=SELECT%201`, { signal: AbortSignal.timeout(1000) });
    return res.ok && (await res.text()).trim() === '1';
  } catch {
    return false;
  }
}

async function up() {
  ensureServer();
  const running = readPids();
  if (running?.pids.every(alive) && (await Promise.all(SHARDS.map(answers))).every(Boolean)) {
    console.log(`fleet: already running (pids ${running.pids.join(', ')})`);
    await schema();
    console.log(shardUrl(1));
    return;
  }
  if (running) await down(true);
  const pids = [];
  for (const i of SHARDS) {
    const d = join(DIR, `shard${i}`);
    for (const sub of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(join(d, sub), { recursive: true });
    writeFileSync(join(d, 'config.xml'), config(i));
    const out = openSync(join(d, 'log', 'stdout.log'), 'a');
    const child = spawn(SERVER, [`--config-file=${join(d, 'config.xml')}`], { detached: true, stdio: ['ignore', out, out] });
    child.unref();
    pids.push(child.pid);
  }
  writeFileSync(PIDS, JSON.stringify({ pids, base: BASE }));
  const deadline = Date.now() + 30_000;
  for (const i of SHARDS) {
    while (!(await answers(i))) {
      if (Date.now() > deadline || !alive(pids[i - 1])) {
        await down(true);
        fail(`shard ${i} did not start on ${shardUrl(i)}; see ${join(DIR, `shard${i}`, 'log')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  // The cluster as shard 1 sees it: both shards reachable over the native protocol.
  const res = await fetch(shardUrl(1), { method: 'POST', body: "SELECT count() FROM remote('127.0.0.1:" + ports(2).tcp + "', system.one)" });
  if (!res.ok) fail(`shard 1 cannot reach shard 2: ${(await res.text()).slice(0, 300)}`);
  await schema();
  console.log(`fleet: 2 shards up (HTTP ${ports(1).http}, ${ports(2).http}; data in ${DIR})`);
  console.log(shardUrl(1));
}

/** The MergeTree tables on each shard and the Distributed tables on shard 1 (server/fleet/schema.ts). */
async function schema() {
  const { createSchema } = await import('../server/fleet/schema.ts');
  try {
    await createSchema(SHARDS.map(shardUrl));
  } catch (e) {
    fail(`could not create the fleet's tables: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function down(quiet = false) {
  const running = readPids();
  if (!running) {
    if (!quiet) console.log('fleet: not running');
    return;
  }
  for (const pid of running.pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (running.pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of running.pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(PIDS, { force: true });
  if (!quiet) console.log(`fleet: stopped (pids ${running.pids.join(', ')}); data kept in ${DIR}`);
}

const command = process.argv[2];
if (command === 'up') await up();
else if (command === 'down') await down();
else fail('usage: node tools/fleet.mjs up|down (npm run fleet:up, npm run fleet:down)');
