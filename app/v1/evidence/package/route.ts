// GET /v1/evidence/package: the files of the served store's evidence package, with links.
// Thin: the gate is server/serve-api.ts, the work server/handle-evidence.ts.
import { evidencePackageRoute } from '../../../../server/handle-evidence';
import { serveApi } from '../../../../server/serve-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const route = evidencePackageRoute(null);

export const GET = (request: Request): Promise<Response> => serveApi(request, process.env, route);
export const POST = GET;
