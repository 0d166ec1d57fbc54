// Measures the explorer's filter at scale: builds a RowStore of N synthetic
// receipt rows and times filterRows for typical filters. Prints numbers; asserts nothing.
//
//   npm run bench:filter -- [--rows 1000000]
import { EMPTY_FILTER, type ExplorerFilter, filterRows } from '../lib/query/explorer-filter';
import { RowStore } from '../lib/query/row-store';
import type { ReceiptView } from '../lib/verdict/receipt-view';

const i = process.argv.indexOf('--rows');
const rows = i > 0 ? Number(process.argv[i + 1]) : 1_000_000;
const servers = ['srv-files', 'srv-http', 'srv-shell', 'srv-payments', 'srv-db', 'srv-mail'];
const tools = ['file_read', 'file_write', 'http_get', 'run_command', 'transfer_funds', 'sql_query', 'send_email'];
const decisions = ['allow', 'allow', 'allow', 'allow', 'deny', 'cancelled', 'incomplete'];

const t0 = performance.now();
const store = new RowStore();
for (let start = 0; start < rows; start += 10_000) {
  const batch: ReceiptView[] = [];
  for (let k = start; k < Math.min(rows, start + 10_000); k++) {
    const paid = k % 7 === 0;
    batch.push({
      order: k * 1_000_000,
      id: `rcpt-${k.toString(16).padStart(8, '0')}`,
      type: 'tool',
      generation: k % 10 === 0 ? 'B' : 'A',
      time: 1767225600 + k * 3,
      toolServer: servers[k % servers.length]!,
      toolName: tools[k % tools.length]!,
      decision: decisions[k % decisions.length]!,
      ...(k % decisions.length === 4 ? { guard: 'egress-allowlist', reason: 'blocked host' } : {}),
      capabilityId: `cap-${k % 40}`,
      policyHash: `policy-${Math.floor(k / 100_000)}`,
      trustLevel: 'mediated',
      kernelKey: 'k',
      ...(paid ? { cost: String(k % 5000), currency: k % 2 ? 'USD' : 'EUR', settlement: 'settled' } : {}),
      ...(k % 3 === 0 ? { tenant: `tenant-${k % 5}` } : {}),
      file: 'receipts.ndjson',
      line: k + 1,
    });
  }
  store.append(batch);
}
const built = performance.now() - t0;
const mem = process.memoryUsage();

const cases: [string, Partial<ExplorerFilter>][] = [
  ['no filter (log order)', {}],
  ['decision = deny', { values: { decision: ['deny'] } }],
  ['server + decision', { values: { toolServer: ['srv-payments'], decision: ['allow'] } }],
  ['preset security', { preset: 'security' }],
  ['cost 1000..2000 (exact u64)', { minCost: 1000n, maxCost: 2000n }],
  ['free text "0001f"', { q: '0001f' }],
  ['time window', { since: 1767225600 + 300_000, until: 1767225600 + 600_000 }],
  ['sort by time desc', { sort: { column: 'time', dir: 'desc' } }],
  ['sort by cost desc', { sort: { column: 'cost', dir: 'desc' } }],
  ['sort by tool', { sort: { column: 'toolName', dir: 'asc' } }],
  ['deny, sorted by time desc', { values: { decision: ['deny'] }, sort: { column: 'time', dir: 'desc' } }],
];
process.stdout.write(`RowStore of ${rows.toLocaleString('en-US')} rows built in ${built.toFixed(0)} ms; heap ${Math.round(mem.heapUsed / 1e6)} MB\n`);
for (const [name, extra] of cases) {
  const f = { ...EMPTY_FILTER, ...extra } as ExplorerFilter;
  const times: number[] = [];
  let n = 0;
  for (let r = 0; r < 5; r++) {
    const s = performance.now();
    n = filterRows(store, f).length;
    times.push(performance.now() - s);
  }
  const first = times[0]!;
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${name.padEnd(30)} ${n.toLocaleString('en-US').padStart(10)} rows  first ${first.toFixed(1)} ms  median ${times[2]!.toFixed(1)} ms  min ${times[0]!.toFixed(1)} ms\n`,
  );
}
