// The browser's sources as the loaders' SourceDir/SourceFile: files a user
// picked or dropped (grouped into evidence packages, SQLite stores with their
// -wal, and loose NDJSON/JSON files), a URL of a package or file, and this
// server's store (its evidence package under /v1/evidence/package/). Bytes
// read are counted for the progress bar. Everything fetched is untrusted.
import type { SourceDir, SourceFile } from '../sources/package';
import { chunksOf, type Counter } from './chunks';
import { readInWorker } from './read-file';

export type { Counter };

/**
 * Files from this size on are read by a worker of their own (see read-file.ts). Smaller ones are
 * read in place: their dead chunks are a few MB at most, and starting a worker for each file of a
 * package took the adversarial e2e suite from 10 to 30 s a class.
 */
const READ_IN_WORKER_BYTES = 8 * 1024 * 1024;

/** A File or Blob; a large one read, when it is split or hashed, by a worker of its own. */
export function fileSource(file: Blob, name: string, count: Counter): SourceFile {
  const source: SourceFile = { name, stream: () => chunksOf(file.stream() as ReadableStream<Uint8Array>, count), blob: file };
  if (file.size >= READ_IN_WORKER_BYTES) {
    source.readElsewhere = (job) => readInWorker(() => new Worker(new URL('./read-worker.ts', import.meta.url), { type: 'module' }), file, name, job, count);
  }
  return source;
}

export type FileGroup =
  | { kind: 'package'; dir: string; files: Map<string, File> }
  | { kind: 'store'; name: string; db: File; wal?: File }
  | { kind: 'file'; name: string; file: File };

const PACKAGE_MARKERS = ['manifest.json', 'receipts.ndjson'];
const SQLITE_MAGIC = 'SQLite format 3\0';

async function isSqlite(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return String.fromCharCode(...head) === SQLITE_MAGIC;
}

/**
 * Groups picked files (`path` is the folder-relative path, e.g. `pkg/receipts.ndjson`):
 * a folder holding manifest.json or receipts.ndjson is a package (with its
 * subfolders); a SQLite file is a store (its `-wal` beside it is paired);
 * anything else is a loose NDJSON/JSON file.
 */
export async function groupFiles(files: { file: File; path: string }[]): Promise<FileGroup[]> {
  const norm = files.map((f) => ({ file: f.file, path: f.path.replace(/\\/g, '/').replace(/^\/+/, '') || f.file.name }));
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const packageDirs = [...new Set(norm.filter((f) => PACKAGE_MARKERS.includes(f.path.split('/').pop()!)).map((f) => dirOf(f.path)))].sort(
    (a, b) => a.length - b.length,
  );
  const groups: FileGroup[] = [];
  const claimed = new Set<string>();
  for (const dir of packageDirs) {
    if (packageDirs.some((d) => d !== dir && d.length < dir.length && (d === '' || dir.startsWith(`${d}/`)))) continue; // nested in another package
    const prefix = dir === '' ? '' : `${dir}/`;
    const members = new Map<string, File>();
    for (const f of norm) {
      if (f.path.startsWith(prefix) && !claimed.has(f.path)) {
        members.set(f.path.slice(prefix.length), f.file);
        claimed.add(f.path);
      }
    }
    groups.push({ kind: 'package', dir: dir || '(dropped files)', files: members });
  }
  const rest = norm.filter((f) => !claimed.has(f.path));
  const wals = new Map(rest.filter((f) => f.path.endsWith('-wal')).map((f) => [f.path.slice(0, -4), f.file]));
  for (const f of rest) {
    if (f.path.endsWith('-wal') || f.path.endsWith('-shm') || f.path.endsWith('-journal')) continue;
    if (await isSqlite(f.file)) {
      const wal = wals.get(f.path);
      groups.push({ kind: 'store', name: f.path, db: f.file, ...(wal ? { wal } : {}) });
    } else {
      groups.push({ kind: 'file', name: f.path, file: f.file });
    }
  }
  return groups;
}

export function packageDir(group: Extract<FileGroup, { kind: 'package' }>, count: Counter): SourceDir {
  return {
    path: group.dir,
    list: async () => [...group.files.keys()].sort(),
    open: (rel) => {
      const f = group.files.get(rel);
      return f ? fileSource(f, rel, count) : null;
    },
  };
}

/** A source answered with an HTTP error status; the status is kept so a 401 can ask for a token. */
export class HttpStatusError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url}: HTTP ${status}`);
  }
}

/** A package served over HTTP: `base` + `<file>`, listed by its manifest. `init` (e.g. this server's bearer token) goes with every request. */
export function urlPackageDir(base: string, count: Counter, init: RequestInit = {}): SourceDir {
  const root = base.endsWith('/') ? base : `${base}/`;
  return {
    path: root,
    async list() {
      const res = await fetch(new URL('manifest.json', root), init);
      if (!res.ok) throw new HttpStatusError(`${root}manifest.json`, res.status);
      const manifest = (await res.json()) as { files?: { path?: unknown }[] };
      const names = (manifest.files ?? []).map((f) => f.path).filter((p): p is string => typeof p === 'string');
      return ['manifest.json', ...names];
    },
    open(rel) {
      return {
        name: rel,
        async *stream() {
          const res = await fetch(new URL(rel.split('/').map(encodeURIComponent).join('/'), root), init);
          if (!res.ok || !res.body) throw new HttpStatusError(`${root}${rel}`, res.status);
          yield* chunksOf(res.body, count);
        },
      };
    },
  };
}
