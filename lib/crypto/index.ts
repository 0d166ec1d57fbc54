// Public surface of lib/crypto: signature verification for spec/verification.md
// §4 (Ed25519 strict, ECDSA P-256/P-384, hybrid ML-DSA-65), the Chio wire
// forms of chio-format.md §2, and SHA-256.
export {
  parseChioPublicKey,
  parseChioSignature,
  signatureAlgorithmOf,
  verifyChioSignature,
  type ChioAlgorithm,
  type ChioParseReason,
  type ChioPublicKey,
  type ChioSignature,
  type ParseChioPublicKeyResult,
  type ParseChioSignatureResult,
  type SignatureCheck,
  type VerifyChioOptions,
} from './chio-signature';
export {
  activeEd25519Engine,
  ed25519Support,
  precheckEd25519,
  registerEd25519Backend,
  verifyEd25519,
  webCryptoEd25519,
  webCryptoEd25519Support,
  type Ed25519Backend,
  type Ed25519Engine,
  type Ed25519Support,
  type Ed25519RejectReason,
  type Ed25519Result,
  type VerifyEd25519Options,
  type WebCryptoEd25519Support,
} from './ed25519';
export { derToP1363, isValidSec1Key, verifyEcdsa, type EcdsaCurve, type EcdsaRejectReason, type EcdsaResult } from './ecdsa';
export {
  ML_DSA_65_PUBLIC_KEY_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
  hybridAlgSetFor,
  loadMlDsa65,
  verifyHybrid,
  type HybridAlgSet,
  type HybridOptions,
  type HybridPublicKeyParts,
  type HybridResult,
  type HybridSignatureParts,
  type MlDsa65Verify,
} from './hybrid';
export { verifyClassical, type ClassicalAlgorithm, type ClassicalResult } from './classical';
export { sha256, sha256Hex, sha256HexOfText, createSha256, type IncrementalHash } from './sha256';
