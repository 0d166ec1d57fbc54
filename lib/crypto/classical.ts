// Dispatch of a classical (non-post-quantum) Chio signature to its verifier:
// Ed25519 or ECDSA P-256/P-384 (spec/verification.md §4). Shared by plain
// Chio signatures and the classical half of hybrid ones.
import { verifyEcdsa } from './ecdsa';
import { verifyEd25519, type Ed25519Engine } from './ed25519';

export type ClassicalAlgorithm = 'ed25519' | 'p256' | 'p384';

/** `skipped` only when this engine cannot run the check (never a verdict on the signature). */
export type ClassicalResult = { status: 'pass' } | { status: 'fail'; reason: string } | { status: 'skipped'; reason: string };

export interface ClassicalOptions {
  /** Forwarded to verifyEd25519. */
  ed25519Engine?: Ed25519Engine;
}

export async function verifyClassical(
  algorithm: ClassicalAlgorithm,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  options: ClassicalOptions = {},
): Promise<ClassicalResult> {
  if (algorithm === 'ed25519') {
    const engine = options.ed25519Engine;
    const r = await verifyEd25519(publicKey, message, signature, engine === undefined ? {} : { engine });
    return r.valid ? { status: 'pass' } : { status: 'fail', reason: r.reason };
  }
  const r = await verifyEcdsa(algorithm, publicKey, message, signature);
  if (r.valid) return { status: 'pass' };
  if (r.reason === 'unsupported') return { status: 'skipped', reason: 'ecdsa_unsupported' };
  return { status: 'fail', reason: r.reason };
}
