'use client';
// One receipt of the open log read again with its checkpoint and proof (the log worker keeps the
// sources), for the receipt page's dossier and share link. A query keyed by the open load and the
// pinned keys' version (query-keys.ts): leaving the page cancels a request still waiting.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BundleAnswer, BundleQuery } from '../../lib/sources/record-host';
import { useSession } from './log-contexts';
import { type LogScope, queryKeys } from './query-keys';
import { useTrust } from './trust-provider';

type RequestBundle = (query: BundleQuery, signal?: AbortSignal) => Promise<BundleAnswer>;

/** The answer never goes stale while its load is open; a failure is an answer that says why, so it is not retried. */
export function bundleQuery(scope: LogScope, query: BundleQuery | null, request: RequestBundle) {
  return queryOptions({
    queryKey: query ? queryKeys.bundle(scope, query) : [...queryKeys.log(scope), 'bundle', null],
    queryFn: ({ signal }) => (query ? request(query, signal) : Promise.resolve<BundleAnswer>({ ok: false, message: 'no receipt' })),
    enabled: query !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** `query`: the copy to read (null: none, e.g. another runtime's receipt); null until it is answered. */
export function useReceiptBundle(query: BundleQuery | null): BundleAnswer | null {
  const { requestBundle, dataset } = useSession();
  const { trustVersion } = useTrust();
  return useQuery(bundleQuery({ dataset, trustVersion }, query, requestBundle)).data ?? null;
}
