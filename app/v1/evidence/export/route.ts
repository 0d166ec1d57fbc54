// POST /v1/evidence/export: the served store's (or one fleet kernel's) evidence bundle (chio-format.md §11.2).
// Thin: the gate is server/serve-api.ts, the work server/handle-evidence.ts.
import { evidenceExportRoute } from '../../../../server/handle-evidence';
import { serveApi } from '../../../../server/serve-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => serveApi(request, process.env, evidenceExportRoute);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
