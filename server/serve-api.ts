// Server side only: the one gate of the /v1 API. Every /v1 request but the CSP report comes
// through serveApi, from a Next route file (app/v1/**/route.ts) or from api-router.ts (node:http):
//  1. the bearer token, checked here and nowhere else, once per request (auth.ts);
//  2. a URL with malformed percent-encoding is answered 400, never routed;
//  3. the backend is picked, the one place that reads the mode: the cluster when CLICKHOUSE_URL
//     is set, else the store at RECEIPT_DB (the demo store when unset);
//  4. the route runs; if it throws, the error is logged (redacted) and answered 500.
import { checkBearer } from './auth';
import type { ReceiptApiEnv, ReceiptBackend } from './backend';
import { fleetBackend } from './fleet/backend';
import { internalError, malformedPercentEncoding, malformedUrl } from './http';
import { logServerError, requestLabel } from './redact';
import { storeBackend, storeFileOf } from './store/backend';

/** A /v1 endpoint after the gate: checks the method and its parameters, asks `backend`, answers. */
export type ApiRoute = (request: Request, backend: ReceiptBackend) => Promise<Response>;

/** The backend `env` names: read per request, so a test's env object behaves as process.env does. */
export function backendFor(env: ReceiptApiEnv): ReceiptBackend {
  return env.CLICKHOUSE_URL ? fleetBackend(env.CLICKHOUSE_URL) : storeBackend(storeFileOf(env), env);
}

export async function serveApi(request: Request, env: ReceiptApiEnv, route: ApiRoute): Promise<Response> {
  try {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (malformedPercentEncoding(request.url)) return malformedUrl();
    return await route(request, backendFor(env));
  } catch (e) {
    logServerError(requestLabel(request), e);
    return internalError();
  }
}
