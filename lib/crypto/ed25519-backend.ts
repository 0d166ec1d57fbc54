// The Ed25519 engine injection point for spec/verification.md §4. An engine
// (WebCrypto here; node:crypto from bin/cli) only answers "does this equation
// hold"; the strict rules (ed25519-precheck.ts, the cofactor rule in
// ed25519.ts) run around it unchanged. Every engine goes through the same
// one-time probe, so whether it is cofactorless is measured, never assumed.
import { fromHex } from '../bytes/hex';

/**
 * What the probe found. `cofactorless` is the behaviour of BoringSSL,
 * OpenSSL, NSS/HACL* and dalek (Chromium, Node, Firefox). `cofactored` would
 * accept a signature whose R has a small-order component; the caller then
 * adds the torsion check on R that it also runs for noble.
 */
export type Ed25519Support = 'cofactorless' | 'cofactored' | 'unavailable';

/** A verification engine that a platform adapter can inject (`registerEd25519Backend`). */
export interface Ed25519Backend {
  /** Short and stable (`webcrypto`, `node`): tests, benchmarks, `activeEd25519Engine`. */
  readonly name: string;
  /**
   * The engine's raw verdict on a key and signature that already passed the
   * pre-checks (`keyHex` is the key as lowercase hex, for a key cache). May
   * throw when the engine itself fails; a verdict is never thrown.
   */
  verify(publicKey: Uint8Array, keyHex: string, message: Uint8Array, signature: Uint8Array): boolean | Promise<boolean>;
}

/** RFC 8032 §7.1 TEST 1 (empty message). */
const RFC_TEST1 = {
  publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  message: '',
  signature: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
};

/**
 * A signature by the TEST 1 key whose R = rB + T, T of order 8 (S recomputed
 * for that R). It satisfies the cofactored equation but not the cofactorless
 * one, so it tells the two kinds of engine apart. Built with the test
 * "mixed-order R" construction in ed25519.test.ts, which re-checks it.
 */
export const COFACTOR_PROBE = {
  publicKey: RFC_TEST1.publicKey,
  message: '726563656970742d6175646974206564323535313920636f666163746f722070726f6265',
  signature: '5e7f5a88d4bf4b1adc40be6d88c8afc07138171f5261c0291e7b1e1de74c5205ac1baad160c7098dbc678521ee0d07551510fab2502741d8d1dbab127730b704',
};

type HexVector = { publicKey: string; message: string; signature: string };

async function verifyHex(backend: Ed25519Backend, v: HexVector): Promise<boolean> {
  return backend.verify(fromHex(v.publicKey)!, v.publicKey, fromHex(v.message)!, fromHex(v.signature)!);
}

async function probe(backend: Ed25519Backend): Promise<Ed25519Support> {
  try {
    if (!(await verifyHex(backend, RFC_TEST1))) return 'unavailable';
    // A one-bit change in S must fail, or the engine is not verifying at all.
    const tampered = { ...RFC_TEST1, signature: RFC_TEST1.signature.slice(0, 64) + '5e' + RFC_TEST1.signature.slice(66) };
    if (await verifyHex(backend, tampered)) return 'unavailable';
    return (await verifyHex(backend, COFACTOR_PROBE)) ? 'cofactored' : 'cofactorless';
  } catch {
    return 'unavailable'; // e.g. no Ed25519 in this WebCrypto (older Safari/Firefox, insecure context)
  }
}

const probes = new WeakMap<Ed25519Backend, Promise<Ed25519Support>>();

/** Probes `backend` once per realm; every caller shares the one promise. */
export function ed25519Support(backend: Ed25519Backend): Promise<Ed25519Support> {
  let p = probes.get(backend);
  if (p === undefined) {
    p = probe(backend);
    probes.set(backend, p);
  }
  return p;
}

let registered: Ed25519Backend | null = null;

/**
 * Makes `backend` the engine `auto` tries first (before WebCrypto, then
 * noble), in this realm. A platform adapter calls it once at start (the
 * command line and its worker threads: node:crypto). Passing null removes it.
 */
export function registerEd25519Backend(backend: Ed25519Backend | null): void {
  registered = backend;
}

/** The backend registered in this realm, if any. */
export function registeredEd25519Backend(): Ed25519Backend | null {
  return registered;
}
