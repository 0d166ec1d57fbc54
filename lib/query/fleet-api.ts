// The bodies of the fleet's own endpoints (a server with CLICKHOUSE_URL, issue 9), shared by the
// server that writes them and the page that reads them. Every number is an index figure: counted
// by ClickHouse, not verified (decimal strings, as UInt64 travel in JSON).

/** `GET /v1/fleet/kernels`: one kernel (the key that signs its log's checkpoints). */
export interface KernelSummary {
  kernelKey: string;
  toolReceipts: string;
  childReceipts: string;
  /** Tool receipts whose seq lies in a checkpointed batch. */
  checkpointedReceipts: string;
  inclusionProofs: string;
  checkpoints: string;
  denied: string;
  firstTimestamp: string;
  lastTimestamp: string;
}

export interface FleetKernels {
  figures: 'index';
  kernels: KernelSummary[];
}

/** `GET /v1/fleet/summary?<filters>`: a search's matches per kernel and per outcome, and its costs per currency. */
export interface FleetSummary {
  figures: 'index';
  byKernel: Record<string, string>;
  byOutcome: Record<string, string>;
  /** Minor units; `notSummed` counts costs longer than 38 digits (Decimal128), left out of `sum`. */
  costCharged: Record<string, { sum: string; receipts: string; notSummed: string }>;
}
