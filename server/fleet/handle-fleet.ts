// Server side only: the /v1 API in fleet mode (CLICKHOUSE_URL set, issue 9), as framework-free
// handlers like the store's: `GET /v1/receipts/query` and `POST /v1/evidence/export` from the
// cluster, and the fleet's own `GET /v1/fleet/kernels` and `GET /v1/fleet/summary`.
// Order: auth → method → parse → cluster → bytes. Cluster errors are logged with their SQL
// error and answered 503 without it.
import { parseReceiptQuery, type ReceiptQuery } from '../../lib/query/receipt-query';
import { checkBearer } from '../auth';
import type { ReceiptApiEnv } from '../handle-receipt-query';
import { JSON_HEADERS, badParameters, errorResponse, jsonBytes, malformedPercentEncoding, malformedUrl, methodNotAllowed } from '../http';
import { logServerError } from '../redact';
import type { EvidenceQuery } from '../../lib/query/evidence-query';
import { ClickHouseError } from './clickhouse';
import { fleetBundleText, fleetClient, fleetExport, fleetKernels, fleetPage, fleetSummary, kernelsOf } from './query';

/** What a store server says of a fleet's `kernelKey` filter. */
export const NOT_A_FLEET = 'this server serves one receipt store, not a fleet: omit kernelKey';

/** The cluster this server answers from, or undefined when it serves one store. */
export function fleetUrlOf(env: ReceiptApiEnv): string | undefined {
  return env.CLICKHOUSE_URL || undefined;
}

function clusterUnavailable(what: string, e: unknown): Response {
  logServerError(what, e);
  const reachable = e instanceof ClickHouseError && e.status !== undefined;
  return errorResponse(503, 'store_unavailable', reachable ? 'the fleet index could not answer this query' : 'the fleet index (ClickHouse) is not reachable');
}

async function guarded(request: Request, env: ReceiptApiEnv, method: 'GET' | 'POST', what: string, run: (url: string) => Promise<Response>): Promise<Response> {
  const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
  if (denied) return denied;
  if (malformedPercentEncoding(request.url)) return malformedUrl();
  const allowed = method === 'GET' ? request.method === 'GET' || request.method === 'HEAD' : request.method === 'POST';
  if (!allowed) return methodNotAllowed(method);
  const url = fleetUrlOf(env);
  if (!url) return errorResponse(404, 'not_found', 'this server serves one receipt store, not a fleet (start it with CLICKHOUSE_URL)');
  try {
    return await run(url);
  } catch (e) {
    return clusterUnavailable(what, e);
  }
}

function parsed(request: Request): { ok: true; query: ReceiptQuery } | { ok: false; response: Response } {
  const p = parseReceiptQuery(new URL(request.url).searchParams);
  return p.ok ? p : { ok: false, response: badParameters(p.issues) };
}

/** `GET /v1/receipts/query` from the cluster. */
export function handleFleetQuery(request: Request, env: ReceiptApiEnv): Promise<Response> {
  return guarded(request, env, 'GET', 'GET /v1/receipts/query (fleet)', async (url) => {
    const p = parsed(request);
    if (!p.ok) return p.response;
    const body = await fleetPage(fleetClient(url), p.query);
    return request.method === 'HEAD' ? new Response(null, { status: 200, headers: JSON_HEADERS }) : jsonBytes(body);
  });
}

/** `GET /v1/fleet/kernels`: the fleet's kernels with their index figures. */
export function handleFleetKernels(request: Request, env: ReceiptApiEnv): Promise<Response> {
  return guarded(request, env, 'GET', 'GET /v1/fleet/kernels', async (url) => {
    if (new URL(request.url).search !== '') return badParameters([{ param: 'query', message: 'this endpoint takes no parameters' }]);
    return new Response(JSON.stringify(await fleetKernels(fleetClient(url))), { status: 200, headers: JSON_HEADERS });
  });
}

/** `GET /v1/fleet/summary?<the filters of /v1/receipts/query>`: per-kernel and per-outcome counts. */
export function handleFleetSummary(request: Request, env: ReceiptApiEnv): Promise<Response> {
  return guarded(request, env, 'GET', 'GET /v1/fleet/summary', async (url) => {
    const p = parsed(request);
    if (!p.ok) return p.response;
    if (p.query.cursor !== undefined) return badParameters([{ param: 'cursor', message: 'a summary covers the whole filter set: omit cursor' }]);
    return new Response(JSON.stringify(await fleetSummary(fleetClient(url), p.query)), { status: 200, headers: JSON_HEADERS });
  });
}

/** `POST /v1/evidence/export` from the cluster: one kernel's bundle (its own seq space). */
export async function fleetExportResponse(url: string, query: EvidenceQuery, requireProofs: boolean): Promise<Response> {
  if (query.tenant !== undefined)
    return badParameters([{ param: 'query.tenant', message: 'the fleet index has no tenant column; filter by kernelKey, capabilityId, agentSubject or time' }]);
  const ch = fleetClient(url);
  let kernelKey = query.kernelKey;
  if (kernelKey === undefined) {
    const kernels = await kernelsOf(ch, query);
    if (kernels.length > 1) {
      return badParameters([
        {
          param: 'query.kernelKey',
          message: `the query matches receipts of ${kernels.length} kernels; an export bundle is one kernel's log: give query.kernelKey`,
        },
      ]);
    }
    kernelKey = kernels[0] ?? '0'.repeat(64);
  }
  const evidence = await fleetExport(ch, { ...query, kernelKey });
  if (requireProofs && evidence.unproven.length > 0) {
    return errorResponse(409, 'proofs_unavailable', `${evidence.unproven.length} receipt(s) of this query are not covered by a checkpoint yet`, {
      param: 'requireProofs',
    });
  }
  return new Response(fleetBundleText(evidence), { status: 200, headers: JSON_HEADERS });
}
