// The browser's adapter for the source loader (../sources/load-sources.ts) and the
// verify pool: the page's sources (picked files, a URL, this server's store, a
// fleet page) as LogInputs over File and fetch, sql.js with its wasm served by the
// app, Web Workers, and the page's policy that one unreadable source is a problem
// while the rest still loads. Runs in the log worker; everything fetched is untrusted.
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import type { Counter, LogInput, SourcePlatform, StoreBytes } from '../sources/load-sources';
import { splitFleetPage } from '../sources/fleet-page';
import type { LogSink } from '../verify/log-sink';
import { makeProblem } from '../verdict/problems';
import { HttpStatusError, fileSource, groupFiles, packageDir, urlPackageDir } from './browser-sources';
import { chunksOf } from './chunks';
import type { WorkerLike } from './pool';
import type { FleetPageInfo, LogSource } from './protocol';

/** This server's API answered 401: the session ends and the page asks for a token (not a problem in the log). */
export class ServerUnauthorized extends Error {}

let sql: Promise<SqlJsStatic> | null = null;

export const browserPlatform: SourcePlatform = {
  sqliteLimit: 'page',
  sqlJs() {
    sql ??= initSqlJs({ locateFile: () => '/vendor/sql-wasm-browser.wasm' });
    return sql;
  },
  url: urlInput,
};

/** Verify workers: one per core, 1 to 8. */
export function workerCount(): number {
  const cores = (self as unknown as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.min(8, cores));
}

export function spawnVerifyWorker(): WorkerLike {
  return new Worker(new URL('./verify-worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike;
}

/** The API's base: this server's log is named by its address. */
export const serverBase = (): string => new URL('/v1/evidence/package/', self.location.href).href;

/**
 * The inputs of the page's `i`th source. Picked files are grouped: each folder, store or file is a
 * source of its own. `apiInit`: the token goes only to this origin's API, as a header (never in a
 * URL, so never in a log or a Referer). `onFleet`: a fleet page's index figures, once it is read.
 */
export async function browserInputs(source: LogSource, i: number, apiInit: RequestInit, onFleet: (page: FleetPageInfo) => void): Promise<LogInput[]> {
  const space = `source:${i}`;
  if (source.kind === 'files') {
    return (await groupFiles(source.files)).map((group, j): LogInput => {
      const s = `${space}:${j}`;
      if (group.kind === 'package') return { kind: 'package', name: group.dir, space: s, dir: (count) => packageDir(group, count) };
      if (group.kind === 'file')
        return {
          kind: 'files',
          name: group.name,
          space: 'files',
          files: [{ display: group.name, open: (count) => fileSource(group.file, group.name, count) }],
        };
      const { db, wal } = group;
      const read = async (): Promise<StoreBytes> => ({
        size: db.size + (wal?.size ?? 0),
        db: async () => new Uint8Array(await db.arrayBuffer()),
        ...(wal ? { wal: async () => new Uint8Array(await wal.arrayBuffer()) } : {}),
      });
      return { kind: 'store', name: group.name, space: s, file: group.name, label: group.name, refuse: 'problem', read };
    });
  }
  if (source.kind === 'server') {
    const base = serverBase();
    return [{ kind: 'package', name: base, space, dir: (count) => urlPackageDir(base, count, apiInit) }];
  }
  if (source.kind === 'fleet') {
    const url = new URL(`/v1/receipts/query?${source.query}`, self.location.href).href;
    return [{ kind: 'fleet', name: url, space, page: (count) => fetchFleetPage(url, apiInit, count, onFleet) }];
  }
  return [{ kind: 'url', name: source.url, space, url: source.url }];
}

/** A URL of a package folder (ends with `/` or `manifest.json`), a SQLite store, or an NDJSON/JSON file. */
function urlInput(url: string, name: string, space: string): LogInput {
  const u = new URL(url, self.location.href);
  const file = decodeURIComponent(u.pathname.split('/').pop() || u.host);
  if (u.pathname.endsWith('/') || file === 'manifest.json') return { kind: 'package', name, space, dir: (count) => urlPackageDir(new URL('.', u).href, count) };
  const get = async (): Promise<{ res: Response; body: ReadableStream<Uint8Array> }> => {
    const res = await fetch(u);
    if (!res.ok || !res.body) throw new Error(`${u.href}: HTTP ${res.status}`);
    return { res, body: res.body };
  };
  if (/\.(sqlite3?|db)$/i.test(file)) {
    const read = async (): Promise<StoreBytes> => {
      const { res } = await get();
      const db = async () => new Uint8Array(await res.arrayBuffer());
      return { size: Number(res.headers.get('content-length') ?? 0), db };
    };
    return { kind: 'store', name, space, file, label: file, refuse: 'throw', read };
  }
  const open = (count: Counter) => ({
    name: file,
    async *stream() {
      yield* chunksOf((await get()).body, count);
    },
  });
  return { kind: 'files', name, space: 'files', files: [{ display: file, open }] };
}

/**
 * A page of this server's fleet: split per kernel (../sources/fleet-page.ts), each kernel's
 * receipts, checkpoints and proofs read as files of its own log. Its index figures go to the page.
 */
async function fetchFleetPage(url: string, init: RequestInit, count: Counter, onFleet: (page: FleetPageInfo) => void) {
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
  const kernels = page.groups.map((g) => ({ kernelKey: g.kernelKey, receipts: g.receipts }));
  onFleet({ totalCount: page.totalCount, nextCursor: page.nextCursor, receipts: page.receipts, kernels });
  return page;
}

/**
 * The page's policy for one source's load: a source that cannot be read is a problem naming it,
 * and the rest of the log still loads. A failure of the verify workers themselves (or Cancel), and
 * this server's 401 (`server`: the source is this server's log), still end the session.
 */
export function problemOnFailure(sink: LogSink, broken: () => boolean, server: boolean) {
  return async (name: string, load: () => Promise<void>): Promise<void> => {
    try {
      await load();
    } catch (err) {
      if (server && err instanceof HttpStatusError && err.status === 401) throw new ServerUnauthorized();
      if (broken() || err instanceof ServerUnauthorized) throw err;
      const why = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
      sink.addProblem(makeProblem('parse_error', `${name} could not be read (${why}); the rest of the log was verified without it`, { file: name }));
    }
  };
}
