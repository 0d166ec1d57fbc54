// GET /v1/evidence/package/<file>: one file of the served store's evidence package (§11.1).
// Thin: the gate is server/serve-api.ts, the work server/handle-evidence.ts.
import { evidencePackageRoute } from '../../../../../server/handle-evidence';
import { serveApi } from '../../../../../server/serve-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ file: string }> };

export async function GET(request: Request, context: Context): Promise<Response> {
  return serveApi(request, process.env, evidencePackageRoute((await context.params).file));
}
export const POST = GET;
