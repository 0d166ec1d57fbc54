// Strict Ed25519 verification (RFC 8032 plus the rule set of
// spec/verification.md §4) with identical verdicts on every engine (WebCrypto,
// an injected backend such as the command line's node:crypto, and
// @noble/ed25519), so every browser and Node agree (§1 principle 5).
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { type Ed25519Backend, type Ed25519Support, ed25519Support, registeredEd25519Backend } from './ed25519-backend';
import { classifyR, precheckEd25519, type Ed25519RejectReason } from './ed25519-precheck';
import { webCryptoEd25519 } from './ed25519-webcrypto';

export type { Ed25519RejectReason } from './ed25519-precheck';
export { classifyR, precheckEd25519 } from './ed25519-precheck';
export { webCryptoEd25519, webCryptoEd25519Support, type WebCryptoEd25519Support } from './ed25519-webcrypto';
export { ed25519Support, registerEd25519Backend, type Ed25519Backend, type Ed25519Support } from './ed25519-backend';

export type Ed25519Result = { valid: true } | { valid: false; reason: Ed25519RejectReason };

/** `auto`, a named built-in engine, or an injected one (ed25519-backend.ts). */
export type Ed25519Engine = 'auto' | 'webcrypto' | 'noble' | Ed25519Backend;

export interface VerifyEd25519Options {
  /**
   * `auto` (default): the registered backend (registerEd25519Backend) when
   * its probe finds it working, else WebCrypto when it does, else noble.
   * `webcrypto`, `noble` or a backend object force one engine (tests,
   * benchmarks); forcing one that is unavailable rejects with an Error.
   */
  engine?: Ed25519Engine;
}

// noble's synchronous API needs a SHA-512; it is used only where
// `crypto.subtle` is missing (e.g. an insecure-context page).
if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = sha512;

const VALID: Ed25519Result = Object.freeze({ valid: true });

function reject(reason: Ed25519RejectReason): Ed25519Result {
  return { valid: false, reason };
}

function hasSubtle(): boolean {
  return (globalThis as { crypto?: Crypto }).crypto?.subtle !== undefined;
}

/*
 * The cofactor rule. RFC 8032 allows two verification equations:
 *   cofactorless  [S]B = R + [k]A          (WebCrypto in Chromium/Node via
 *                                           BoringSSL/OpenSSL, NSS, dalek)
 *   cofactored   [8][S]B = [8]R + [8][k]A  (@noble/ed25519, also zip215: false)
 * They disagree exactly when R (or A) has a small-order "torsion" component:
 * R = P + T with T of order 2, 4 or 8 passes the cofactored equation (the [8]
 * kills T) but never the cofactorless one. The pre-checks already require A
 * to be torsion-free; if R is torsion-free too, [S]B - R - [k]A lies in the
 * prime-order subgroup, where multiplying by 8 is a bijection, so the two
 * equations are equivalent. Hence: R with a torsion component is rejected as
 * `r_not_in_prime_subgroup` on every engine.
 *
 * Where classifyR runs. On noble (cofactored) it must run before verifying.
 * A cofactorless engine accepts only when R's bytes encode [S]B - [k]A, a
 * point of the prime-order subgroup (y >= p and x = 0-with-sign encodings are
 * already refused by bytes), so classifyR could never reject an accepted
 * signature; it runs only after a rejection, to name the same reason noble
 * would. That keeps the ~0.1 ms square root off the main thread's hot path.
 */
async function verifyNoble(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<Ed25519Result> {
  const rVerdict = classifyR(signature.subarray(0, 32));
  if (rVerdict !== null) return reject(rVerdict);
  const opts = { zip215: false };
  const ok = hasSubtle() ? await ed.verifyAsync(signature, message, publicKey, opts) : ed.verify(signature, message, publicKey, opts);
  return ok ? VALID : reject('bad_signature');
}

async function verifyWithBackend(
  backend: Ed25519Backend,
  publicKey: Uint8Array,
  keyHex: string,
  message: Uint8Array,
  signature: Uint8Array,
  cofactored: boolean,
  fallBackToNoble: boolean,
): Promise<Ed25519Result> {
  if (cofactored) {
    const rVerdict = classifyR(signature.subarray(0, 32));
    if (rVerdict !== null) return reject(rVerdict);
  }
  let ok: boolean;
  try {
    ok = await backend.verify(publicKey, keyHex, message, signature);
  } catch (error) {
    // The engine failed on a key/signature that passed the pre-checks; in
    // `auto` let noble decide rather than guess a verdict.
    if (!fallBackToNoble) throw error;
    return verifyNoble(publicKey, message, signature);
  }
  if (ok) return VALID;
  return reject(classifyR(signature.subarray(0, 32)) ?? 'bad_signature');
}

function assertBytes(name: string, value: unknown): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
}

/**
 * Verifies an Ed25519 signature under the strict rule set. Resolves to
 * `{ valid: false, reason }` for any bad key, signature or message bytes;
 * rejects only on API misuse (non-Uint8Array arguments, unknown engine, a
 * forced `webcrypto` engine that does not exist). Calls run concurrently:
 * there is no queue, only a shared one-time engine probe and key caches.
 */
export async function verifyEd25519(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  options: VerifyEd25519Options = {},
): Promise<Ed25519Result> {
  assertBytes('publicKey', publicKey);
  assertBytes('message', message);
  assertBytes('signature', signature);
  const engine = options.engine ?? 'auto';
  if (!isKnownEngine(engine)) throw new TypeError(`unknown engine: ${String(engine)}`);

  // Synchronous and engine-independent: a cached key verdict is in place
  // before the first await, so concurrent calls with a new key share it.
  const pre = precheckEd25519(publicKey, signature);
  if (!pre.ok) return reject(pre.reason);

  if (engine === 'noble') return verifyNoble(publicKey, message, signature);
  const chosen = await chooseBackend(engine);
  if (chosen === null) return verifyNoble(publicKey, message, signature);
  return verifyWithBackend(chosen.backend, publicKey, pre.keyHex, message, signature, chosen.support === 'cofactored', engine === 'auto');
}

function isKnownEngine(engine: unknown): engine is Ed25519Engine {
  if (engine === 'auto' || engine === 'webcrypto' || engine === 'noble') return true;
  const b = engine as Ed25519Backend | null;
  return typeof b === 'object' && b !== null && typeof b.name === 'string' && typeof b.verify === 'function';
}

type Chosen = { backend: Ed25519Backend; support: Exclude<Ed25519Support, 'unavailable'> };

/** The backend `engine` runs on with its probed kind, or null for noble; throws when a forced one is unavailable. */
async function chooseBackend(engine: Exclude<Ed25519Engine, 'noble'>): Promise<Chosen | null> {
  if (engine !== 'auto') {
    const backend = engine === 'webcrypto' ? webCryptoEd25519 : engine;
    const support = await ed25519Support(backend);
    if (support === 'unavailable')
      throw new Error(
        backend === webCryptoEd25519 ? 'WebCrypto Ed25519 is not available in this engine' : `the ${backend.name} Ed25519 engine is not available here`,
      );
    return { backend, support };
  }
  const registered = registeredEd25519Backend();
  for (const backend of registered ? [registered, webCryptoEd25519] : [webCryptoEd25519]) {
    const support = await ed25519Support(backend);
    if (support !== 'unavailable') return { backend, support };
  }
  return null;
}

/** The engine `auto` uses here: the registered backend's name, `webcrypto` or `noble`. */
export async function activeEd25519Engine(): Promise<string> {
  return (await chooseBackend('auto'))?.backend.name ?? 'noble';
}
