// Contract part 2 §11: a receipt is `verified` only under a pinned key. Most browser tests are
// about something else, so each starts with the demo kernel's key pinned in this browser, as the
// README's first step has a user do (playwright.config.ts `storageState`). A test of the unpinned
// state itself starts from nothing: `test.use({ storageState: NOTHING_PINNED })`.
import { DEMO_KERNEL_KEY } from '../lib/trust/known-keys';
import { demoKernelKeyHex } from '../scripts/demo/generate';
import { FLEET_KERNELS } from '../scripts/fleet-demo';

/** Where the page keeps pinned keys (components/data/use-trust-keys.ts). */
export const TRUST_STORAGE = 'receipt-audit.trust.v1';

/** The keys of the demo fleet's kernels (scripts/fleet-demo.ts), which the fleet server serves. */
export const FLEET_KEYS = FLEET_KERNELS.map((k) => demoKernelKeyHex(k.seed));

/** The demo kernel's key pinned at `base`, the demo fleet's keys at `fleet`. */
export function demoKeysPinned(base: string, fleet: string) {
  const pinned = (entries: { key: string; label: string }[]) => [{ name: TRUST_STORAGE, value: JSON.stringify(entries) }];
  return {
    cookies: [],
    origins: [
      { origin: base, localStorage: pinned([{ key: DEMO_KERNEL_KEY, label: 'demo kernel' }]) },
      { origin: fleet, localStorage: pinned(FLEET_KEYS.map((key, i) => ({ key, label: `fleet kernel ${i + 1}` }))) },
    ],
  };
}

export const NOTHING_PINNED = { cookies: [], origins: [] };
