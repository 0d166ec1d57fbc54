// Spend over time for the finance view's chart: cost_charged of the verified
// financial receipts per time bucket, per currency (currencies are never
// added together) and per settlement status. The bucket is the smallest of
// hour, 3 h, 6 h, 12 h, day, week (from Monday) that keeps the chart under
// `maxBuckets` bars; buckets are aligned to UTC. Amounts are exact bigints;
// receipts without a usable time are counted apart. Pure, two passes.
import type { ExplorerFilter } from '../query/explorer-filter';
import type { RowStore } from '../query/row-store';
import { SETTLEMENTS, type Settlement, settlementIndex } from './finance';
import type { VerifiedScope } from './scope';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** 1970-01-05 was a Monday: weeks start there. */
const MONDAY = 4 * DAY;

export const BUCKET_SIZES: readonly { seconds: number; label: string; offset: number }[] = [
  { seconds: HOUR, label: 'hour', offset: 0 },
  { seconds: 3 * HOUR, label: '3 hours', offset: 0 },
  { seconds: 6 * HOUR, label: '6 hours', offset: 0 },
  { seconds: 12 * HOUR, label: '12 hours', offset: 0 },
  { seconds: DAY, label: 'day', offset: 0 },
  { seconds: 7 * DAY, label: 'week', offset: MONDAY },
];

export interface SpendSeries {
  currency: string;
  /** Per settlement status, per bucket: the sum of cost_charged and the number of receipts. */
  amount: Record<Settlement, bigint[]>;
  receipts: Record<Settlement, Uint32Array>;
  /** The currency's financial receipts without a usable time (not on the chart). */
  untimed: number;
}

export interface SpendOverTime {
  bucketSeconds: number;
  bucketLabel: string;
  /** Start of the first bucket (Unix seconds, UTC-aligned); bucket i covers [start + i·size, start + (i+1)·size). */
  start: number;
  count: number;
  /** One series per currency, alphabetical. */
  series: SpendSeries[];
}

/** The bucket size for a span of time (seconds) so that it spans at most `maxBuckets` buckets. */
export function bucketFor(first: number, last: number, maxBuckets: number): { seconds: number; label: string; offset: number } {
  for (const b of BUCKET_SIZES) {
    const start = Math.floor((first - b.offset) / b.seconds) * b.seconds + b.offset;
    if (Math.floor((last - start) / b.seconds) + 1 <= maxBuckets) return b;
  }
  // Longer than maxBuckets weeks: whole days, as many as it takes.
  const days = Math.ceil((last - first + 1) / DAY / maxBuckets) + 1;
  return { seconds: days * DAY, label: `${days} days`, offset: 0 };
}

export function spendOverTime(store: RowStore, scope: VerifiedScope, maxBuckets = 240): SpendOverTime {
  const cur = store.codes.currency;
  let first = Infinity;
  let last = -Infinity;
  for (const row of scope.rows) {
    if (cur[row] === 0) continue;
    const t = store.time[row]!;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  if (!Number.isFinite(first)) first = last = 0;
  const b = bucketFor(first, last, maxBuckets);
  const start = Math.floor((first - b.offset) / b.seconds) * b.seconds + b.offset;
  const count = Math.floor((last - start) / b.seconds) + 1;
  const status = settlementIndex(store);
  const series: (SpendSeries | undefined)[] = [];
  for (const row of scope.rows) {
    const c = cur[row]!;
    if (c === 0) continue;
    const s = (series[c] ??= {
      currency: store.dict.currency.values[c]!,
      amount: Object.fromEntries(SETTLEMENTS.map((k) => [k, new Array<bigint>(count).fill(0n)])) as Record<Settlement, bigint[]>,
      receipts: Object.fromEntries(SETTLEMENTS.map((k) => [k, new Uint32Array(count)])) as Record<Settlement, Uint32Array>,
      untimed: 0,
    });
    const t = store.time[row]!;
    const k = status[store.codes.settlement[row]!]!;
    if (!Number.isFinite(t) || k < 0) {
      s.untimed++;
      continue;
    }
    const i = Math.floor((t - start) / b.seconds);
    const key = SETTLEMENTS[k]!;
    if (store.hasCost[row]) s.amount[key][i]! += store.cost[row]!;
    s.receipts[key][i]!++;
  }
  return {
    bucketSeconds: b.seconds,
    bucketLabel: b.label,
    start,
    count,
    series: series.filter((s): s is SpendSeries => s !== undefined).sort((x, y) => (x.currency < y.currency ? -1 : 1)),
  };
}

/** The explorer over one bar: the verified receipts of that currency and settlement status in that bucket. */
export function bucketFilter(spend: SpendOverTime, bucket: number, currency: string, settlement: Settlement): ExplorerFilter {
  const since = spend.start + bucket * spend.bucketSeconds;
  return {
    values: { verdict: ['verified'], currency: [currency], settlement: [settlement] },
    since,
    until: since + spend.bucketSeconds - 1,
    sort: { column: 'order', dir: 'asc' },
  };
}
