// JSON trees as Chio's Rust writes them: typed structs in declaration order, serde_json::Value subtrees with sorted keys, exact integers.
//
// Why two kinds of object: the kernel serializes its typed structs (receipt, action, decision,
// evidence, checkpoint body) field by field, but `parameters` and `metadata` are
// serde_json::Value, whose maps are BTreeMaps without the preserve_order feature, so their keys
// come out sorted (the released binaries' raw_json in ../shared/vectors/chio/showcase shows both).
// Nodes are lib/json's lossless tree, so canonicalBytes() gives the signed bytes and integers
// above 2^53 (wei) never pass through a JS number.
import { JsonNumber, type JsonObject, type JsonValue } from '../../lib/json/value';
import { canonicalBytes } from '../../lib/json/canonicalize';
import { sha256Hex } from '../../lib/crypto/sha256';

/** An exact JSON integer. Numbers must be safe integers; larger amounts come as bigint. */
export function int(v: number | bigint): JsonNumber {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${v}`);
  return new JsonNumber(v.toString());
}

/** A typed struct: keys in the order given; undefined fields are skipped (skip_serializing_if). */
export function struct(entries: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const out: JsonObject = new Map();
  for (const [k, v] of entries) if (v !== undefined) out.set(k, v);
  return out;
}

/**
 * A serde_json::Value from plain data: object keys sorted, undefined members dropped, numbers
 * only as safe integers (bigint for larger), JsonNumber and Map nodes kept as they are.
 */
export function value(plain: unknown): JsonValue {
  if (plain === null || typeof plain === 'string' || typeof plain === 'boolean') return plain;
  if (typeof plain === 'number' || typeof plain === 'bigint') return int(plain);
  if (plain instanceof JsonNumber || plain instanceof Map) return plain as JsonValue;
  if (Array.isArray(plain)) return plain.map(value);
  if (typeof plain === 'object') {
    const out: JsonObject = new Map();
    for (const k of Object.keys(plain).sort()) {
      const v = (plain as Record<string, unknown>)[k];
      if (v !== undefined) out.set(k, value(v));
    }
    return out;
  }
  throw new TypeError(`not JSON data: ${typeof plain}`);
}

/** Compact JSON in the tree's own key order, as serde_json::to_string writes it (lib/json/pretty.ts). */
export { compactJson } from '../../lib/json/pretty';

/** sha256 hex of the RFC 8785 bytes: parameter_hash, content_hash, outcome_hash, intent hashes. */
export function jcsSha256Hex(v: JsonValue): string {
  return sha256Hex(canonicalBytes(v));
}

/** sha256 hex of JCS(null): the content hash of a receipt without output. */
export const NULL_CONTENT_HASH = '74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b';
