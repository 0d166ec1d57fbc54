// The one query-key factory (TanStack Query's hierarchical keys): every key starts with the app's
// root, and a key of anything read from the open log names its dataset and the trust store's
// version, so loading another log or pinning another key never shows a cached answer of the old
// one. `invalidateQueries({ queryKey: queryKeys.log(…) })` reaches every query under it.
import type { BundleQuery } from '../../lib/sources/record-host';

/** The open log as a key part: which load (log-contexts.ts `dataset`) under which pinned keys. */
export interface LogScope {
  dataset: string;
  trustVersion: number;
}

const root = ['receipt-audit'] as const;

export const queryKeys = {
  all: root,
  /** This server's fleet index (CLICKHOUSE_URL): index figures, not verdicts, so no log or trust part. */
  fleet: () => [...root, 'fleet'] as const,
  fleetKernels: () => [...queryKeys.fleet(), 'kernels'] as const,
  /** `filterKey`: the search's filters without cursor or limit (lib/query/receipt-query.ts `toFilterKey`). */
  fleetSummary: (filterKey: string) => [...queryKeys.fleet(), 'summary', filterKey] as const,
  log: (scope: LogScope) => [...root, 'log', scope.dataset, scope.trustVersion] as const,
  /** One receipt again with its checkpoint and proof: the copy at `file`:`line` of `source`. */
  bundle: (scope: LogScope, q: BundleQuery) => [...queryKeys.log(scope), 'bundle', q.id, q.file, q.line, q.source ?? null] as const,
};
