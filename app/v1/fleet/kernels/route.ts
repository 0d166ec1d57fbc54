// GET /v1/fleet/kernels: the fleet's kernels with their index figures (CLICKHOUSE_URL set).
// Thin: the work is in server/fleet/handle-fleet.ts. Other methods get 405 (after auth).
import { handleFleetKernels } from '../../../../server/fleet/handle-fleet';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request): Promise<Response> => handleFleetKernels(request, process.env);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
