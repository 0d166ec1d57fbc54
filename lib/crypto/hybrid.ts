// Hybrid Chio signatures (spec/verification.md §4, chio-format.md §2): a
// classical signature plus ML-DSA-65 (FIPS 204, pure mode, empty context),
// both over the same message. If ML-DSA cannot run, the result is `skipped`,
// never `pass`.
import { verifyClassical, type ClassicalAlgorithm, type ClassicalOptions } from './classical';

export type HybridAlgSet = 'ed25519+mldsa65' | 'p256+mldsa65' | 'p384+mldsa65';

export const ML_DSA_65_PUBLIC_KEY_BYTES = 1952;
export const ML_DSA_65_SIGNATURE_BYTES = 3309;

export interface ClassicalPart {
  algorithm: ClassicalAlgorithm;
  bytes: Uint8Array;
}
export interface HybridPublicKeyParts {
  classical: ClassicalPart;
  mldsaPublicKey: Uint8Array;
  algSet: HybridAlgSet;
}
export interface HybridSignatureParts {
  classical: ClassicalPart;
  mldsaSignature: Uint8Array;
  algSet: HybridAlgSet;
}

export type HybridFailReason =
  | 'alg_set_mismatch' // key and signature alg sets differ, or do not name the classical algorithm
  | 'classical_algorithm_mismatch'
  | 'classical_failed' // `detail` holds the classical reason
  | 'mldsa_bad_length'
  | 'mldsa_bad_signature';

export type HybridResult =
  | { status: 'pass' }
  | { status: 'fail'; reason: HybridFailReason; detail?: string }
  | { status: 'skipped'; reason: 'mldsa_unavailable' | 'classical_unsupported'; detail?: string };

/** ML-DSA-65 pure verification with an empty context. */
export type MlDsa65Verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

export interface HybridOptions extends ClassicalOptions {
  /** Supplies the ML-DSA-65 verifier; defaults to @noble/post-quantum, loaded lazily. Tests inject failures here. */
  loadMlDsa65?: () => Promise<MlDsa65Verify>;
}

const ALG_SETS: Record<ClassicalAlgorithm, HybridAlgSet> = {
  ed25519: 'ed25519+mldsa65',
  p256: 'p256+mldsa65',
  p384: 'p384+mldsa65',
};

/** The alg_set a hybrid with this classical algorithm must carry. */
export function hybridAlgSetFor(classical: ClassicalAlgorithm): HybridAlgSet {
  return ALG_SETS[classical];
}

let defaultLoader: Promise<MlDsa65Verify> | undefined;

/** Loads @noble/post-quantum's ML-DSA-65 once (a separate chunk in browser bundles). */
export function loadMlDsa65(): Promise<MlDsa65Verify> {
  defaultLoader ??= import('@noble/post-quantum/ml-dsa.js').then(
    ({ ml_dsa65 }): MlDsa65Verify =>
      // noble's argument order is (signature, message, publicKey); no options = empty context.
      (publicKey, message, signature) =>
        ml_dsa65.verify(signature, message, publicKey),
  );
  defaultLoader.catch(() => {
    defaultLoader = undefined; // a failed chunk load may succeed later
  });
  return defaultLoader;
}

type MlDsaOutcome = { status: 'pass' } | { status: 'fail'; reason: 'mldsa_bad_length' | 'mldsa_bad_signature' } | { status: 'skipped'; detail: string };

async function verifyMlDsaHalf(key: Uint8Array, sig: Uint8Array, message: Uint8Array, load: () => Promise<MlDsa65Verify>): Promise<MlDsaOutcome> {
  if (key.length !== ML_DSA_65_PUBLIC_KEY_BYTES || sig.length !== ML_DSA_65_SIGNATURE_BYTES) {
    return { status: 'fail', reason: 'mldsa_bad_length' };
  }
  let verify: MlDsa65Verify;
  try {
    verify = await load();
  } catch (error) {
    return { status: 'skipped', detail: `ML-DSA-65 could not be loaded: ${String(error)}` };
  }
  try {
    return verify(key, message, sig) ? { status: 'pass' } : { status: 'fail', reason: 'mldsa_bad_signature' };
  } catch (error) {
    // Lengths are right, so a throw is the implementation's fault, not a verdict.
    return { status: 'skipped', detail: `ML-DSA-65 verification failed to run: ${String(error)}` };
  }
}

/**
 * Verifies a hybrid signature: alg sets agree with each other and with the
 * classical algorithm, the classical half verifies, then ML-DSA-65 verifies.
 * A classical failure is reported even when ML-DSA is unavailable.
 */
export async function verifyHybrid(
  key: HybridPublicKeyParts,
  signature: HybridSignatureParts,
  message: Uint8Array,
  options: HybridOptions = {},
): Promise<HybridResult> {
  if (key.algSet !== signature.algSet || key.algSet !== ALG_SETS[key.classical.algorithm]) {
    return { status: 'fail', reason: 'alg_set_mismatch' };
  }
  if (key.classical.algorithm !== signature.classical.algorithm) return { status: 'fail', reason: 'classical_algorithm_mismatch' };
  const classicalOptions: ClassicalOptions = options.ed25519Engine === undefined ? {} : { ed25519Engine: options.ed25519Engine };
  const classical = await verifyClassical(key.classical.algorithm, key.classical.bytes, message, signature.classical.bytes, classicalOptions);
  if (classical.status === 'fail') return { status: 'fail', reason: 'classical_failed', detail: classical.reason };
  const pq = await verifyMlDsaHalf(key.mldsaPublicKey, signature.mldsaSignature, message, options.loadMlDsa65 ?? loadMlDsa65);
  if (pq.status === 'fail') return pq;
  if (classical.status === 'skipped') return { status: 'skipped', reason: 'classical_unsupported', detail: classical.reason };
  if (pq.status === 'skipped') return { status: 'skipped', reason: 'mldsa_unavailable', detail: pq.detail };
  return { status: 'pass' };
}
