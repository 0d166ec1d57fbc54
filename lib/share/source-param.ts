// The `?source=` of a link to a receipt in its log (issue 20): which log the link asks the page to
// open, and whether that log is on another origin than the page, which the user must agree to
// before anything is fetched from it (components/data/use-view-source.ts asks). Attacker-chosen:
// the whole link is. Only `server` (this server's own log) and http(s) URLs without credentials
// are read; anything else is refused with the reason. Pure.
import type { LogSource } from '../workers/protocol';

/** A `?source=` value longer than this is refused (no log address needs it). */
export const MAX_SOURCE_PARAM = 2048;

export type SourceParam =
  /** `foreign`: the origin of a URL on another server than the page, which needs the user's consent; null for this server. */
  { ok: true; sources: LogSource[]; foreign: string | null; url: string | null } | { ok: false; message: string };

/** Reads a `?source=` value against the page's origin. */
export function readSourceParam(param: string, pageOrigin: string): SourceParam {
  if (param === 'server') return { ok: true, sources: [{ kind: 'server' }], foreign: null, url: null };
  if (param.length > MAX_SOURCE_PARAM)
    return { ok: false, message: `the log address is ${param.length} characters long; at most ${MAX_SOURCE_PARAM} are read` };
  let url: URL;
  try {
    url = new URL(param, pageOrigin);
  } catch {
    return { ok: false, message: 'the log address is not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `the log address is a ${url.protocol} URL; only http and https logs are opened` };
  if (url.username || url.password) return { ok: false, message: 'the log address carries a user name or password; such a link is not followed' };
  const foreign = url.origin === pageOrigin ? null : url.origin;
  return { ok: true, sources: [{ kind: 'url', url: url.href }], foreign, url: url.href };
}

/** The origins other than the page's that `sources` would fetch from (URL sources only). */
export function foreignOrigins(sources: readonly LogSource[], pageOrigin: string): string[] {
  const out = new Set<string>();
  for (const s of sources) {
    if (s.kind !== 'url') continue;
    let origin: string;
    try {
      origin = new URL(s.url, pageOrigin).origin;
    } catch {
      continue; // the log worker reports an unreadable address as a problem; it fetches nothing
    }
    if (origin !== pageOrigin) out.add(origin);
  }
  return [...out];
}

/** The `?source=` value that reopens `sources` elsewhere (a share link), or null for files on this computer. */
export function sourceParam(sources: readonly LogSource[] | null): string | null {
  if (sources?.length !== 1) return null;
  const s = sources[0]!;
  return s.kind === 'server' ? 'server' : s.kind === 'url' ? s.url : null;
}

/**
 * The `?source=` that reopens, elsewhere, the one source a receipt was read from (its name as the
 * rows have it: a URL, or this server's package address), so a share link names the copy's own
 * log even when the open log has several sources; null when that source is files on this computer.
 */
export function shareSourceParam(sources: readonly LogSource[] | null, copySource: string | null, pageOrigin: string): string | null {
  if (!sources) return null;
  if (sources.length === 1) return sourceParam(sources);
  if (copySource === null) return null;
  const server = new URL('/v1/evidence/package/', pageOrigin).href;
  for (const s of sources) {
    if (s.kind === 'url' && s.url === copySource) return s.url;
    if (s.kind === 'server' && copySource === server) return 'server';
  }
  return null;
}
