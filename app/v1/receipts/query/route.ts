// GET /v1/receipts/query: Chio's receipt query (chio-format.md §11.2) over the served store or fleet.
// Thin: the gate is server/serve-api.ts, the work server/handle-receipt-query.ts. Other methods get 405 (after auth).
import { receiptQueryRoute } from '../../../../server/handle-receipt-query';
import { serveApi } from '../../../../server/serve-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => serveApi(request, process.env, receiptQueryRoute);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
