// Shared by the API benchmarks (bench-api.ts: the SQLite server; bench-fleet.ts: the fleet beside it).

/** The head of a `/v1/receipts/query` body: read without JSON.parse in a timed loop. */
export const PAGE_HEAD = /^\{"totalCount":(\d+),"nextCursor":(\d+|null),/;

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
