// Typed projection of attacker-controlled JSON objects onto Chio's Rust
// structs (chio-format.md §1.1): the verifier must sign/hash what Rust would
// re-serialize after deserializing into the typed struct, so unknown keys are
// dropped (and reported as unsigned), `null` optionals are omitted, integers
// are re-printed from their value, and wrong types are shape errors.
import { JsonNumber, type JsonObject, type JsonValue, isJsonObject, jsonTypeName, pathKey } from '../json/value';

export interface ShapeIssue {
  path: string;
  message: string;
}

/** Shared sinks for one record: shape errors (fatal) and keys outside the signed set (warnings). */
export interface ProjectionSink {
  issues: ShapeIssue[];
  unsigned: string[];
}

export const U64_MAX = 18446744073709551615n;
const U32_MAX = 4294967295n;
const U16_MAX = 65535n;

/**
 * Reads one JSON object field by field, copying each known field into `out`
 * under Rust's omission rules. Call `finish()` to record unknown keys.
 */
export class ObjectProjector {
  readonly out: JsonObject = new Map();
  private readonly known = new Set<string>();

  constructor(
    readonly src: JsonObject,
    readonly path: string,
    readonly sink: ProjectionSink,
  ) {}

  private issue(key: string, message: string): undefined {
    this.sink.issues.push({ path: pathKey(this.path, key), message });
    return undefined;
  }

  private take(key: string): JsonValue | undefined {
    this.known.add(key);
    return this.src.get(key);
  }

  /** Marks a key as part of the struct but not copied (e.g. `signature`, handled by the caller). */
  known_(key: string): JsonValue | undefined {
    return this.take(key);
  }

  string(key: string): string | undefined {
    const v = this.take(key);
    if (typeof v !== 'string') return this.issue(key, `expected a string, found ${jsonTypeName(v)}`);
    this.out.set(key, v);
    return v;
  }

  /** `Option<String>` with `skip_serializing_if = "Option::is_none"`: absent or null is omitted. */
  optString(key: string): string | undefined {
    const v = this.take(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') return this.issue(key, `expected a string or null, found ${jsonTypeName(v)}`);
    this.out.set(key, v);
    return v;
  }

  private integer(key: string, v: JsonValue | undefined, min: bigint, max: bigint, what: string): bigint | undefined {
    if (!(v instanceof JsonNumber) || !v.isIntegerLiteral) {
      return this.issue(key, `expected ${what}, found ${v instanceof JsonNumber ? `the number ${v.raw}` : jsonTypeName(v)}`);
    }
    const n = BigInt(v.raw);
    if (n < min || n > max) return this.issue(key, `${v.raw} is outside the range of ${what}`);
    // Re-print from the value, as Rust does (`-0` becomes `0`).
    this.out.set(key, new JsonNumber(n.toString()));
    return n;
  }

  u64(key: string): bigint | undefined {
    return this.integer(key, this.take(key), 0n, U64_MAX, 'an unsigned 64-bit integer');
  }

  u32(key: string): bigint | undefined {
    return this.integer(key, this.take(key), 0n, U32_MAX, 'an unsigned 32-bit integer');
  }

  u16(key: string): bigint | undefined {
    return this.integer(key, this.take(key), 0n, U16_MAX, 'an unsigned 16-bit integer');
  }

  optU64(key: string): bigint | undefined {
    const v = this.take(key);
    if (v === undefined || v === null) return undefined;
    return this.integer(key, v, 0n, U64_MAX, 'an unsigned 64-bit integer');
  }

  optU32(key: string): bigint | undefined {
    const v = this.take(key);
    if (v === undefined || v === null) return undefined;
    return this.integer(key, v, 0n, U32_MAX, 'an unsigned 32-bit integer');
  }

  /** A u16 that serde fills with `fallback` when the key is absent (`#[serde(default = …)]`). */
  u16OrDefault(key: string, fallback: bigint): bigint | undefined {
    const v = this.take(key);
    if (v === undefined) {
      this.out.set(key, new JsonNumber(fallback.toString()));
      return fallback;
    }
    return this.integer(key, v, 0n, U16_MAX, 'an unsigned 16-bit integer');
  }

  bool(key: string): boolean | undefined {
    const v = this.take(key);
    if (typeof v !== 'boolean') return this.issue(key, `expected true or false, found ${jsonTypeName(v)}`);
    this.out.set(key, v);
    return v;
  }

  /** A snake_case unit enum serialized as a string. */
  enumOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const v = this.take(key);
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      return this.issue(key, `expected one of ${values.join(', ')}, found ${typeof v === 'string' ? JSON.stringify(v) : jsonTypeName(v)}`);
    }
    this.out.set(key, v);
    return v as T;
  }

  /** `Option<Enum>`: absent or null is omitted. */
  optEnumOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const v = this.src.get(key);
    if (v === undefined || v === null) {
      this.known.add(key);
      return undefined;
    }
    return this.enumOf(key, values);
  }

  /** A required `serde_json::Value`: any JSON, `null` included, copied verbatim. */
  any(key: string): JsonValue | undefined {
    const v = this.take(key);
    if (v === undefined) return this.issue(key, 'missing required field');
    this.out.set(key, v);
    return v;
  }

  /** `Option<serde_json::Value>`: absent or null is omitted, anything else copied verbatim. */
  optAny(key: string): JsonValue | undefined {
    const v = this.take(key);
    if (v === undefined || v === null) return undefined;
    this.out.set(key, v);
    return v;
  }

  /** A required nested struct, projected by `project`. */
  object(key: string, project: (p: ObjectProjector) => void): JsonObject | undefined {
    const v = this.take(key);
    if (!isJsonObject(v)) return this.issue(key, `expected an object, found ${jsonTypeName(v)}`);
    const child = new ObjectProjector(v, pathKey(this.path, key), this.sink);
    project(child);
    child.finish();
    this.out.set(key, child.out);
    return child.out;
  }

  /** An optional nested struct: absent or null is omitted. */
  optObject(key: string, project: (p: ObjectProjector) => void): JsonObject | undefined {
    const v = this.src.get(key);
    if (v === undefined || v === null) {
      this.known.add(key);
      return undefined;
    }
    return this.object(key, project);
  }

  /**
   * A `Vec<T>` of structs with `#[serde(default, skip_serializing_if = "Vec::is_empty")]`:
   * absent means empty, empty is omitted, `null` is a type error as in serde.
   */
  vecOmitEmpty(key: string, project: (p: ObjectProjector) => void): JsonObject[] | undefined {
    const v = this.take(key);
    if (v === undefined) return [];
    if (!Array.isArray(v)) return this.issue(key, `expected an array, found ${jsonTypeName(v)}`);
    const items: JsonObject[] = [];
    v.forEach((item, i) => {
      const itemPath = `${pathKey(this.path, key)}[${i}]`;
      if (!isJsonObject(item)) {
        this.sink.issues.push({ path: itemPath, message: `expected an object, found ${jsonTypeName(item)}` });
        return;
      }
      const child = new ObjectProjector(item, itemPath, this.sink);
      project(child);
      child.finish();
      items.push(child.out);
    });
    if (items.length > 0) this.out.set(key, items);
    return items;
  }

  /** Copies a value chosen by the caller (e.g. a normalized key) under `key`. */
  set(key: string, value: JsonValue): void {
    this.known.add(key);
    this.out.set(key, value);
  }

  /** Records every key of the source that no accessor read as unsigned. */
  finish(): void {
    for (const key of this.src.keys()) {
      if (!this.known.has(key)) this.sink.unsigned.push(pathKey(this.path, key));
    }
  }
}

/**
 * An internally tagged enum (`#[serde(tag = "…")]`): reads the tag and lets
 * `variants[tag]` project the variant's fields. Unknown tags are shape errors.
 */
export function taggedEnum(
  parent: ObjectProjector,
  key: string,
  tag: string,
  variants: Record<string, (p: ObjectProjector) => void>,
  optional = false,
): { tag: string; value: JsonObject } | undefined {
  const v = parent.src.get(key);
  if (optional && (v === undefined || v === null)) {
    parent.known_(key);
    return undefined;
  }
  let chosen: string | undefined;
  const out = parent.object(key, (p) => {
    const t = p.src.get(tag);
    if (typeof t === 'string' && Object.hasOwn(variants, t)) {
      p.set(tag, t);
      chosen = t;
      variants[t]!(p);
    } else {
      p.known_(tag);
      p.sink.issues.push({
        path: pathKey(p.path, tag),
        message: `expected one of ${Object.keys(variants).join(', ')}, found ${typeof t === 'string' ? JSON.stringify(t) : jsonTypeName(t)}`,
      });
    }
  });
  return out && chosen !== undefined ? { tag: chosen, value: out } : undefined;
}
