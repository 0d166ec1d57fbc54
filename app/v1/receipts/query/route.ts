// GET /v1/receipts/query: Chio's receipt query (chio-format.md §11.2) over the server's store.
// Thin: the work is in server/handle-receipt-query.ts. Other methods get 405 (after auth).
import { handleReceiptQuery } from '../../../../server/handle-receipt-query';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => handleReceiptQuery(request, process.env);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
