// Public API of lib/merkle: RFC 6962 / RFC 9162 Merkle trees as Chio uses them (spec §9.3-9.4).
export { HASH_SIZE, MAX_PROOF_LEVELS, leafHash, nodeHash } from './hash';
export { rootFromLeafHashes, inclusionProofFor, consistencyProofFor } from './root';
export { type InclusionStep, rootFromInclusionProof, verifyInclusion } from './inclusion';
export { verifyConsistency } from './consistency';
export { MERKLE_ERROR_CODES, type MerkleErrorCode, type MerkleFailure, type MerkleResult } from './result';
export { type Frontier, type FrontierNode, appendToFrontier, frontierRoot } from './frontier';
