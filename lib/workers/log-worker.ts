// Web Worker entry: opens the log's sources, splits them into records with the
// same loaders the command line uses, hands the records to a pool of verify
// workers (one per core) and assembles the report, streaming progress and
// receipt rows to the page. The page's main thread only renders.
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { loadFile, loadPackage } from '../sources/package';
import { openChioStore } from '../sources/sqlite-store';
import { sqliteTooLarge } from '../sources/sqlite-size';
import { RecordHost } from '../sources/record-host';
import { loadStore } from '../sources/store';
import { makeProblem } from '../verdict/problems';
import { sha256Ready } from '../crypto/sha256';
import { RowEncoder, deltaTransfer } from '../query/row-store';
import type { LogSink } from '../verify/log-sink';
import { LineageCollector } from '../sources/lineage';
import { verifiedCheckpoints } from '../verify/verified-checkpoints';
import { ReceiptColumnsEncoder, receiptTransfer } from '../verify/receipt-columns';
import { HttpStatusError, fileSource, groupFiles, packageDir, urlPackageDir } from './browser-sources';
import { chunksOf } from './chunks';
import { loadFleetPage, splitFleetPage } from '../sources/fleet-page';
import { type WorkerLike, VerifyPool } from './pool';
import {
  type DialectFacts,
  type DialectInputs,
  type LogEvent,
  type LogRequest,
  type LogSource,
  type Progress,
  type RememberedBatchOf,
  describeSources,
} from './protocol';
import type { DialectOptions } from '../verdict/family';
import { diffFingerprint } from '../dialects/codewhale/review';

const post = (m: LogEvent, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);
let pool: VerifyPool | null = null;
/** The opened sources, kept after `done` so the page can ask for one receipt again. */
let host: RecordHost | null = null;
const uncounted = () => undefined;
let sql: Promise<SqlJsStatic> | null = null;

function sqlJs(): Promise<SqlJsStatic> {
  sql ??= initSqlJs({ locateFile: () => '/vendor/sql-wasm-browser.wasm' });
  return sql;
}

function workerCount(): number {
  const cores = (self as unknown as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.min(8, cores));
}

/** This server's API answered 401: the session ends and the page asks for a token (not a problem in the log). */
class ServerUnauthorized extends Error {}

self.onmessage = (e: MessageEvent<LogRequest>) => {
  if (e.data.type === 'cancel') {
    pool?.terminate();
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
  const { sources, trust, serverToken, dialect, remembered } = e.data;
  void open(sources, trust, serverToken, dialect ?? {}, remembered ?? []).catch((err: unknown) => {
    if (err instanceof ServerUnauthorized) post({ type: 'unauthorized', tokenSent: serverToken !== undefined });
    else post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  });
};

/** A URL of a package folder (ends with `/` or `manifest.json`), a SQLite store, or an NDJSON/JSON file. */
async function loadUrl(url: string, p: LogSink, space: string, count: (n: number) => void, h: RecordHost, lineage: LineageCollector): Promise<void> {
  const u = new URL(url, self.location.href);
  const name = decodeURIComponent(u.pathname.split('/').pop() || u.host);
  if (u.pathname.endsWith('/') || name === 'manifest.json') {
    await loadPackage(urlPackageDir(new URL('.', u).href, count), p, space);
    h.addPackage(urlPackageDir(new URL('.', u).href, uncounted), url);
    return;
  }
  const res = await fetch(u);
  if (!res.ok || !res.body) throw new Error(`${u.href}: HTTP ${res.status}`);
  if (/\.(sqlite3?|db)$/i.test(name)) {
    const announced = Number(res.headers.get('content-length') ?? 0);
    const tooLarge = sqliteTooLarge(name, announced, 'page');
    if (tooLarge) throw new Error(tooLarge);
    const db = new Uint8Array(await res.arrayBuffer());
    count(db.length);
    const opened = openChioStore(await sqlJs(), db);
    if (!opened.ok) throw new Error(`${name}: ${opened.message}`);
    h.addStore(name, opened.store, url);
    await loadStore(opened.store, name, p, space);
    lineage.addSet(opened.store.capabilityLineage(name));
    return;
  }
  const body = res.body;
  await loadFile({ name, stream: () => chunksOf(body, count) }, p, 'files', name);
  h.addFile(
    {
      name,
      async *stream() {
        const again = await fetch(u);
        if (!again.ok || !again.body) throw new Error(`${u.href}: HTTP ${again.status}`);
        yield* chunksOf(again.body, uncounted);
      },
    },
    name,
    url,
  );
}

/**
 * A page of this server's fleet: split per kernel (lib/sources/fleet-page.ts), each kernel's
 * receipts, checkpoints and proofs read as files of its own log. Its index figures go to the page.
 */
async function fetchFleetPage(url: string, init: RequestInit, p: LogSink, space: string, count: (n: number) => void, h: RecordHost): Promise<void> {
  const res = await fetch(url, init);
  if (res.status === 401) throw new ServerUnauthorized();
  const text = await res.text();
  count(text.length);
  if (!res.ok) {
    let why = `HTTP ${res.status}`;
    try {
      const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
      if (typeof message === 'string') why += `: ${message}`;
    } catch {
      // not our error body: the status says enough
    }
    throw new Error(why);
  }
  const split = splitFleetPage(text);
  if (!split.ok) throw new Error(`not a fleet page: ${split.message}`);
  const { page } = split;
  post({
    type: 'fleet',
    page: {
      totalCount: page.totalCount,
      nextCursor: page.nextCursor,
      receipts: page.receipts,
      kernels: page.groups.map((g) => ({ kernelKey: g.kernelKey, receipts: g.receipts })),
    },
  });
  for (const file of await loadFleetPage(page, p, space)) h.addFile(file, file.name, url);
}

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

async function open(
  sources: LogSource[],
  trust: Extract<LogRequest, { type: 'open' }>['trust'],
  serverToken: string | undefined,
  inputs: DialectInputs,
  remembered: RememberedBatchOf[],
): Promise<void> {
  const started = performance.now();
  host?.close();
  await sha256Ready();
  // Where a shared receipt came from, as its recipient can read it: this server by its address.
  const h = new RecordHost(describeSources(sources, { files: 'names', server: new URL('/v1/evidence/package/', self.location.href).href }));
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
  const p = new VerifyPool(() => new Worker(new URL('./verify-worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike, {
    workers: workerCount(),
    trust,
    onOutput: (out) => rows.add(out.views),
  });
  pool = p;
  p.setRemembered(new Map(remembered.map((m) => [m.key, { checkpointSeq: m.checkpointSeq, batchEndSeq: m.batchEndSeq }])));
  // Capability lineage rides beside the verified log as unsigned context: the
  // records still go to the pool (which only classifies them), and a copy is kept.
  const lineage = new LineageCollector();
  const sink: Required<Pick<LogSink, 'beginSource'>> & LogSink = {
    addRecord(text, origin, at) {
      if (origin.role === 'lineage') lineage.addText(text, origin.file);
      return p.addRecord(text, origin, at);
    },
    addProblem: (problem) => p.addProblem(problem),
    addPackage: (pkg, problems) => p.addPackage(pkg, problems),
    setSpaceNote: (space, note) => p.setSpaceNote(space, note),
    beginSource: (name) => p.beginSource(name),
  };
  const progress = (phase: Progress['phase']): Progress => ({
    bytesRead,
    bytesTotal,
    recordsRead: p.recordsRead,
    recordsVerified: p.recordsVerified,
    workers: p.workers,
    elapsedMs: Math.round(performance.now() - started),
    phase,
  });
  const flush = () => {
    sendRows();
    post({ type: 'progress', progress: progress('reading') });
  };
  const timer = setInterval(flush, 200);
  try {
    // One unreadable file or unreachable source is a problem naming it; the rest still loads.
    // A failure of the verify workers themselves (or Cancel) still ends the session.
    const isolated = async (name: string, load: () => Promise<void>) => {
      try {
        await load();
      } catch (err) {
        if (p.broken || err instanceof ServerUnauthorized) throw err;
        const why = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
        p.addProblem(makeProblem('parse_error', `${name} could not be read (${why}); the rest of the log was verified without it`, { file: name }));
      }
    };
    // The token goes only to this origin's API, as a header (never in a URL, so never in a log or a Referer).
    const apiInit: RequestInit = serverToken !== undefined ? { headers: { authorization: `Bearer ${serverToken}` } } : {};
    for (const [i, source] of sources.entries()) {
      const space = `source:${i}`;
      if (source.kind === 'files') {
        for (const f of source.files) bytesTotal = (bytesTotal ?? 0) + f.file.size;
        for (const [j, group] of (await groupFiles(source.files)).entries()) {
          const s = `${space}:${j}`;
          // Each picked folder, store or file is a source of its own: receipts are addressed by it.
          const named = group.kind === 'package' ? group.dir : group.name;
          sink.beginSource(named);
          if (group.kind === 'package') {
            await isolated(group.dir, async () => {
              await loadPackage(packageDir(group, count), sink, s);
              h.addPackage(packageDir(group, uncounted), named);
            });
          } else if (group.kind === 'file') {
            await isolated(group.name, async () => {
              await loadFile(fileSource(group.file, group.name, count), sink, 'files', group.name);
              h.addFile(fileSource(group.file, group.name, uncounted), group.name, named);
            });
          } else {
            await isolated(group.name, async () => {
              const tooLarge = sqliteTooLarge(group.name, group.db.size + (group.wal?.size ?? 0), 'page');
              if (tooLarge) {
                p.addProblem(makeProblem('parse_error', tooLarge, { file: group.name }));
                return;
              }
              const db = new Uint8Array(await group.db.arrayBuffer());
              const wal = group.wal ? new Uint8Array(await group.wal.arrayBuffer()) : undefined;
              count(db.length + (wal?.length ?? 0));
              const opened = openChioStore(await sqlJs(), db, wal && wal.length > 0 ? wal : undefined);
              if (!opened.ok) p.addProblem(makeProblem('parse_error', `${group.name}: ${opened.message}`, { file: group.name }));
              else {
                h.addStore(group.name, opened.store, named);
                await loadStore(opened.store, group.name, sink, s);
                lineage.addSet(opened.store.capabilityLineage(group.name));
              }
            });
          }
        }
      } else if (source.kind === 'server') {
        bytesTotal = null;
        const base = new URL('/v1/evidence/package/', self.location.href).href;
        sink.beginSource(base);
        await isolated(base, async () => {
          try {
            await loadPackage(urlPackageDir(base, count, apiInit), sink, space);
          } catch (err) {
            throw err instanceof HttpStatusError && err.status === 401 ? new ServerUnauthorized() : err;
          }
          h.addPackage(urlPackageDir(base, uncounted, apiInit), base);
        });
      } else if (source.kind === 'fleet') {
        bytesTotal = null;
        const url = new URL(`/v1/receipts/query?${source.query}`, self.location.href).href;
        sink.beginSource(url);
        await isolated(url, () => fetchFleetPage(url, apiInit, sink, space, count, h));
      } else {
        bytesTotal = null;
        sink.beginSource(source.url);
        await isolated(source.url, () => loadUrl(source.url, sink, space, count, h, lineage));
      }
    }
    post({ type: 'progress', progress: progress('assembling') });
    // The report's receipts go straight into columns: a million report objects never exist at once.
    let columns: ReceiptColumnsEncoder | null = null;
    let dialectFacts: DialectFacts[] = [];
    let dialectCount = 0;
    const report = await p.finish(
      trust.length > 0,
      (r) => (columns ??= new ReceiptColumnsEncoder(p.receiptCount + dialectCount, dialectCount > 0)).add(r),
      await dialectOptions(inputs),
      (audit) => {
        // ZeroClaw and CodeWhale receipts are judged only now: their rows join the explorer's in log order.
        dialectCount = audit.receipts.length;
        if (dialectCount > 0) rows.add(audit.receipts.map((r) => r.view));
        dialectFacts = audit.receipts.map((r) => ({ id: r.report.id, type: r.report.type, file: r.report.file, line: r.report.line, facts: r.facts }));
      },
    );
    clearInterval(timer);
    sendRows();
    const receipts = (columns ?? new ReceiptColumnsEncoder()).finish();
    const checkpoints = verifiedCheckpoints(p.checkpointEntries);
    // The whole-log state is not needed after this (a shared receipt is read again from `host`).
    if (pool === p) pool = null;
    post(
      { type: 'done', report, receipts, progress: progress('done'), verifiedCheckpoints: checkpoints, lineage: lineage.result(), dialectFacts },
      receiptTransfer(receipts),
    );
  } finally {
    clearInterval(timer);
  }
}
