// `receipt-audit ingest <package|store>… --clickhouse URL [--json]` (issue 9): loads evidence
// packages and Chio SQLite stores of many kernels into the fleet's ClickHouse cluster
// (server/fleet/ingest.ts) and prints a report: per kernel key what was added and what was
// already there, every rejected record with its file and line, and the rate.
// Exit 0 when every record was taken (added or already present), 1 when any was rejected,
// 2 for usage errors and inputs or clusters that cannot be read at all.
import { FleetIngest, type IngestReport } from '../../server/fleet/ingest';

export const INGEST_USAGE = `Usage: receipt-audit ingest <package|store>... --clickhouse URL [--json]

Loads the tool receipts, child receipts, checkpoints and inclusion proofs of
evidence-package folders and Chio SQLite receipt stores (many kernels) into the
fleet's ClickHouse cluster (npm run fleet:up prints its URL). Each receipt's
exported JSON is stored byte for byte; records already in the cluster are
skipped, so ingesting the same package again adds nothing.

  --clickhouse URL  the node holding the Distributed tables (CLICKHOUSE_URL
                    is used when the option is not given)
  --json            print the report as one JSON object

Exit status: 0 every record taken, 1 some rejected, 2 usage or unreadable input.`;

export class IngestUsageError extends Error {}

interface IngestArgs {
  inputs: string[];
  url: string;
  json: boolean;
}

function parseIngestArgs(argv: string[], env: NodeJS.ProcessEnv): IngestArgs | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const args = { inputs: [] as string[], url: env.CLICKHOUSE_URL ?? '', json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') args.json = true;
    else if (a === '--clickhouse') {
      const v = argv[++i];
      if (v === undefined) throw new IngestUsageError('--clickhouse needs a URL');
      args.url = v;
    } else if (a.startsWith('--clickhouse=')) args.url = a.slice('--clickhouse='.length);
    else if (a.startsWith('-')) throw new IngestUsageError(`unknown option ${a}; try: receipt-audit ingest --help`);
    else args.inputs.push(a);
  }
  if (args.inputs.length === 0) throw new IngestUsageError('ingest needs at least one evidence package or store');
  if (!args.url) throw new IngestUsageError('ingest needs --clickhouse URL (the URL npm run fleet:up printed)');
  return args;
}

const num = (n: number) => n.toLocaleString('en-US');

export function formatIngest(report: IngestReport): string {
  const lines: string[] = [];
  let added = 0;
  let present = 0;
  lines.push(`Ingested ${report.kernels.size} kernel${report.kernels.size === 1 ? '' : 's'}:`);
  for (const [key, c] of [...report.kernels].sort(([a], [b]) => (a < b ? -1 : 1))) {
    added += c.toolAdded + c.childAdded;
    present += c.alreadyPresent;
    lines.push(`  ${key}`);
    lines.push(
      `    added: ${num(c.toolAdded)} tool receipts, ${num(c.childAdded)} child receipts, ${num(c.checkpointsAdded)} checkpoints, ${num(c.proofsAdded)} inclusion proofs`,
    );
    if (c.alreadyPresent) lines.push(`    already in the fleet (skipped): ${num(c.alreadyPresent)} records`);
  }
  if (report.rejected.length) {
    lines.push(`Rejected ${num(report.rejected.length)} record${report.rejected.length === 1 ? '' : 's'} (everything else was ingested):`);
    for (const r of report.rejected.slice(0, 50)) lines.push(`  ${r.where}: ${r.reason}`);
    if (report.rejected.length > 50) lines.push(`  … and ${num(report.rejected.length - 50)} more (--json lists them all)`);
  } else lines.push('Rejected: none');
  const rate = report.seconds > 0 ? Math.round(report.receiptsRead / report.seconds) : 0;
  lines.push(
    `${num(report.receiptsRead)} receipts read in ${report.seconds.toFixed(2)} s (${num(rate)} receipts/s): ${num(added)} added, ${num(present)} records already present.`,
  );
  return `${lines.join('\n')}\n`;
}

export function ingestJson(report: IngestReport): string {
  return JSON.stringify({
    kernels: Object.fromEntries([...report.kernels].sort(([a], [b]) => (a < b ? -1 : 1))),
    rejected: report.rejected,
    receiptsRead: report.receiptsRead,
    seconds: Number(report.seconds.toFixed(3)),
    receiptsPerSecond: report.seconds > 0 ? Math.round(report.receiptsRead / report.seconds) : 0,
  });
}

export async function ingestMain(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream, env = process.env): Promise<number> {
  let args: IngestArgs | 'help';
  try {
    args = parseIngestArgs(argv, env);
  } catch (e) {
    if (!(e instanceof IngestUsageError)) throw e;
    err.write(`receipt-audit: ${e.message}\n`);
    return 2;
  }
  if (args === 'help') {
    out.write(`${INGEST_USAGE}\n`);
    return 0;
  }
  let ingest: FleetIngest;
  try {
    ingest = await FleetIngest.open(args.url);
  } catch (e) {
    err.write(`receipt-audit: ${(e as Error).message}\n`);
    return 2;
  }
  let unreadable = 0;
  for (const input of args.inputs) {
    try {
      await ingest.add(input);
    } catch (e) {
      // One unreadable input is named and skipped; the others are still ingested.
      unreadable++;
      err.write(`receipt-audit: ${(e as Error).message}\n`);
    }
  }
  const report = await ingest.finish();
  out.write(args.json ? `${ingestJson(report)}\n` : formatIngest(report));
  return unreadable ? 2 : report.rejected.length ? 1 : 0;
}
