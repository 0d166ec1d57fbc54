// Measures `GET /v1/receipts/query` over real HTTP: the same handler as the Next route, served
// from node:http on 127.0.0.1, against a Chio SQLite store. Prints latency percentiles; asserts
// nothing.
//
//   node --import tsx scripts/bench-api.ts --db PATH [--requests 500] [--generate N] [--in-process]
//
// The server runs as a child process (server/serve-receipt-api.ts: node:http and the same
// handler as the Next route), so the client's own work and garbage collection are not counted
// in the server's latency; --in-process serves it from this process instead.
// --generate N writes a synthetic N-receipt store at PATH first when PATH does not exist (real
// Chio schema, WAL mode like a kernel's store; server/synthetic-store.ts). The request mix
// walks cursors with limit=200: the whole log, each of several filters and filter combinations
// from their first page, and pages reached by jumping to a random cursor. Every filter set's
// first request pays for its totalCount (cached afterwards), so cold and warm are shown apart.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { handleApiRequest } from '../server/api-router';
import { closeAllStores } from '../server/store/receipt-query';
import { serveOnLoopback } from '../server/serve-node';
import { writeSyntheticStore } from '../server/synthetic-store-file';
import { PAGE_HEAD, percentile } from './bench/pages';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function generate(file: string, count: number): void {
  const t0 = performance.now();
  writeSyntheticStore(file, count);
  process.stdout.write(`generated ${count} receipts in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

interface Page {
  totalCount: number;
  nextCursor: number | null;
  receipts: Record<string, unknown>[];
}

interface Sample {
  scenario: string;
  ms: number;
  cold: boolean;
}

const samples: Sample[] = [];
let origin = '';

/** One timed request; only the head of the body is read back (no JSON.parse in the timed loop). */
async function get(scenario: string, params: Record<string, string>, cold: boolean): Promise<{ total: number; next: number | null; text: string }> {
  const t0 = performance.now();
  const res = await fetch(`${origin}/v1/receipts/query?${new URLSearchParams(params)}`);
  const text = await res.text();
  samples.push({ scenario, ms: performance.now() - t0, cold });
  const head = PAGE_HEAD.exec(text);
  if (res.status !== 200 || !head) throw new Error(`${scenario}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return { total: Number(head[1]), next: head[2] === 'null' ? null : Number(head[2]), text };
}

/** The child server: the same handler, its own process (as in production). */
async function serveChild(db: string): Promise<{ origin: string; close(): Promise<void> }> {
  const entry = fileURLToPath(new URL('../server/serve-receipt-api.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', entry, '--exit-with-stdin'], {
    cwd: path.dirname(path.dirname(entry)),
    env: { ...process.env, RECEIPT_DB: db, RECEIPT_API_TOKEN: '' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return {
    origin: first.replace(/^listening /, ''),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}

/** Follows nextCursor from `cursor` for up to `pages` pages of 200. */
async function walk(scenario: string, filters: Record<string, string>, pages: number, cursor?: number): Promise<void> {
  let next: number | null | undefined = cursor;
  for (let i = 0; i < pages; i++) {
    const params: Record<string, string> = { ...filters, limit: '200' };
    if (next !== undefined && next !== null) params.cursor = String(next);
    ({ next } = await get(scenario, params, i === 0 && cursor === undefined));
    if (next === null) return;
  }
}

function line(label: string, ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(8);
  return `${label.padEnd(30)} ${String(s.length).padStart(5)} ${f(percentile(s, 50))} ${f(percentile(s, 95))} ${f(percentile(s, 99))} ${f(s.at(-1) ?? NaN)}`;
}

const file = arg('db');
if (!file) throw new Error('usage: node --import tsx scripts/bench-api.ts --db PATH [--requests 500] [--generate N]');
const generateCount = arg('generate');
if (!existsSync(file)) {
  if (!generateCount) throw new Error(`${file} does not exist (add --generate N to create a synthetic store there)`);
  generate(file, Number(generateCount));
}
const budget = Number(arg('requests') ?? '500');

const inProcess = process.argv.includes('--in-process');
const server = inProcess ? await serveOnLoopback((request) => handleApiRequest(request, { RECEIPT_DB: file })) : await serveChild(file);
origin = server.origin;

// Values to filter on, picked from the store through the API itself.
const probe = await get('probe', { limit: '200' }, true);
const first = JSON.parse(probe.text) as Page; // bench only: big integers do not matter for picking values
const total = first.totalCount;
const pick = (key: string) => [...new Set(first.receipts.map((r) => String(r[key])))];
const caps = pick('capability_id');
const subjects = [...new Set(first.receipts.map((r) => String((r.metadata as { attribution?: { subject_key?: string } })?.attribution?.subject_key)))];
const t0 = Number(first.receipts[0]?.timestamp ?? 0);
const span = Math.max(1, Number(first.receipts.at(-1)?.timestamp ?? t0) - t0) * (total / Math.max(1, first.receipts.length));
const window = (from: number, width: number) => ({ since: String(Math.floor(t0 + from * span)), until: String(Math.floor(t0 + (from + width) * span)) });

const scenarios: [string, Record<string, string>][] = [
  ['outcome=deny', { outcome: 'deny' }],
  ['outcome=incomplete', { outcome: 'incomplete' }],
  ['toolServer', { toolServer: pick('tool_server')[0]! }],
  ['toolServer+toolName', { toolServer: pick('tool_server')[0]!, toolName: pick('tool_name')[0]! }],
  ['capabilityId', { capabilityId: caps[0]! }],
  ['capabilityId+outcome', { capabilityId: caps[1] ?? caps[0]!, outcome: 'allow' }],
  ['agentSubject', { agentSubject: subjects[0]! }],
  ['since+until (10%)', window(0.45, 0.1)],
  ['since (last 30%)', { since: window(0.7, 0).since }],
  ['until (first 1%)', { until: window(0.01, 0).since }],
  ['minCost=50000', { minCost: '50000' }],
  ['minCost>2^63 (rare)', { minCost: '9223372036854775808' }],
  ['cost 100..200+deny', { minCost: '100', maxCost: '200', outcome: 'deny' }],
  ['window+toolServer+minCost', { ...window(0.2, 0.3), toolServer: pick('tool_server')[1] ?? pick('tool_server')[0]!, minCost: '1000' }],
];

const unfilteredPages = Math.floor(budget * 0.3);
const randomJumps = Math.floor(budget * 0.2);
const perScenario = Math.max(1, Math.floor((budget - unfilteredPages - randomJumps) / scenarios.length));
const started = performance.now();
await walk('all (cursor walk)', {}, unfilteredPages);
for (const [name, filters] of scenarios) await walk(name, filters, perScenario);
for (let i = 0; i < randomJumps; i++) {
  const [name, filters] =
    i % 2 === 0 ? ['all (random cursor)', {}] : [`${scenarios[i % scenarios.length]![0]} (random cursor)`, scenarios[i % scenarios.length]![1]];
  await walk(name.includes('all') ? name : 'filters (random cursor)', filters, 1, Math.floor(Math.random() * total));
}
const elapsed = performance.now() - started;

const measured = samples.filter((s) => s.scenario !== 'probe');
process.stdout.write(
  `\nstore: ${total} receipts; ${measured.length} requests in ${(elapsed / 1000).toFixed(1)} s; ` +
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), server ${inProcess ? 'in this process' : 'in a child process'}\n\n`,
);
process.stdout.write(
  `${'scenario'.padEnd(30)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}\n`,
);
process.stdout.write(
  `${line(
    'ALL requests',
    measured.map((s) => s.ms),
  )}\n`,
);
process.stdout.write(
  `${line(
    'warm (count cached)',
    measured.filter((s) => !s.cold).map((s) => s.ms),
  )}\n`,
);
process.stdout.write(
  `${line(
    'cold (first page of a filter)',
    measured.filter((s) => s.cold).map((s) => s.ms),
  )}\n\n`,
);
for (const name of [...new Set(measured.map((s) => s.scenario))]) {
  process.stdout.write(
    `${line(
      name,
      measured.filter((s) => s.scenario === name).map((s) => s.ms),
    )}\n`,
  );
}
await server.close();
closeAllStores();
