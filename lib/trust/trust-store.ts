// Pinned kernel keys with validity windows (contract §5 `signer_trusted`,
// chio-format.md §14 step 8). Without pinned keys a valid signature shows only
// self-consistency, so the check is `skipped`, never `pass`.
import { normalizeKernelKey } from '../chio/keys';
import { type CheckResult, fail, pass, skipped } from '../verdict/check';

export interface PinnedKey {
  /** The key as Rust's `to_hex()` writes it (normalized on construction). */
  key: string;
  label?: string;
  /** Unix seconds, inclusive. */
  notBefore?: bigint;
  /** Unix seconds, inclusive. */
  notAfter?: bigint;
}

export type TrustStoreResult = { ok: true; store: TrustStore } | { ok: false; error: string };

export class TrustStore {
  private readonly byKey = new Map<string, PinnedKey[]>();

  private constructor(readonly keys: readonly PinnedKey[]) {
    for (const k of keys) {
      const list = this.byKey.get(k.key) ?? [];
      list.push(k);
      this.byKey.set(k.key, list);
    }
  }

  /** Validates and normalizes pinned keys; a malformed key is an error, never silently dropped. */
  static create(keys: readonly PinnedKey[]): TrustStoreResult {
    const normalized: PinnedKey[] = [];
    for (const k of keys) {
      const key = normalizeKernelKey(k.key);
      if (key === null) return { ok: false, error: `not a valid kernel key: ${JSON.stringify(k.key)}` };
      if (k.notBefore !== undefined && k.notAfter !== undefined && k.notAfter < k.notBefore) {
        return { ok: false, error: `validity window of ${key} ends before it starts` };
      }
      normalized.push({ ...k, key });
    }
    return { ok: true, store: new TrustStore(normalized) };
  }

  static empty(): TrustStore {
    return new TrustStore([]);
  }

  get isEmpty(): boolean {
    return this.keys.length === 0;
  }

  isPinned(normalizedKey: string | null): boolean {
    return normalizedKey !== null && this.byKey.has(normalizedKey);
  }

  /** `signer_trusted` for a signature made by `normalizedKey` at `atUnix` seconds. */
  check(normalizedKey: string | null, atUnix: bigint): CheckResult {
    if (this.isEmpty) return skipped('no_key_pinned');
    if (normalizedKey === null) return fail('signer_key_invalid');
    const entries = this.byKey.get(normalizedKey);
    if (!entries) return fail('signer_not_pinned');
    for (const e of entries) {
      const after = e.notBefore === undefined || atUnix >= e.notBefore;
      const before = e.notAfter === undefined || atUnix <= e.notAfter;
      if (after && before) return e.label === undefined ? pass() : pass('signer_pinned', e.label);
    }
    return fail('signer_outside_window', atUnix);
  }
}
