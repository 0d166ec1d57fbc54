// Server side only: the SQLite backend (../backend.ts) over one Chio receipt store (chio-format.md
// §10): pages from ./receipt-query.ts, export bundles from ./export.ts on a connection of their
// own, the whole-store package from ./package-cache.ts. A store is one kernel's log and has no
// fleet index. The server only serves bytes; every proof it computes is re-verified by whoever
// reads it.
import path from 'node:path';
import type { ExportRequest } from '../../lib/query/evidence-query';
import type { ReceiptQuery } from '../../lib/query/receipt-query';
import { type ReceiptApiEnv, type ReceiptBackend, type Result, fail, ok } from '../backend';
import { type ApiError, invalidParameter, storeUnavailable } from '../http';
import { DEMO_STORE } from './db';
import { MAX_BUNDLE_BYTES, buildExportBundle } from './export';
import { packageFor } from './package-cache';
import { queryReceiptStore } from './receipt-query';
import { closeReader, getStore, openReader, readerChanged } from './store-handle';

/** What a store server says of a fleet's `kernelKey` filter. */
export const NOT_A_FLEET = 'this server serves one receipt store, not a fleet: omit kernelKey';

const NO_FLEET_INDEX: ApiError = {
  status: 404,
  code: 'not_found',
  message: 'this server serves one receipt store, not a fleet (start it with CLICKHOUSE_URL)',
};

export function storeFileOf(env: ReceiptApiEnv): string {
  return env.RECEIPT_DB ? path.resolve(env.RECEIPT_DB) : DEMO_STORE;
}

/** The backend of the store at `file` (absolute); its package is cached under env.RECEIPT_CACHE_DIR. */
export function storeBackend(file: string, env: ReceiptApiEnv): ReceiptBackend {
  return {
    queryReceipts: async (query) => queryStore(file, query),
    exportEvidence: (request) => exportStore(file, request),
    evidencePackage: async () => {
      const opened = getStore(file);
      if (!opened.ok) return fail(storeUnavailable(opened.detail));
      const built = await packageFor(file, env);
      return built.ok ? ok(built.dir) : fail(storeUnavailable(built.detail));
    },
    fleetIndex: () => fail(NO_FLEET_INDEX),
  };
}

function queryStore(file: string, query: ReceiptQuery): Result<Uint8Array> {
  if (query.kernelKey !== undefined) return fail(invalidParameter('kernelKey', NOT_A_FLEET));
  const result = queryReceiptStore(file, query);
  return result.ok ? ok(result.body) : fail(storeUnavailable(result.detail));
}

async function exportStore(file: string, request: ExportRequest): Promise<Result<string>> {
  if (request.query.kernelKey !== undefined) return fail(invalidParameter('query.kernelKey', NOT_A_FLEET));
  // A connection of its own: the bundle is built a slice at a time, giving other requests their turn.
  const opened = openReader(file);
  if (!opened.ok) return fail(storeUnavailable(opened.detail));
  let result: Awaited<ReturnType<typeof buildExportBundle>>;
  try {
    result = await buildExportBundle(opened.store.db, file, request.query);
    if (readerChanged(opened.store)) return fail(storeUnavailable('the store changed while it was read; send the request again'));
  } finally {
    closeReader(opened.store);
  }
  if (!result.ok) {
    const { bytes, receipts } = result.tooLarge;
    return fail({
      status: 422,
      code: 'result_too_large',
      message: `the export of this query is over ${MAX_BUNDLE_BYTES} bytes (${bytes} bytes after ${receipts} receipts, and it was not finished): narrow it (since, until, capabilityId, agentSubject), or download the whole store's evidence package from GET /v1/evidence/package`,
      param: 'query',
    });
  }
  if (request.requireProofs && result.unproven > 0) {
    return fail({
      status: 409,
      code: 'proofs_unavailable',
      message: `${result.unproven} receipt(s) of this query have no inclusion proof: not checkpointed yet, or in a batch whose stored receipts do not reproduce its checkpoint's root`,
      param: 'requireProofs',
    });
  }
  return ok(result.body);
}
