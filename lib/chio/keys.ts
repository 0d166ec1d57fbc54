// Kernel keys as Rust re-emits them (chio-format.md §2): `PublicKey::to_hex()`
// is lowercase with no `0x`, prefixed `p256:`/`p384:`/`hybrid:` for non-Ed25519.
import { parseChioPublicKey } from '../crypto/chio-signature';

/** The `to_hex()` form of a kernel key, or null when the text is not a valid key. */
export function normalizeKernelKey(text: string): string | null {
  const parsed = parseChioPublicKey(text);
  return parsed.ok ? parsed.key.normalized : null;
}
