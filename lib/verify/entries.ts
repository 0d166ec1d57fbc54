// The compact per-record state the orchestrator keeps after intake: enough for
// inclusion, trust, finance, verdicts and the report, without the parsed trees.
import type { Provenance } from '../chio/lineage-row';
import type { CheckpointFacts, DecodedInclusionProof, FinancialMetadata, Generation, ReceiptType } from '../chio/types';
import type { CheckResult, CheckpointCheckName, ReceiptCheckName } from '../verdict/check';
import type { LineageFailure } from './lineage';
import type { ReportEnvelope } from '../verdict/report';

export interface Located {
  file: string;
  line: number;
  /** Arrival order, the tie-breaker for a stable report. */
  order: number;
}

export interface ReceiptEntry extends Located {
  id: string;
  type: ReceiptType;
  generation?: Generation;
  /** The record's own `seq` (package wrapper or store row). */
  seq?: bigint;
  /** The seq space (one per source) and the position checkpoints cover in it. */
  space: string;
  logSeq?: bigint;
  timestamp: bigint;
  kernelKey: string | null;
  checks: Partial<Record<ReceiptCheckName, CheckResult>>;
  /**
   * RFC 6962 leaf hashes, 64 bytes: of the full stored receipt (kernel lane, bytes 0–31), then of
   * its body (anchor lane, 32–63). One array, not two: at a million receipts each array object costs
   * about 100 bytes of its own (see kernelLeaf, anchorLeaf).
   */
  leafHashes: Uint8Array;
  capabilityId?: string;
  /** The signed `metadata.attribution` keys, when the receipt carries them (checked against its lineage row). */
  attributionSubjectKey?: string;
  attributionIssuerKey?: string;
  /** A tool receipt's `tenant_id`, when it has one (a package's tenant scope, part 2 §5.3). */
  tenantId?: string;
  /**
   * Gen B tool receipts: `<receipt_kind>/<boundary_class>[/allowed]` (receipt-semantics.ts), for a
   * package's `receiptSemantics`. One of 24 values, shared by EntryCompactor.
   */
  semantics?: string;
  financial?: FinancialMetadata;
  financialError?: string;
  decision?: string;
  /** The claims of the envelope the receipt arrived in (contract part 2 §5.4), when it came in one. */
  envelope?: ReportEnvelope;
  /** The outcome of this receipt's inclusion proof, once checked, and how many proofs named it. */
  proofResult?: CheckResult;
  proofCount?: number;
  /** The checkpoint `proofResult` was checked against, and the results against others with the same seq (a forged one may share it). */
  proofCheckpoint?: CheckpointEntry;
  proofOthers?: [CheckpointEntry, CheckResult][];
  /** Set while inclusion is decided: how its proof's position disagrees with the batch (a warning, §5.2). */
  proofPosition?: string;
}

/** The kernel-lane leaf hash of a receipt (a view, no copy). */
export const kernelLeaf = (r: ReceiptEntry): Uint8Array => r.leafHashes.subarray(0, 32);
/** The anchor-lane leaf hash of a receipt (a view, no copy). */
export const anchorLeaf = (r: ReceiptEntry): Uint8Array => r.leafHashes.subarray(32, 64);

export interface CheckpointEntry extends Located {
  space: string;
  /** Its typed fields (not the parsed body: see CheckpointFacts). */
  cp: CheckpointFacts;
  sha256: string;
  checks: Partial<Record<CheckpointCheckName, CheckResult>>;
  /**
   * The chain frontier after this checkpoint (one root per perfect subtree of chain leaves 1…seq,
   * largest first), kept only for the highest checkpoints of a log whose whole prefix is here:
   * the page remembers it, so a later load's v2 checkpoints can be checked against it (§12).
   */
  chainFrontier?: { size: bigint; hash: Uint8Array }[];
}

export interface ProofEntry extends Located {
  space: string;
  proof: DecodedInclusionProof;
}

export interface TransparencyEntry extends Located {
  space: string;
  kind: 'publication' | 'witness' | 'consistency' | 'equivocation';
  /** Each field's canonical JSON text (clone-safe; compared with the rebuilt record). */
  fields: Record<string, string>;
  /**
   * Why the record cannot be honest, when it holds what no producer writes: a consistency path
   * longer than MAX_PROOF_LEVELS, a field or key over 64 KiB. Those fields are not kept (a 16 MiB
   * record can hold 240,000 hashes); the record fails with this reason.
   */
  refused?: string;
}

/** One capability-lineage row and its `lineage` check (contract part 2 §5.3.1). Clone-safe. */
export interface LineageEntry extends Located {
  space: string;
  capabilityId: string;
  provenance: Provenance;
  subjectKey: string;
  issuerKey: string;
  /** The failing rules, one per code (a signature still being checked may add one). */
  failures: LineageFailure[];
  /** Why the token's signature could not be checked on this engine (the row is then neither verified nor failed). */
  skipped?: string;
}
