// Contract part 2 §11: a receipt is `verified` only under a pinned key. Most browser tests are
// about something else, so each starts with the demo kernel's key (and the reference corpus's)
// pinned in this browser, as the
// README's first step has a user do (playwright.config.ts `storageState`). A test of the unpinned
// state itself starts from nothing: `test.use({ storageState: NOTHING_PINNED })`.
import { DEMO_KERNEL_KEY } from '../lib/trust/known-keys';
import { demoKernelKeyHex } from '../tools/demo/generate';
import { FLEET_KERNELS } from '../tools/fleet-demo';

/** Where the page keeps pinned keys (components/data/use-trust-keys.ts). */
export const TRUST_STORAGE = 'receipt-audit.trust.v1';

/** The keys of the demo fleet's kernels (tools/fleet-demo.ts), which the fleet server serves. */
export const FLEET_KEYS = FLEET_KERNELS.map((k) => demoKernelKeyHex(k.seed));

/** The reference corpus's kernel key (the `trust_keys` of each case's expected.json). */
export const CORPUS_KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

/** The demo kernel's and the corpus's keys pinned at `base`, the demo fleet's keys at `fleet`. */
export function demoKeysPinned(base: string, fleet: string) {
  // No labels: a pinned key's label becomes its signer_trusted detail, and the CLI runs compared with have none.
  const pinned = (entries: { key: string }[]) => [{ name: TRUST_STORAGE, value: JSON.stringify(entries) }];
  return {
    cookies: [],
    origins: [
      { origin: base, localStorage: pinned([{ key: DEMO_KERNEL_KEY }, { key: CORPUS_KEY }]) },
      { origin: fleet, localStorage: pinned(FLEET_KEYS.map((key) => ({ key }))) },
    ],
  };
}

export const NOTHING_PINNED = { cookies: [], origins: [] };

/** The demo kernel's key pinned at one more origin (a second server a spec starts itself). */
export function demoKeyPinnedAt(origin: string) {
  return { cookies: [], origins: [{ origin, localStorage: [{ name: TRUST_STORAGE, value: JSON.stringify([{ key: DEMO_KERNEL_KEY }]) }] }] };
}

/** The app's origin in this run (playwright.config.ts). */
export const E2E_BASE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}`;

/** `keys` pinned at the app's origin: for a spec whose log another kernel signed. */
export function keysPinned(keys: string[]) {
  return { cookies: [], origins: [{ origin: E2E_BASE, localStorage: [{ name: TRUST_STORAGE, value: JSON.stringify(keys.map((key) => ({ key }))) }] }] };
}
