// What this tab remembers of its log across a reload (sessionStorage, this tab only). Server and
// URL sources are reopened; picked files cannot be (a page cannot read a file again without the
// user choosing it), so for them only a description is kept, and the page says plainly that it
// cannot reopen them and offers to, instead of silently opening another log (issue 21).
import { type LogSource, describeSources } from '../../lib/workers/protocol';

/** The sources, as before: reopened after a reload (e2e/source-links.spec.ts reads this key). */
export const LAST_SOURCE = 'receipt-audit.source.v1';
/** What the tab's log was and when it was opened, for the log bar and for a log that cannot be reopened. */
const LAST_LOG = 'receipt-audit.log.v1';

export interface LogMeta {
  /** The sources for people ("receipts.ndjson, checkpoints.ndjson", "this server's receipt store"). */
  description: string;
  /** Files picked or dropped (0 for a server or URL source). */
  files: number;
  /** When it was opened (ms since the epoch). */
  openedAt: number;
  /** The sources that can be reopened (a server or URL source opened together with the files). */
  keep: LogSource[];
  /** Whether all of it can be reopened. */
  restorable: boolean;
}

/** Server and URL sources can be reopened after a reload; picked files cannot. */
export function restorable(sources: readonly LogSource[]): boolean {
  return sources.every((s) => s.kind !== 'files');
}

export function metaOf(sources: readonly LogSource[], openedAt: number): LogMeta {
  return {
    description: describeSources(sources, { files: 'names' }),
    files: sources.reduce((n, s) => n + (s.kind === 'files' ? s.files.length : 0), 0),
    openedAt,
    keep: sources.filter((s) => s.kind !== 'files'),
    restorable: restorable(sources),
  };
}

export function saveLastLog(sources: readonly LogSource[], meta: LogMeta): void {
  try {
    if (meta.restorable) sessionStorage.setItem(LAST_SOURCE, JSON.stringify(sources));
    else sessionStorage.removeItem(LAST_SOURCE);
    sessionStorage.setItem(LAST_LOG, JSON.stringify(meta));
  } catch {
    // storage full or refused: a reload then opens this server's log, as it says
  }
}

const isSource = (s: unknown): s is LogSource =>
  typeof s === 'object' &&
  s !== null &&
  ((s as { kind?: unknown }).kind === 'server' ||
    ((s as { kind?: unknown }).kind === 'url' && typeof (s as { url?: unknown }).url === 'string') ||
    ((s as { kind?: unknown }).kind === 'fleet' && typeof (s as { query?: unknown }).query === 'string'));

/** What the tab had open before the reload: sources to reopen, or a log that cannot be reopened, or nothing. */
export function readLastLog(): { reopen: LogSource[]; meta: LogMeta | null } | { lost: LogMeta } | null {
  let meta: LogMeta | null = null;
  try {
    const m = JSON.parse(sessionStorage.getItem(LAST_LOG) ?? 'null') as Partial<LogMeta> | null;
    if (
      m &&
      typeof m.description === 'string' &&
      typeof m.files === 'number' &&
      typeof m.openedAt === 'number' &&
      Array.isArray(m.keep) &&
      m.keep.every(isSource)
    ) {
      meta = { description: m.description, files: m.files, openedAt: m.openedAt, keep: m.keep, restorable: m.restorable === true };
    }
  } catch {
    meta = null;
  }
  try {
    const saved = JSON.parse(sessionStorage.getItem(LAST_SOURCE) ?? 'null') as unknown;
    if (Array.isArray(saved) && saved.length > 0 && saved.every(isSource)) return { reopen: saved, meta: meta?.restorable ? meta : null };
  } catch {
    // nothing usable saved
  }
  if (meta && !meta.restorable) return { lost: meta };
  return null;
}

/** Forgets a log that could not be reopened (the user chose another). */
export function forgetLostLog(): void {
  try {
    sessionStorage.removeItem(LAST_LOG);
  } catch {
    // nothing to forget
  }
}
