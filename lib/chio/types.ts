// Decoded Chio records: the typed view the checks work on (chio-format.md §4–§7, §9).
import type { JsonObject, JsonValue } from '../json/value';

export type ReceiptType = 'tool' | 'child' | 'http';
export type Generation = 'A' | 'B';

export type DecisionVerdict = 'allow' | 'deny' | 'cancelled' | 'incomplete';

export interface GuardEvidence {
  guardName: string;
  verdict: boolean;
  details?: string;
}

export interface FinancialMetadata {
  grantIndex: bigint;
  costCharged: bigint;
  currency: string;
  budgetRemaining: bigint;
  budgetTotal: bigint;
  delegationDepth: bigint;
  rootBudgetHolder: string;
  settlementStatus: string;
  paymentReference?: string;
  attemptedCost?: bigint;
}

/** What every signed receipt type has in common. */
export interface DecodedReceiptCommon {
  type: ReceiptType;
  /** Tool receipts only; child and HTTP receipts are the same in both generations. */
  generation?: Generation;
  id: string;
  timestamp: bigint;
  /** `kernel_key` as written. */
  kernelKey: string;
  /** `kernel_key` as Rust's `to_hex()` re-emits it, or null when it is not a valid key. */
  kernelKeyNormalized: string | null;
  signature: string;
  /** The `algorithm` field, when present (informational; never signed). */
  algorithm?: string;
  policyHash: string;
  /** The exact object whose canonical bytes are signed. */
  signingBody: JsonObject;
  /** The typed re-serialization of the complete receipt: the kernel's Merkle leaf (§9.2). */
  fullTyped: JsonObject;
  /** The same minus `signature` and `algorithm`: the web3 anchor lane's leaf (§9.2). */
  anchorBody: JsonObject;
  /** Field paths present in the input but outside the signed field set. */
  unsigned: string[];
}

export interface DecodedToolReceipt extends DecodedReceiptCommon {
  type: 'tool';
  generation: Generation;
  capabilityId: string;
  toolServer: string;
  toolName: string;
  parameters: JsonValue;
  parameterHash: string;
  decision?: { verdict: DecisionVerdict; reason?: string; guard?: string };
  evidence: GuardEvidence[];
  contentHash: string;
  metadata?: JsonValue;
  trustLevel: 'mediated' | 'verified' | 'advisory';
  tenantId?: string;
  /** Gen B only. */
  genB?: {
    receiptKind: string;
    boundaryClass: string;
    observationOutcome?: string;
    toolOrigin: string;
    redactionMode: string;
    bbsProjectionVersion?: string;
    bbsSignature?: JsonObject;
    /** The id input object (§5): sha256 of its canonical bytes must equal `id`. */
    idInput: JsonObject;
  };
  financial?: FinancialMetadata;
  /** Set when `metadata.financial` exists but does not match FinancialReceiptMetadata. */
  financialError?: string;
}

export interface DecodedChildReceipt extends DecodedReceiptCommon {
  type: 'child';
  sessionId: string;
  parentRequestId: string;
  requestId: string;
  operationKind: string;
  terminalState: string;
  outcomeHash: string;
}

export interface DecodedHttpReceipt extends DecodedReceiptCommon {
  type: 'http';
  requestId: string;
  routePattern: string;
  method: string;
  verdict: string;
  responseStatus: bigint;
  capabilityId?: string;
}

export type DecodedReceipt = DecodedToolReceipt | DecodedChildReceipt | DecodedHttpReceipt;

/**
 * What verification keeps of a checkpoint once its body is hashed and its signature check is
 * under way: every typed field, without the parsed body, the signature or the root as written.
 * A log of 650,000 checkpoints holds this, not the decoded records (about 2.5 KB each).
 */
export type CheckpointFacts = Omit<DecodedCheckpoint, 'body' | 'signature' | 'merkleRootText'>;

export interface DecodedCheckpoint {
  checkpointSeq: bigint;
  batchStartSeq: bigint;
  batchEndSeq: bigint;
  treeSize: bigint;
  /** 32-byte root, or null when `merkle_root` is not 32 bytes of hex. */
  merkleRoot: Uint8Array | null;
  merkleRootText: string;
  issuedAt: bigint;
  schema: string;
  kernelKey: string;
  kernelKeyNormalized: string | null;
  previousCheckpointSha256?: string;
  /** v2 `chain_root` (§16.3), when present. */
  chainRoot?: Uint8Array;
  signature: string;
  /** The typed body whose canonical bytes are signed and hashed (hashes as `0x` + lowercase hex). */
  body: JsonObject;
  /**
   * What strict parsing refused (contract part 2 §2): unknown body or wrapper keys, explicit
   * `null` optionals, non-canonical hash spellings. Each makes `structure` fail.
   */
  strict: string[];
}

export interface DecodedInclusionProof {
  checkpointSeq: bigint;
  receiptSeq: bigint;
  leafIndex: bigint;
  merkleRoot: Uint8Array | null;
  treeSize: bigint;
  proofLeafIndex: bigint;
  auditPath: (Uint8Array | null)[];
}
