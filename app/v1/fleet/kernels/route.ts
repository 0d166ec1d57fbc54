// GET /v1/fleet/kernels: the fleet's kernels with their index figures (CLICKHOUSE_URL set).
// Thin: the gate is server/serve-api.ts, the work server/handle-fleet.ts. Other methods get 405 (after auth).
import { fleetKernelsRoute } from '../../../../server/handle-fleet';
import { serveApi } from '../../../../server/serve-api';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => serveApi(request, process.env, fleetKernelsRoute);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
