// Server side only: the /v1 API without Next, for node:http servers (tests, benchmarks), routing
// exactly as the Next route files under app/v1/ do. The CSP report is answered as it is (browsers
// send no token); every other /v1 path goes through the gate (serve-api.ts: the token, once, and
// the URL), then its route; a /v1 path with no route is a JSON 404 after the gate, anything else
// a JSON 404 at once.
import { handleCspReport } from './csp-report';
import { evidenceExportRoute, evidencePackageRoute } from './handle-evidence';
import { fleetKernelsRoute, fleetSummaryRoute } from './handle-fleet';
import { receiptQueryRoute } from './handle-receipt-query';
import { notFound } from './http';
import type { ReceiptApiEnv } from './backend';
import { CSP_REPORT_PATH } from './security-headers';
import { type ApiRoute, serveApi } from './serve-api';

const ROUTES = new Map<string, ApiRoute>([
  ['/v1/receipts/query', receiptQueryRoute],
  ['/v1/evidence/export', evidenceExportRoute],
  ['/v1/fleet/kernels', fleetKernelsRoute],
  ['/v1/fleet/summary', fleetSummaryRoute],
  ['/v1/evidence/package', evidencePackageRoute(null)],
  ['/v1/evidence/package/', evidencePackageRoute(null)],
]);

const PACKAGE_FILE = /^\/v1\/evidence\/package\/([^/]+)$/;

const noRoute: ApiRoute = async () => notFound();

/** The route of a /v1 path. A package file's name is decoded when the route runs: after the gate, which refuses malformed escapes. */
function routeOf(pathname: string): ApiRoute {
  const route = ROUTES.get(pathname);
  if (route) return route;
  const file = PACKAGE_FILE.exec(pathname)?.[1];
  if (file === undefined) return noRoute;
  return (request, backend) => evidencePackageRoute(decodeURIComponent(file))(request, backend);
}

export async function handleApiRequest(request: Request, env: ReceiptApiEnv): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === CSP_REPORT_PATH) return handleCspReport(request, env);
  if (!pathname.startsWith('/v1/')) return notFound();
  return serveApi(request, env, routeOf(pathname));
}
