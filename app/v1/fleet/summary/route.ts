// GET /v1/fleet/summary: per-kernel and per-outcome counts of a filter set (CLICKHOUSE_URL set).
// Thin: the work is in server/fleet/handle-fleet.ts. Other methods get 405 (after auth).
import { handleFleetSummary } from '../../../../server/fleet/handle-fleet';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => handleFleetSummary(request, process.env);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
