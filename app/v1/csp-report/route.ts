// POST /v1/csp-report: browsers report Content-Security-Policy violations here. No bearer
// token (browsers send none). Thin: the work is in server/csp-report.ts.
import { handleCspReport } from '../../../server/csp-report';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => handleCspReport(request, process.env);

export const POST = handle;
export const GET = handle;
export const PUT = handle;
export const DELETE = handle;
