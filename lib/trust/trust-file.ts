// The trust file: a JSON list (or {"keys": [...]}) of pinned kernel keys,
//   {"key", "label"?, "not_before"?, "not_after"?}
// with times in Unix seconds or ISO 8601. The command line reads it
// (--trust-file); the /trust page keeps its keys in the same form and exports
// them as such a file, so one parser serves both.
import { normalizeKernelKey } from '../chio/keys';
import type { PinnedKey } from './trust-store';

/** One entry as written to a trust file; times in Unix seconds, inclusive. */
export interface TrustEntry {
  key: string;
  label?: string;
  not_before?: number;
  not_after?: number;
}

export type TrustFileResult = { ok: true; entries: TrustEntry[] } | { ok: false; error: string };

/** A trust file larger than this is refused before it is parsed (attacker-supplied imports). */
export const MAX_TRUST_FILE_BYTES = 4 << 20;

/** The trust file the /trust page exports, as `receipt-audit --trust-file` reads it. */
export function trustFileText(entries: readonly TrustEntry[]): string {
  return JSON.stringify(entries, null, 2) + '\n';
}

/** Reads a trust file's text: not JSON, too large, or any bad entry is an error (nothing is half-read). */
export function readTrustFileText(text: string): TrustFileResult {
  if (text.length > MAX_TRUST_FILE_BYTES) return { ok: false, error: `larger than ${MAX_TRUST_FILE_BYTES >> 20} MiB; not a trust file` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  return parseTrustEntries(data);
}

/** `imported` added after `current`, skipping any entry identical to one already there. */
export function mergeTrustEntries(current: readonly TrustEntry[], imported: readonly TrustEntry[]): { entries: TrustEntry[]; added: number } {
  const seen = new Set(current.map((e) => JSON.stringify(e)));
  const entries = [...current];
  for (const e of imported) {
    const id = JSON.stringify(e);
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push(e);
  }
  return { entries, added: entries.length - current.length };
}

/** Validates and normalizes a parsed trust file; a bad entry is an error, never dropped silently. */
export function parseTrustEntries(data: unknown): TrustFileResult {
  const list = Array.isArray(data) ? data : (data as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return { ok: false, error: 'expected a JSON list of {key, label?, not_before?, not_after?}' };
  const entries: TrustEntry[] = [];
  for (const [i, raw] of list.entries()) {
    const where = `entry ${i + 1}`;
    const e = (raw ?? {}) as Record<string, unknown>;
    if (typeof e.key !== 'string') return { ok: false, error: `${where} has no "key"` };
    const key = normalizeKernelKey(e.key.trim());
    if (!key) return { ok: false, error: `${where}: not a valid kernel key: ${JSON.stringify(e.key)}` };
    const nb = unixSeconds(e.not_before);
    const na = unixSeconds(e.not_after);
    if (nb === null) return { ok: false, error: `${where}: not_before must be Unix seconds or an ISO 8601 date` };
    if (na === null) return { ok: false, error: `${where}: not_after must be Unix seconds or an ISO 8601 date` };
    if (nb !== undefined && na !== undefined && na < nb) return { ok: false, error: `${where}: the window ends before it starts` };
    entries.push({
      key,
      ...(typeof e.label === 'string' && e.label ? { label: e.label } : {}),
      ...(nb !== undefined ? { not_before: nb } : {}),
      ...(na !== undefined ? { not_after: na } : {}),
    });
  }
  return { ok: true, entries };
}

/** A time field: absent (undefined), Unix seconds, or null when it is neither seconds nor a date. */
function unixSeconds(v: unknown): number | undefined | null {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : null;
  if (typeof v !== 'string') return null;
  if (/^\d+$/.test(v)) return Number.isSafeInteger(Number(v)) ? Number(v) : null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

/** The entries as the verifier's pinned keys. */
export function toPinnedKeys(entries: readonly TrustEntry[]): PinnedKey[] {
  return entries.map((e) => ({
    key: e.key,
    ...(e.label ? { label: e.label } : {}),
    ...(e.not_before !== undefined ? { notBefore: BigInt(e.not_before) } : {}),
    ...(e.not_after !== undefined ? { notAfter: BigInt(e.not_after) } : {}),
  }));
}
