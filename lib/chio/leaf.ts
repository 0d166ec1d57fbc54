// The kernel's Merkle leaf of a stored receipt (chio-format.md §9.2): the leaf
// hash of JCS of the complete typed receipt, signature included.
import { canonicalBytes } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { isJsonObject } from '../json/value';
import { leafHash } from '../merkle';
import { decodeChildReceipt } from './child-receipt';
import { decodeToolReceipt } from './tool-receipt';

/** Leaf hash of a stored tool or child receipt's JSON, or null when it does not decode. */
export function receiptLeafHash(rawJson: string, kind: 'tool' | 'child'): Uint8Array | null {
  const parsed = parseJson(rawJson);
  if (!parsed.ok || !isJsonObject(parsed.value)) return null;
  const d = kind === 'tool' ? decodeToolReceipt(parsed.value) : decodeChildReceipt(parsed.value);
  return d.ok ? leafHash(canonicalBytes(d.value.fullTyped)) : null;
}
