// Server side only: the /v1 API without Next, for node:http servers (tests,
// benchmarks), routing exactly as the Next route files under app/v1/ do. Every
// /v1 path but the CSP report is authenticated first, then routed; anything else is a JSON 404.
// A URL with malformed percent-encoding is answered 400 (after the token check), never routed.
import { checkBearer } from './auth';
import { handleCspReport } from './csp-report';
import { CSP_REPORT_PATH } from './security-headers';
import { handleEvidenceExport, handleEvidencePackage } from './handle-evidence';
import { type ReceiptApiEnv, handleReceiptQuery } from './handle-receipt-query';
import { malformedPercentEncoding, malformedUrl, notFound } from './http';
import { handleFleetKernels, handleFleetSummary } from './fleet/handle-fleet';

const PACKAGE_FILE = /^\/v1\/evidence\/package\/([^/]+)$/;

export async function handleApiRequest(request: Request, env: ReceiptApiEnv): Promise<Response> {
  const { pathname } = new URL(request.url);
  // Browsers send CSP reports without a token, so this one route is outside the bearer check.
  if (pathname === CSP_REPORT_PATH) return handleCspReport(request, env);
  if (pathname.startsWith('/v1/')) {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (malformedPercentEncoding(request.url)) return malformedUrl();
    if (pathname === '/v1/receipts/query') return handleReceiptQuery(request, env);
    if (pathname === '/v1/evidence/export') return handleEvidenceExport(request, env);
    if (pathname === '/v1/fleet/kernels') return handleFleetKernels(request, env);
    if (pathname === '/v1/fleet/summary') return handleFleetSummary(request, env);
    if (pathname === '/v1/evidence/package' || pathname === '/v1/evidence/package/') return handleEvidencePackage(request, env, null);
    const file = PACKAGE_FILE.exec(pathname)?.[1];
    if (file !== undefined) return handleEvidencePackage(request, env, decodeURIComponent(file));
  }
  return notFound();
}
