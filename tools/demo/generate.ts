// Deterministic demo producer: writes a signed, verifying Chio receipt store (DIR/receipts.sqlite3) from a seed; library and CLI.
//
//   node --import tsx tools/demo/generate.ts --count 2000 [--seed S] --out DIR
//
// Receipts are produced, signed and written one at a time in time order (tool and child
// receipts interleaved, as a live kernel logs them); memory holds only the open checkpoint
// batch, the budgets and the few open sessions, so the count can go to millions.
import { createHash } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECKPOINT_V2_FRACTION, Checkpointer } from './checkpoints';
import { type BridgedCall, TRANSCRIPT_FILE, claudeCodeTranscript } from './transcript';
import { DemoModel, type ToolEvent } from './model';
import { signChildReceipt, signToolReceipt } from './receipts';
import { DEMO_SEED_DEFAULT, demoKernelKey } from './sign';
import { StoreWriter } from './write-store';

export { DEMO_SEED_DEFAULT, demoKernelKeyHex } from './sign';

export const STORE_FILE = 'receipts.sqlite3';

export interface GenerateOptions {
  count: number;
  seed?: string | number;
  /** Output folder; created if missing. The store is `out/receipts.sqlite3`. */
  out: string;
  /** Called every `progressEvery` tool receipts (default 100,000). */
  onProgress?: (toolReceipts: number) => void;
  progressEvery?: number;
  /** Tool receipts per checkpoint (default 100, the live kernel's); tests use small batches. */
  checkpointEvery?: number;
}

export interface DemoCounts {
  toolReceipts: number;
  childReceipts: number;
  checkpoints: number;
  /** Of them, `chio.checkpoint_statement.v2` (after the midway kernel upgrade). */
  checkpointsV2: number;
  /** Tool calls a Claude Code agent made through chio-bridge, in `claude-code-session.jsonl` beside the store. */
  bridgedCalls: number;
  /** Tool receipts after the last checkpoint. */
  uncheckpointedTail: number;
  /** capability_lineage rows (initial capabilities plus renewals). */
  capabilities: number;
  sessions: number;
  /** Tool receipts linked to a tool_call child request (metadata.governed_transaction.call_chain). */
  sessionToolReceipts: number;
  decisions: { allow: number; deny: number; cancelled: number; incomplete: number; none: number };
  generations: { A: number; B: number };
  receiptKinds: { mediated_decision: number; trace_observation: number; advisory_evaluation: number };
  financialReceipts: number;
  /** Distinct (capability_id, grant_index) budgets among the financial receipts. */
  budgetGroups: number;
  budgetDenials: number;
  oracleReceipts: number;
  tenantReceipts: number;
  /** What the financial receipts add up to per currency, in minor units (for the finance view's tests). */
  money: Record<string, MoneyCounts>;
  /** Sum of oracle_evidence.original_cost_units (wei). */
  oracleOriginalUnits: bigint;
}

export interface MoneyCounts {
  receipts: number;
  /** cost_charged in total and per settlement status. */
  charged: bigint;
  settled: bigint;
  pending: bigint;
  failed: bigint;
  /** attempted_cost of the budget denials. */
  attempted: bigint;
  denials: number;
}

export interface GenerateResult {
  storePath: string;
  kernelKeyHex: string;
  counts: DemoCounts;
}

function emptyCounts(): DemoCounts {
  return {
    toolReceipts: 0,
    childReceipts: 0,
    checkpoints: 0,
    checkpointsV2: 0,
    bridgedCalls: 0,
    uncheckpointedTail: 0,
    capabilities: 0,
    sessions: 0,
    sessionToolReceipts: 0,
    decisions: { allow: 0, deny: 0, cancelled: 0, incomplete: 0, none: 0 },
    generations: { A: 0, B: 0 },
    receiptKinds: { mediated_decision: 0, trace_observation: 0, advisory_evaluation: 0 },
    financialReceipts: 0,
    budgetGroups: 0,
    budgetDenials: 0,
    oracleReceipts: 0,
    tenantReceipts: 0,
    money: {},
    oracleOriginalUnits: 0n,
  };
}

function tally(c: DemoCounts, ev: ToolEvent, groups: Set<string>): void {
  c.toolReceipts++;
  c.decisions[ev.decision?.verdict ?? 'none']++;
  c.generations[ev.generation]++;
  c.receiptKinds[ev.kind]++;
  if (ev.session) c.sessionToolReceipts++;
  if (ev.cap.agent.org.tenantId) c.tenantReceipts++;
  if (ev.financial) {
    c.financialReceipts++;
    groups.add(`${ev.cap.id}\u0000${ev.grantIndex}`);
    if (ev.decision?.guard === 'budget') c.budgetDenials++;
    if (ev.financial.oracle_evidence) c.oracleReceipts++;
    tallyMoney(c, ev.financial);
  }
}

function tallyMoney(c: DemoCounts, f: Record<string, unknown>): void {
  const currency = f.currency as string;
  const m = (c.money[currency] ??= { receipts: 0, charged: 0n, settled: 0n, pending: 0n, failed: 0n, attempted: 0n, denials: 0 });
  const charged = f.cost_charged as bigint;
  m.receipts++;
  m.charged += charged;
  const status = f.settlement_status as string;
  if (status === 'settled' || status === 'pending' || status === 'failed') m[status] += charged;
  if (f.attempted_cost !== undefined) {
    m.denials++;
    m.attempted += f.attempted_cost as bigint;
  }
  const oracle = f.oracle_evidence as { original_cost_units: bigint } | undefined;
  if (oracle) c.oracleOriginalUnits += oracle.original_cost_units;
}

/** Writes the demo store for `count` tool receipts; the same seed and count give the same store contents. */
/** How many of the Gen B calls a Claude Code agent made through chio-bridge (claude-code-session.jsonl). */
const BRIDGED_CALLS = 6;

/** The demo Claude Code session's id: a UUID derived from the seed (deterministic, as everything here). */
function demoSessionId(seed: string): string {
  const h = createHash('sha256').update(`claude-code-session:${seed}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function generateDemoStore(options: GenerateOptions): Promise<GenerateResult> {
  const { count } = options;
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
  const seed = String(options.seed ?? DEMO_SEED_DEFAULT);
  mkdirSync(options.out, { recursive: true });
  const storePath = path.join(options.out, STORE_FILE);
  const kernel = demoKernelKey(seed);
  const counts = emptyCounts();
  const groups = new Set<string>();
  const every = options.progressEvery ?? 100_000;

  const store = new StoreWriter(storePath);
  try {
    const model = new DemoModel(count, seed, (row) => {
      store.addLineage(row);
      counts.capabilities++;
    });
    const checkpointer = new Checkpointer(kernel, options.checkpointEvery, Math.floor(count * CHECKPOINT_V2_FRACTION));
    const writeChild = (e: Parameters<typeof signChildReceipt>[0]) => {
      store.addChild(signChildReceipt(e, kernel));
      counts.childReceipts++;
    };
    const bridged: BridgedCall[] = [];
    const sessionId = demoSessionId(seed);
    for (let seq = 1; seq <= count; seq++) {
      const ev = model.next(seq);
      // Children that ended before this tool receipt go first: the log stays in time order.
      for (const child of model.sessions.takeBefore(ev.timestamp)) writeChild(child);
      // The first allowed Gen B calls outside sessions and payments are a Claude Code agent's, through chio-bridge.
      const viaBridge =
        bridged.length < BRIDGED_CALLS &&
        ev.generation === 'B' &&
        ev.kind === 'mediated_decision' &&
        ev.decision?.verdict === 'allow' &&
        ev.output !== null &&
        !ev.session &&
        !ev.financial;
      if (viaBridge) ev.bridge = { requestId: `${sessionId}:${createHash('sha256').update(ev.nonce).digest('hex')}` };
      const signed = signToolReceipt(ev, kernel);
      if (viaBridge && signed.result !== undefined) {
        bridged.push({
          rawJson: signed.row.rawJson,
          receiptId: signed.row.receiptId,
          contentHash: signed.row.contentHash,
          requestId: ev.bridge!.requestId,
          toolName: ev.tool.tool,
          parameters: ev.parameters,
          result: signed.result,
          timestamp: ev.timestamp,
        });
      }
      store.addTool(signed.row);
      tally(counts, ev, groups);
      const checkpoint = checkpointer.add(seq, signed.leaf, ev.timestamp);
      if (checkpoint) store.addCheckpoint(checkpoint);
      if (options.onProgress && seq % every === 0) options.onProgress(seq);
      if (seq % 10_000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    for (const child of model.sessions.drain()) writeChild(child);
    if (bridged.length > 0) writeFileSync(path.join(options.out, TRANSCRIPT_FILE), claudeCodeTranscript(bridged, sessionId));
    counts.bridgedCalls = bridged.length;
    counts.checkpoints = checkpointer.count;
    counts.checkpointsV2 = checkpointer.v2;
    counts.uncheckpointedTail = checkpointer.tail;
    counts.sessions = model.sessions.opened;
    counts.budgetGroups = groups.size;
  } finally {
    store.close();
  }
  return { storePath, kernelKeyHex: kernel.publicHex, counts };
}

/**
 * The store's evidence package, exported exactly as the server exports it
 * (server/store/export.ts), with `exportedAt` taken from the store file.
 */
export async function exportDemoPackage(storePath: string, pkgDir: string): Promise<void> {
  const { openStore, closeAllStoreHandles } = await import('../../server/store/store-handle');
  const { writeEvidencePackage } = await import('../../server/store/export');
  try {
    await writeEvidencePackage(openStore(storePath), storePath, pkgDir, {}, Math.floor(statSync(storePath).mtimeMs / 1000));
  } finally {
    closeAllStoreHandles();
  }
}

/** Parses `--name value` flags. */
export function cliArg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const count = Number(cliArg(argv, 'count'));
  const out = cliArg(argv, 'out');
  if (!Number.isSafeInteger(count) || count < 1 || !out) {
    process.stderr.write('usage: node --import tsx tools/demo/generate.ts --count N [--seed S] --out DIR [--no-package]\n');
    return 2;
  }
  const seed = cliArg(argv, 'seed') ?? DEMO_SEED_DEFAULT;
  const started = process.hrtime.bigint();
  const result = await generateDemoStore({ count, seed, out, onProgress: (n) => process.stderr.write(`  ${n.toLocaleString('en-US')} tool receipts…\n`) });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const c = result.counts;
  let packageLine = 'evidence package: skipped (--no-package)';
  if (!argv.includes('--no-package')) {
    const pkg = path.join(out, 'package');
    const t0 = Date.now();
    await exportDemoPackage(result.storePath, pkg);
    packageLine = `evidence package ${pkg} in ${((Date.now() - t0) / 1000).toFixed(1)} s (npx receipt-audit verify ${pkg} --trust-key ${result.kernelKeyHex})`;
  }
  process.stdout.write(
    [
      `wrote ${result.storePath} in ${seconds.toFixed(1)} s (seed ${JSON.stringify(seed)})`,
      `demo kernel key ${result.kernelKeyHex}`,
      `tool receipts ${c.toolReceipts} (Gen A ${c.generations.A}, Gen B ${c.generations.B}: ${c.receiptKinds.trace_observation} trace, ${c.receiptKinds.advisory_evaluation} advisory)`,
      `decisions allow ${c.decisions.allow}, deny ${c.decisions.deny}, cancelled ${c.decisions.cancelled}, incomplete ${c.decisions.incomplete}, none ${c.decisions.none}`,
      `child receipts ${c.childReceipts} in ${c.sessions} sessions (${c.sessionToolReceipts} tool receipts linked)`,
      `Claude Code session: ${c.bridgedCalls} tool calls through chio-bridge in ${path.join(out, TRANSCRIPT_FILE)}`,
      `checkpoints ${c.checkpoints} (${c.checkpoints - c.checkpointsV2} v1, then ${c.checkpointsV2} v2 after the upgrade), uncheckpointed tail ${c.uncheckpointedTail}`,
      `financial receipts ${c.financialReceipts} in ${c.budgetGroups} budgets (${c.budgetDenials} budget denials, ${c.oracleReceipts} with oracle evidence)`,
      `capabilities ${c.capabilities}, tenant receipts ${c.tenantReceipts}`,
      `verify: npx receipt-audit verify ${result.storePath} --trust-key ${result.kernelKeyHex}`,
      packageLine,
    ].join('\n') + '\n',
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
