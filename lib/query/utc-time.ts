// The explorer's times, always UTC: a receipt's time as text, and the text of
// a from/to field, written as the table writes times (`2026-01-01 00:00:03`,
// 24-hour, no zone: the explorer says UTC next to it). The URL keeps Unix
// seconds (`since`, `until`, inclusive), the unit of receipts' `timestamp`.
// Pure.

/** Unix seconds → `2026-01-01 00:00:03` (UTC); `—` when unknown. */
export function formatUtc(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds)) return '—';
  const d = new Date(unixSeconds * 1000);
  if (Number.isNaN(d.getTime())) return '—';
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '');
}

/** Unix seconds → a from/to field's text (as formatUtc); '' for none. */
export function toUtcInput(unixSeconds: number | undefined): string {
  if (unixSeconds === undefined) return '';
  const text = formatUtc(unixSeconds);
  return text === '—' ? '' : text;
}

const FIELD = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A from/to field's text, read as UTC → Unix seconds: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` or
 * `YYYY-MM-DD HH:MM:SS` (a `T` may stand for the space). A bound is inclusive, so `end` (the "to"
 * field) reads the text as the last second it names (`2026-01-01` is up to 23:59:59, `10:00` up to
 * 10:00:59), and the "from" field as the first. Undefined for anything else, including dates
 * that do not exist (Feb 30): a typo never becomes another day.
 */
export function fromUtcInput(text: string, end = false): number | undefined {
  const m = FIELD.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const given = m[6] !== undefined ? 'second' : m[4] !== undefined ? 'minute' : 'day';
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(ms).getUTCDate() !== d) return undefined;
  const start = ms / 1000;
  if (!end) return start;
  return start + (given === 'day' ? 86399 : given === 'minute' ? 59 : 0);
}
