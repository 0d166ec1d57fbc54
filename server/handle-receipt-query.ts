// Server side only: `GET /v1/receipts/query` (chio-format.md §11.2) after the gate (serve-api.ts),
// for the Next route (app/v1/receipts/query/route.ts) and api-router.ts alike.
// Order: method → parse → backend → bytes. HEAD is GET without a body, as Next serves it for a
// route that exports GET.
import { parseReceiptQuery } from '../lib/query/receipt-query';
import { JSON_HEADERS, apiErrorResponse, badParameters, jsonBytes, methodNotAllowed } from './http';
import type { ApiRoute } from './serve-api';

export const receiptQueryRoute: ApiRoute = async (request, backend) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
  const parsed = parseReceiptQuery(new URL(request.url).searchParams);
  if (!parsed.ok) return badParameters(parsed.issues);
  const page = await backend.queryReceipts(parsed.query);
  if (!page.ok) return apiErrorResponse(page.error);
  return request.method === 'HEAD' ? new Response(null, { status: 200, headers: JSON_HEADERS }) : jsonBytes(page.value);
};
