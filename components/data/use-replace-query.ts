'use client';
// A view's state lives in its URL query (a view is a link). Replacing the query
// with the native history call keeps useSearchParams in sync without a server
// round trip (router.replace fetched the route's payload again for each change).
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';

/** Replaces the current page's query string with `params`, keeping the path. */
export function useReplaceQuery(): (params: URLSearchParams) => void {
  const pathname = usePathname();
  return useCallback(
    (params: URLSearchParams) => {
      const q = params.toString();
      window.history.replaceState(null, '', q ? `${pathname}?${q}` : pathname);
    },
    [pathname],
  );
}

/** Sets one query parameter of the current page (null or undefined removes it), keeping the others. */
export function useSetQueryParam(): (key: string, value: string | null | undefined) => void {
  const params = useSearchParams();
  const replaceQuery = useReplaceQuery();
  return useCallback(
    (key: string, value: string | null | undefined) => {
      const next = new URLSearchParams(params.toString());
      if (value === null || value === undefined) next.delete(key);
      else next.set(key, value);
      replaceQuery(next);
    },
    [params, replaceQuery],
  );
}
