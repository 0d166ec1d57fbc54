// Ed25519 keys of the demo (node:crypto), all derived from the seed: the published demo kernel key, org authorities and agents.
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

/** The seed `npm start` and the CLI use when none is given. */
export const DEMO_SEED_DEFAULT = 'receipt-audit-demo';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface DemoKey {
  /** Lowercase hex of the 32-byte public key: Chio's PublicKey wire form (no prefix). */
  publicHex: string;
  /** Ed25519 signature over `message`, as 128 lowercase hex digits (Chio's Signature wire form). */
  sign(message: Uint8Array): string;
}

function keyFromSeedBytes(seed: Buffer): DemoKey {
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return {
    publicHex: spki.subarray(spki.length - 32).toString('hex'),
    sign: (message) => sign(null, message, privateKey).toString('hex'),
  };
}

/** The key named `label` under `seed`; the private seed is SHA-256 of both, so nothing is stored. */
export function demoKey(seed: string, label: string): DemoKey {
  return keyFromSeedBytes(createHash('sha256').update(`receipt-audit demo key v1|${seed}|${label}`).digest());
}

/** The demo kernel's signing key: it signs every receipt and checkpoint of the demo store. */
export function demoKernelKey(seed: string | number = DEMO_SEED_DEFAULT): DemoKey {
  return demoKey(String(seed), 'kernel');
}

/** The demo kernel's public key (pin it with `--trust-key`). */
export function demoKernelKeyHex(seed: string | number = DEMO_SEED_DEFAULT): string {
  return demoKernelKey(seed).publicHex;
}
