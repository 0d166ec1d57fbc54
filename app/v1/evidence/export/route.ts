// POST /v1/evidence/export: the served store's evidence bundle (chio-format.md §11.2).
// Thin: the work is in server/handle-evidence.ts.
import { handleEvidenceExport } from '../../../../server/handle-evidence';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => handleEvidenceExport(request, process.env);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
