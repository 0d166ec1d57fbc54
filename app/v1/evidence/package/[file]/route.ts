// GET /v1/evidence/package/<file>: one file of the served store's evidence package (§11.1).
import { handleEvidencePackage } from '../../../../../server/handle-evidence';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ file: string }> };

export async function GET(request: Request, context: Context): Promise<Response> {
  return handleEvidencePackage(request, process.env, (await context.params).file);
}
export const POST = GET;
