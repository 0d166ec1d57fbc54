// Server side only: `GET /v1/receipts/query` (chio-format.md §11.2) as a framework-free
// function, called by the Next route (app/v1/receipts/query/route.ts), by tests over plain
// node:http, and by scripts/bench-api.ts. Order: auth → method → parse → store → bytes.
import path from 'node:path';
import { parseReceiptQuery } from '../lib/query/receipt-query';
import { checkBearer } from './auth';
import { DEMO_STORE } from './store/db';
import { JSON_HEADERS, badParameters, internalError, jsonBytes, malformedPercentEncoding, malformedUrl, methodNotAllowed, storeUnavailable } from './http';
import { logServerError, requestLabel } from './redact';
import { queryReceiptStore } from './store/receipt-query';
import { NOT_A_FLEET, fleetUrlOf, handleFleetQuery } from './fleet/handle-fleet';

/** `process.env` or a plain object with the same variables. */
export interface ReceiptApiEnv {
  [name: string]: string | undefined;
  /** When set (non-empty), every /v1 request needs `Authorization: Bearer <token>`. */
  RECEIPT_API_TOKEN?: string | undefined;
  /** The store to serve; the demo store when unset. */
  RECEIPT_DB?: string | undefined;
  /** When set, the fleet's ClickHouse node (its Distributed tables) is served instead of a store. */
  CLICKHOUSE_URL?: string | undefined;
}

export function storeFileOf(env: ReceiptApiEnv): string {
  return env.RECEIPT_DB ? path.resolve(env.RECEIPT_DB) : DEMO_STORE;
}

export async function handleReceiptQuery(request: Request, env: ReceiptApiEnv): Promise<Response> {
  try {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (malformedPercentEncoding(request.url)) return malformedUrl();
    // HEAD is GET without a body, as Next serves it for a route that exports GET.
    if (fleetUrlOf(env)) return handleFleetQuery(request, env);
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
    const parsed = parseReceiptQuery(new URL(request.url).searchParams);
    if (!parsed.ok) return badParameters(parsed.issues);
    if (parsed.query.kernelKey !== undefined) return badParameters([{ param: 'kernelKey', message: NOT_A_FLEET }]);
    const result = queryReceiptStore(storeFileOf(env), parsed.query);
    if (!result.ok) return storeUnavailable(result.detail);
    return request.method === 'HEAD' ? new Response(null, { status: 200, headers: JSON_HEADERS }) : jsonBytes(result.body);
  } catch (e) {
    logServerError(requestLabel(request), e);
    return internalError();
  }
}
