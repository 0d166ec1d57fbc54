// The fleet page's reads of this server's fleet index (/v1/fleet/*), as TanStack Query options.
// Index figures only: the receipts a page shows are verified by the log worker, never here.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FleetKernels, FleetSummary } from '../../lib/query/fleet-api';
import { readApiToken } from './api-token';
import { queryKeys } from './query-keys';

/** A GET of this server's API, with this tab's token; an error answer's message becomes the error. */
async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const token = readApiToken();
  const res = await fetch(path, { ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), ...(signal ? { signal } : {}) });
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok) throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
  return body as T;
}

/** Every kernel of the fleet with its index counts. `enabled`: the server serves a fleet. */
export function fleetKernelsQuery(enabled: boolean) {
  return queryOptions({
    queryKey: queryKeys.fleetKernels(),
    queryFn: ({ signal }) => getJson<FleetKernels>('/v1/fleet/kernels', signal),
    enabled,
  });
}

/** The index's totals for a search (`filterKey`: its filters, no cursor or limit). */
export function fleetSummaryQuery(filterKey: string, enabled: boolean) {
  return queryOptions({
    queryKey: queryKeys.fleetSummary(filterKey),
    queryFn: ({ signal }) => getJson<FleetSummary>(`/v1/fleet/summary${filterKey ? `?${filterKey}` : ''}`, signal),
    enabled,
  });
}

/** The fleet page's index reads: its kernels, and the totals of its search (`filterKey` null: no valid search). */
export function useFleetIndex(fleet: boolean, filterKey: string | null) {
  const kernels = useQuery(fleetKernelsQuery(fleet));
  const summary = useQuery(fleetSummaryQuery(filterKey ?? '', fleet && filterKey !== null));
  return { kernels, summary };
}
