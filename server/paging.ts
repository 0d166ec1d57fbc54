// Server side only: what the store's and the fleet's page plans share (store/receipt-query.ts,
// fleet/query.ts). Each keeps, per filter set (a query without cursor and limit), what it learned
// of it in an Lru of MAX_FILTER_SETS: its count, and when there are at most LISTED_MAX matches
// their keys in order, so that any page of it is a slice after the cursor (firstAfter). How a
// page of a larger set is found differs, and must: see server/README.md, "Page plans".
export const MAX_FILTER_SETS = 128;

/** Matches whose keys a filter set keeps (a store's seqs take ≤ 200 KB). */
export const LISTED_MAX = 25_000;

/** `process.env[name]` when it is 1 to 7 digits, else `fallback` (tests shrink the plans' limits). */
export function envCount(name: string, fallback: number): number {
  const value = process.env[name] ?? '';
  return /^\d{1,7}$/.test(value) ? Number(value) : fallback;
}

/** Index of the first of `length` ascending keys (`keyAt(i)`) that is greater than `after`. */
export function firstAfter(length: number, keyAt: (i: number) => bigint, after: bigint): number {
  let [a, b] = [0, length];
  while (a < b) {
    const m = (a + b) >>> 1;
    if (keyAt(m) <= after) a = m + 1;
    else b = m;
  }
  return a;
}
