// Web Worker entry: the page's messages to one log's verification and back. An
// `open` runs verifyLog (../verify/verify-log.ts) over the page's sources, read by
// the same loader the command line uses (browser-platform.ts is this side's
// adapter), with records checked by a pool of verify workers (one per core), and
// streams progress and receipt rows to the page. The page's main thread only renders.
import { loadSources } from '../sources/load-sources';
import { LineageCollector } from '../sources/lineage';
import { RecordHost } from '../sources/record-host';
import { RowEncoder, deltaTransfer } from '../query/row-encoder';
import { LogVerifier } from '../verify/log-verifier';
import { ReceiptColumnsEncoder, receiptTransfer } from '../verify/receipt-columns';
import { verifiedCheckpoints } from '../verify/verified-checkpoints';
import { verifyLog } from '../verify/verify-log';
import type { DialectOptions } from '../verdict/family';
import { DIALECT_FAMILIES } from '../dialects/families';
import { diffFingerprint } from '../dialects/codewhale/review';
import { TrustStore } from '../trust/trust-store';
import { ServerUnauthorized, browserInputs, browserPlatform, problemOnFailure, serverBase, spawnVerifyWorker, workerCount } from './browser-platform';
import { poolChecker } from './pool';
import {
  type DialectFacts,
  type DialectInputs,
  type FleetPageInfo,
  type LogEvent,
  type LogRequest,
  type LogSource,
  type Progress,
  describeSources,
} from './protocol';
import type { LogSink } from '../verify/log-sink';
import type { ReportReceipt } from '../verdict/report';

type OpenRequest = Extract<LogRequest, { type: 'open' }>;

const post = (m: LogEvent, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);
/** The log being verified (Cancel stops it). */
let verifying: LogVerifier | null = null;
/** The opened sources, kept after `done` so the page can ask for one receipt again. */
let host: RecordHost | null = null;

self.onmessage = (e: MessageEvent<LogRequest>) => {
  if (e.data.type === 'cancel') {
    verifying?.close();
    return;
  }
  if (e.data.type === 'bundle') {
    const { req, query } = e.data;
    const answer = host ? host.bundle(query) : Promise.resolve({ ok: false as const, message: 'the log is not open yet' });
    void answer
      .catch((err: unknown) => ({ ok: false as const, message: err instanceof Error ? err.message : String(err) }))
      .then((a) => post({ type: 'bundle', req, answer: a }));
    return;
  }
  const request = e.data;
  void open(request).catch((err: unknown) => {
    if (err instanceof ServerUnauthorized) post({ type: 'unauthorized', tokenSent: request.serverToken !== undefined });
    else post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  });
};

/** The user's key and diff as the audit takes them (the diff's fingerprint, as CodeWhale computes it). */
async function dialectOptions(inputs: DialectInputs): Promise<DialectOptions> {
  const options: DialectOptions = {};
  if (inputs.hmacKey) options.hmacKey = inputs.hmacKey;
  if (inputs.diff) {
    const bytes = new Uint8Array(await inputs.diff.data.arrayBuffer());
    options.diff = { name: inputs.diff.name, fingerprint: diffFingerprint(bytes, inputs.diff.maxChars) };
  }
  return options;
}

/** The open log's byte counts and clock, for the page's progress bar. */
class Reading {
  private readonly started = performance.now();
  bytesRead = 0;
  bytesTotal: number | null = 0;
  readonly count = (n: number) => {
    this.bytesRead += n;
  };

  /** Picked files' sizes are known; a URL's or this server's are not. */
  begin(source: LogSource): void {
    if (source.kind !== 'files') this.bytesTotal = null;
    else for (const f of source.files) this.bytesTotal = (this.bytesTotal ?? 0) + f.file.size;
  }

  progress(v: LogVerifier, phase: Progress['phase']): Progress {
    const { bytesRead, bytesTotal } = this;
    const elapsedMs = Math.round(performance.now() - this.started);
    return { bytesRead, bytesTotal, recordsRead: v.recordsRead, recordsVerified: v.recordsVerified, workers: v.workers, elapsedMs, phase };
  }
}

/** The orchestrator for one `open`: the pinned keys, a verify worker per core, rows to `rows`, what this browser remembers. */
async function verifierFor({ trust, dialect, remembered }: OpenRequest, rows: RowEncoder): Promise<LogVerifier> {
  const pinned = TrustStore.create(trust);
  if (!pinned.ok) throw new Error(pinned.error);
  const v = new LogVerifier({
    trust: pinned.store,
    checker: poolChecker(spawnVerifyWorker, { workers: workerCount() }),
    families: DIALECT_FAMILIES,
    onViews: (views) => rows.add(views),
    dialect: await dialectOptions(dialect ?? {}),
  });
  v.setRemembered(new Map((remembered ?? []).map((m) => [m.key, { checkpointSeq: m.checkpointSeq, batchEndSeq: m.batchEndSeq }])));
  return v;
}

async function open(request: OpenRequest): Promise<void> {
  const { sources, serverToken } = request;
  host?.close();
  // Where a shared receipt came from, as its recipient can read it: this server by its address.
  const h = new RecordHost(describeSources(sources, { files: 'names', server: serverBase() }));
  host = h;
  const reading = new Reading();
  // The explorer's rows are encoded here, off the page's main thread, and sent as typed arrays.
  const rows = new RowEncoder();
  const sendRows = () => {
    const delta = rows.take();
    if (delta) post({ type: 'rows', delta }, deltaTransfer(delta));
  };
  const v = await verifierFor(request, rows);
  verifying = v;
  const timer = setInterval(() => {
    sendRows();
    post({ type: 'progress', progress: reading.progress(v, 'reading') });
  }, 200);
  // Capability lineage rides beside the verified log as unsigned context (the DAG view).
  const lineage = new LineageCollector();
  const apiInit: RequestInit = serverToken !== undefined ? { headers: { authorization: `Bearer ${serverToken}` } } : {};
  const onFleet = (page: FleetPageInfo) => post({ type: 'fleet', page });
  const load = async (sink: LogSink) => {
    for (const [i, source] of sources.entries()) {
      reading.begin(source);
      const isolate = problemOnFailure(sink, () => v.broken, source.kind === 'server');
      const inputs = await browserInputs(source, i, apiInit, onFleet);
      await loadSources(inputs, sink, { platform: browserPlatform, count: reading.count, keep: h, lineage, isolate });
    }
    post({ type: 'progress', progress: reading.progress(v, 'assembling') });
  };
  // The report's receipts go straight into columns: a million report objects never exist at once.
  let columns: ReceiptColumnsEncoder | null = null;
  const toColumns = (r: ReportReceipt) => {
    const dialectCount = v.dialectAudit?.receipts.length ?? 0;
    columns ??= new ReceiptColumnsEncoder(v.receiptCount + dialectCount, dialectCount > 0);
    columns.add(r);
  };
  try {
    const report = await verifyLog(v, load, toColumns);
    clearInterval(timer);
    sendRows();
    const receipts = (columns ?? new ReceiptColumnsEncoder()).finish();
    // The whole-log state is not needed after this (a shared receipt is read again from `host`).
    if (verifying === v) verifying = null;
    const done = { report, receipts, progress: reading.progress(v, 'done'), verifiedCheckpoints: verifiedCheckpoints(v.checkpointEntries) };
    post({ type: 'done', ...done, lineage: lineage.result(), dialectFacts: dialectFacts(v) }, receiptTransfer(receipts));
  } finally {
    clearInterval(timer);
  }
}

/** The ZeroClaw and CodeWhale receipts' labelled facts, for their pages. */
function dialectFacts(v: LogVerifier): DialectFacts[] {
  return (v.dialectAudit?.receipts ?? []).map((r) => ({ id: r.report.id, type: r.report.type, file: r.report.file, line: r.report.line, facts: r.facts }));
}
