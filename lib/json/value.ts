// The lossless JSON value model (contract §2): objects keep their keys in
// source order, and every number keeps its exact source text so integers above
// 2^53 (u64 amounts, wei) survive parsing, hashing and re-serialization.

/** A JSON number as written in the source (already validated against the JSON grammar). */
export class JsonNumber {
  readonly raw: string;
  constructor(raw: string) {
    this.raw = raw;
  }

  /** True for integer literals: no fraction and no exponent. */
  get isIntegerLiteral(): boolean {
    return /^-?\d+$/.test(this.raw);
  }

  /** The value as a BigInt when it is an integer literal, else null. */
  toBigInt(): bigint | null {
    return this.isIntegerLiteral ? BigInt(this.raw) : null;
  }

  /** The IEEE-754 value (may lose precision for large integers; never use it for hashing). */
  toNumber(): number {
    return Number(this.raw);
  }
}

export type JsonObject = Map<string, JsonValue>;
export type JsonArray = JsonValue[];
export type JsonValue = null | boolean | string | JsonNumber | JsonArray | JsonObject;

export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return v instanceof Map;
}

export function isJsonArray(v: JsonValue | undefined): v is JsonArray {
  return Array.isArray(v);
}

export function isJsonNumber(v: JsonValue | undefined): v is JsonNumber {
  return v instanceof JsonNumber;
}

/** Builds a JsonObject from entries; convenience for code that constructs signed bodies. */
export function jsonObject(entries: Iterable<readonly [string, JsonValue]>): JsonObject {
  return new Map(entries);
}

/** JSON type name of a value, for error messages. */
export function jsonTypeName(v: JsonValue | undefined): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** Appends an object key to a display path (`$.a.b`, `$["odd key"]`). */
export function pathKey(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Appends an array index to a display path. */
export function pathIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}

/**
 * Converts to plain JavaScript for display: integers outside the safe range
 * become strings (never rounded numbers); objects become null-prototype records.
 */
export function toPlain(v: JsonValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (v instanceof JsonNumber) {
    const n = Number(v.raw);
    if (v.isIntegerLiteral && !Number.isSafeInteger(n)) return v.raw;
    return Object.is(n, -0) ? 0 : n;
  }
  if (Array.isArray(v)) return v.map(toPlain);
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, val] of v) out[k] = toPlain(val);
  return out;
}
