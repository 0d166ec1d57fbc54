// Server side only: the fleet backend (../backend.ts, issue 9): the receipt API answered from the
// ClickHouse cluster at CLICKHOUSE_URL (./query.ts): pages and one kernel's export bundle, and the
// fleet's own index figures. A fleet has no whole-log package. Cluster errors are logged with
// their SQL error and answered 503 without it.
import type { ExportRequest } from '../../lib/query/evidence-query';
import { type FleetIndex, type ReceiptBackend, type Result, fail, ok } from '../backend';
import { type ApiError, invalidParameter } from '../http';
import { logServerError } from '../redact';
import { type ClickHouse, ClickHouseError } from './clickhouse';
import { fleetBundleText, fleetExport, kernelsOf } from './fleet-export';
import { fleetKernels, fleetSummary } from './fleet-figures';
import { fleetClient, fleetPage } from './query';

const NO_PACKAGE: ApiError = {
  status: 404,
  code: 'not_found',
  message:
    'this server serves a fleet: search it with /v1/receipts/query (GET /v1/fleet/kernels lists its kernels), or export one kernel with POST /v1/evidence/export',
};

function clusterUnavailable(what: string, e: unknown): ApiError {
  logServerError(what, e);
  const reachable = e instanceof ClickHouseError && e.status !== undefined;
  return {
    status: 503,
    code: 'store_unavailable',
    message: reachable ? 'the fleet index could not answer this query' : 'the fleet index (ClickHouse) is not reachable',
  };
}

/** `run`'s result, or the 503 of a cluster that failed (logged as `what`). */
async function guarded<T>(what: string, run: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await run());
  } catch (e) {
    return fail(clusterUnavailable(what, e));
  }
}

/** The backend of the cluster whose Distributed tables are at `url`. */
export function fleetBackend(url: string): ReceiptBackend {
  const ch = fleetClient(url);
  const index: FleetIndex = {
    kernels: () => guarded('GET /v1/fleet/kernels', () => fleetKernels(ch)),
    summary: (query) => guarded('GET /v1/fleet/summary', () => fleetSummary(ch, query)),
  };
  return {
    queryReceipts: (query) => guarded('GET /v1/receipts/query (fleet)', () => fleetPage(ch, query)),
    // Not guarded: a cluster error in an export has always been answered 500 (internal_error),
    // not 503; kept so that no answer changes (server/README.md, "Known differences").
    exportEvidence: (request) => exportKernel(ch, request),
    evidencePackage: async () => fail(NO_PACKAGE),
    fleetIndex: () => ok(index),
  };
}

/** `POST /v1/evidence/export` from the cluster: one kernel's bundle (its own seq space). */
async function exportKernel(ch: ClickHouse, { query, requireProofs }: ExportRequest): Promise<Result<string>> {
  if (query.tenant !== undefined)
    return fail(invalidParameter('query.tenant', 'the fleet index has no tenant column; filter by kernelKey, capabilityId, agentSubject or time'));
  let kernelKey = query.kernelKey;
  if (kernelKey === undefined) {
    const kernels = await kernelsOf(ch, query);
    if (kernels.length > 1) {
      const message = `the query matches receipts of ${kernels.length} kernels; an export bundle is one kernel's log: give query.kernelKey`;
      return fail(invalidParameter('query.kernelKey', message));
    }
    kernelKey = kernels[0] ?? '0'.repeat(64);
  }
  const evidence = await fleetExport(ch, { ...query, kernelKey });
  if (requireProofs && evidence.unproven.length > 0) {
    const message = `${evidence.unproven.length} receipt(s) of this query are not covered by a checkpoint yet`;
    return fail({ status: 409, code: 'proofs_unavailable', message, param: 'requireProofs' });
  }
  return ok(fleetBundleText(evidence));
}
