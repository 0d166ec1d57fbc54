// Web Worker entry: the page's messages to one log's verification and back. An
// `open` runs verifyLog (../verify/verify-log.ts) over the page's sources, read by
// the same loader the command line uses (browser-platform.ts is this side's
// adapter), with records checked by a pool of verify workers (one per core), and
// streams progress and receipt rows to the page. The page's main thread only renders.
import { loadSources } from '../sources/load-sources';
import { LineageCollector } from '../sources/lineage';
import { RecordHost } from '../sources/record-host';
import { RowEncoder, deltaTransfer } from '../query/row-store';
import { LogVerifier } from '../verify/log-verifier';
import { ReceiptColumnsEncoder, receiptTransfer } from '../verify/receipt-columns';
import { verifiedCheckpoints } from '../verify/verified-checkpoints';
import { verifyLog } from '../verify/verify-log';
import type { DialectOptions } from '../dialects/audit';
import { diffFingerprint } from '../dialects/codewhale/review';
import { TrustStore } from '../trust/trust-store';
import { ServerUnauthorized, browserInputs, browserPlatform, problemOnFailure, serverBase, spawnVerifyWorker, workerCount } from './browser-platform';
import { poolChecker } from './pool';
import { type DialectFacts, type DialectInputs, type LogEvent, type LogRequest, type Progress, describeSources } from './protocol';

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

async function open({ sources, trust, serverToken, dialect, remembered }: OpenRequest): Promise<void> {
  const started = performance.now();
  host?.close();
  // Where a shared receipt came from, as its recipient can read it: this server by its address.
  const h = new RecordHost(describeSources(sources, { files: 'names', server: serverBase() }));
  host = h;
  let bytesRead = 0;
  let bytesTotal: number | null = 0;
  const count = (n: number) => (bytesRead += n);
  // The explorer's rows are encoded here, off the page's main thread, and sent as typed arrays.
  const rows = new RowEncoder();
  const sendRows = () => {
    const delta = rows.take();
    if (delta) post({ type: 'rows', delta }, deltaTransfer(delta));
  };
  const pinned = TrustStore.create(trust);
  if (!pinned.ok) throw new Error(pinned.error);
  const v = new LogVerifier({
    trust: pinned.store,
    checker: poolChecker(spawnVerifyWorker, { workers: workerCount() }),
    onViews: (views) => rows.add(views),
    dialect: await dialectOptions(dialect ?? {}),
  });
  verifying = v;
  v.setRemembered(new Map((remembered ?? []).map((m) => [m.key, { checkpointSeq: m.checkpointSeq, batchEndSeq: m.batchEndSeq }])));
  const progress = (phase: Progress['phase']): Progress => ({
    bytesRead,
    bytesTotal,
    recordsRead: v.recordsRead,
    recordsVerified: v.recordsVerified,
    workers: v.workers,
    elapsedMs: Math.round(performance.now() - started),
    phase,
  });
  const timer = setInterval(() => {
    sendRows();
    post({ type: 'progress', progress: progress('reading') });
  }, 200);
  // Capability lineage rides beside the verified log as unsigned context (the DAG view).
  const lineage = new LineageCollector();
  const apiInit: RequestInit = serverToken !== undefined ? { headers: { authorization: `Bearer ${serverToken}` } } : {};
  const onFleet = (page: Extract<LogEvent, { type: 'fleet' }>['page']) => post({ type: 'fleet', page });
  // The report's receipts go straight into columns: a million report objects never exist at once.
  let columns: ReceiptColumnsEncoder | null = null;
  const toColumns = (dialectCount: number) => new ReceiptColumnsEncoder(v.receiptCount + dialectCount, dialectCount > 0);
  try {
    const report = await verifyLog(
      v,
      async (sink) => {
        for (const [i, source] of sources.entries()) {
          if (source.kind !== 'files') bytesTotal = null;
          else for (const f of source.files) bytesTotal = (bytesTotal ?? 0) + f.file.size;
          const isolate = problemOnFailure(sink, () => v.broken, source.kind === 'server');
          await loadSources(await browserInputs(source, i, apiInit, onFleet), sink, { platform: browserPlatform, count, keep: h, lineage, isolate });
        }
        post({ type: 'progress', progress: progress('assembling') });
      },
      (r) => {
        columns ??= toColumns(v.dialectAudit?.receipts.length ?? 0);
        columns.add(r);
      },
    );
    clearInterval(timer);
    sendRows();
    const receipts = (columns ?? new ReceiptColumnsEncoder()).finish();
    const dialectFacts: DialectFacts[] = (v.dialectAudit?.receipts ?? []).map((r) => ({
      id: r.report.id,
      type: r.report.type,
      file: r.report.file,
      line: r.report.line,
      facts: r.facts,
    }));
    // The whole-log state is not needed after this (a shared receipt is read again from `host`).
    if (verifying === v) verifying = null;
    const checkpoints = verifiedCheckpoints(v.checkpointEntries);
    post(
      { type: 'done', report, receipts, progress: progress('done'), verifiedCheckpoints: checkpoints, lineage: lineage.result(), dialectFacts },
      receiptTransfer(receipts),
    );
  } finally {
    clearInterval(timer);
  }
}
