// GET /v1/evidence/package: the files of the served store's evidence package, with links.
import { handleEvidencePackage } from '../../../../server/handle-evidence';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = (request: Request): Promise<Response> => handleEvidencePackage(request, process.env, null);
export const POST = GET;
