// Every active part of an explorer filter as a removable chip: each value
// choice, the search text, the time window, the cost range and the preset.
// Each chip carries the filter without it, so removing one never touches the
// others (the sort and the chosen columns are views, not filters: no chip).
// Pure.
import { PRESETS } from './explorer-columns';
import { EMPTY_FILTER, type ExplorerFilter, VALUE_FILTERS, VALUE_FILTER_LABEL } from './explorer-filter';
import { VERDICT_LABEL, type RowVerdict } from './row-store';
import { formatUtc } from './utc-time';

export interface FilterChip {
  /** Stable within one filter (a React key, a test id's suffix). */
  key: string;
  /** What is filtered: "verdict", "time (UTC)", "search". */
  field: string;
  /** The chosen value as receipt text (a value filter's value may be attacker-controlled). */
  value: string;
  /** The same filter without this chip. */
  without: ExplorerFilter;
}

export function filterChips(f: ExplorerFilter): FilterChip[] {
  const chips: FilterChip[] = [];
  if (f.preset) {
    const rest = { ...f };
    delete rest.preset;
    chips.push({ key: 'preset', field: 'preset', value: PRESETS[f.preset].label, without: rest });
  }
  if (f.q) {
    const rest = { ...f };
    delete rest.q;
    chips.push({ key: 'q', field: 'search', value: f.q, without: rest });
  }
  if (f.since !== undefined || f.until !== undefined) {
    const rest = { ...f };
    delete rest.since;
    delete rest.until;
    chips.push({ key: 'time', field: 'time (UTC)', value: timeWindowText(f.since, f.until), without: rest });
  }
  if (f.minCost !== undefined || f.maxCost !== undefined) {
    const rest = { ...f };
    delete rest.minCost;
    delete rest.maxCost;
    const text =
      f.minCost !== undefined && f.maxCost !== undefined
        ? `${f.minCost} to ${f.maxCost}`
        : f.minCost !== undefined
          ? `at least ${f.minCost}`
          : `at most ${f.maxCost}`;
    chips.push({ key: 'cost', field: 'cost (minor units)', value: text, without: rest });
  }
  for (const k of VALUE_FILTERS) {
    for (const v of f.values[k] ?? []) {
      const others = (f.values[k] ?? []).filter((x) => x !== v);
      const values = { ...f.values };
      if (others.length) values[k] = others;
      else delete values[k];
      chips.push({
        key: `${k}=${v}`,
        field: VALUE_FILTER_LABEL[k],
        value: k === 'verdict' ? (VERDICT_LABEL[v as RowVerdict] ?? v) : v,
        without: { ...f, values },
      });
    }
  }
  return chips;
}

/** `2026-01-01 00:00:00 to 2026-01-01 23:59:59`, `from …`, `until …` (bounds inclusive). */
export function timeWindowText(since: number | undefined, until: number | undefined): string {
  if (since !== undefined && until !== undefined) return `${formatUtc(since)} to ${formatUtc(until)}`;
  return since !== undefined ? `from ${formatUtc(since)}` : `until ${formatUtc(until!)}`;
}

/** The filter without any chip: no rows left out, the same sort and columns. */
export function clearFilters(f: ExplorerFilter): ExplorerFilter {
  return { ...EMPTY_FILTER, sort: f.sort, ...(f.columns ? { columns: f.columns } : {}) };
}
