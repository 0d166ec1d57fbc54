// Server side only: the one shape of the server's data. The /v1 handlers (handle-*.ts) ask a
// ReceiptBackend for what they serve and never ask which kind it is; serve-api.ts picks the kind
// once per request (`backendFor`): a Chio SQLite store (./store/backend.ts) or the fleet's
// ClickHouse cluster (./fleet/backend.ts), when CLICKHOUSE_URL is set.
//
// Every operation returns a Result: `{ok: true, value}`, or `{ok: false, error}` with an ApiError
// (http.ts), which the handler answers with apiErrorResponse. An operation throws only when
// something went wrong that no request can cause (a corrupt store); serve-api.ts answers that 500.
import type { ExportRequest } from '../lib/query/evidence-query';
import type { FleetKernels, FleetSummary } from '../lib/query/fleet-api';
import type { ReceiptQuery } from '../lib/query/receipt-query';
import type { ApiError } from './http';

/** `process.env` or a plain object with the same variables. */
export interface ReceiptApiEnv {
  [name: string]: string | undefined;
  /** When set (non-empty), every /v1 request needs `Authorization: Bearer <token>`. */
  RECEIPT_API_TOKEN?: string | undefined;
  /** The store to serve; the demo store when unset. */
  RECEIPT_DB?: string | undefined;
  /** Where a store's evidence package is built (default data/cache). */
  RECEIPT_CACHE_DIR?: string | undefined;
  /** When set, the fleet's ClickHouse node (its Distributed tables) is served instead of a store. */
  CLICKHOUSE_URL?: string | undefined;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: ApiError): Result<T> => ({ ok: false, error });

/** The figures only an index of many kernels has (`GET /v1/fleet/kernels`, `/v1/fleet/summary`). */
export interface FleetIndex {
  kernels(): Promise<Result<FleetKernels>>;
  /** `query`'s matches per kernel and outcome, and its costs; `query.cursor` is never set. */
  summary(query: ReceiptQuery): Promise<Result<FleetSummary>>;
}

export interface ReceiptBackend {
  /** One page of `GET /v1/receipts/query`: the response body, the stored receipts spliced in. */
  queryReceipts(query: ReceiptQuery): Promise<Result<Uint8Array>>;
  /** The `POST /v1/evidence/export` body for a parsed request (`requireProofs` checked here). */
  exportEvidence(request: ExportRequest): Promise<Result<string>>;
  /** The folder of the whole log's evidence package (`GET /v1/evidence/package[/<file>]`). */
  evidencePackage(): Promise<Result<string>>;
  /** The fleet's index figures, or the 404 of a backend that has none (asked before any parameter is read). */
  fleetIndex(): Result<FleetIndex>;
}
