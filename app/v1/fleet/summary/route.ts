// GET /v1/fleet/summary: per-kernel and per-outcome counts of a filter set (CLICKHOUSE_URL set).
// Thin: the gate is server/serve-api.ts, the work server/handle-fleet.ts. Other methods get 405 (after auth).
import { fleetSummaryRoute } from '../../../../server/handle-fleet';
import { serveApi } from '../../../../server/serve-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => serveApi(request, process.env, fleetSummaryRoute);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
