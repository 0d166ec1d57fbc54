// Server side only: `GET /v1/fleet/kernels` and `GET /v1/fleet/summary` (issue 9) after the gate
// (serve-api.ts): the index figures of a fleet. A backend without them (a store) answers 404
// before any parameter is read. Order: method → index → parameters → figures.
import { parseReceiptQuery } from '../lib/query/receipt-query';
import type { Result } from './backend';
import { JSON_HEADERS, apiErrorResponse, badParameters, methodNotAllowed } from './http';
import type { ApiRoute } from './serve-api';

const isGet = (request: Request) => request.method === 'GET' || request.method === 'HEAD';

function json<T>(result: Result<T>): Response {
  return result.ok ? new Response(JSON.stringify(result.value), { status: 200, headers: JSON_HEADERS }) : apiErrorResponse(result.error);
}

/** `GET /v1/fleet/kernels`: the fleet's kernels with their index figures. */
export const fleetKernelsRoute: ApiRoute = async (request, backend) => {
  if (!isGet(request)) return methodNotAllowed('GET');
  const index = backend.fleetIndex();
  if (!index.ok) return apiErrorResponse(index.error);
  if (new URL(request.url).search !== '') return badParameters([{ param: 'query', message: 'this endpoint takes no parameters' }]);
  return json(await index.value.kernels());
};

/** `GET /v1/fleet/summary?<the filters of /v1/receipts/query>`: per-kernel and per-outcome counts. */
export const fleetSummaryRoute: ApiRoute = async (request, backend) => {
  if (!isGet(request)) return methodNotAllowed('GET');
  const index = backend.fleetIndex();
  if (!index.ok) return apiErrorResponse(index.error);
  const parsed = parseReceiptQuery(new URL(request.url).searchParams);
  if (!parsed.ok) return badParameters(parsed.issues);
  if (parsed.query.cursor !== undefined) return badParameters([{ param: 'cursor', message: 'a summary covers the whole filter set: omit cursor' }]);
  return json(await index.value.summary(parsed.query));
};
