// Reading the fixed shapes of other runtimes' JSON receipts: each accessor
// names the field's path when it is missing or of the wrong type. Pure.
import { type JsonObject, type JsonValue, isJsonArray, isJsonNumber, isJsonObject, jsonTypeName } from '../json/value';

/** A field that is missing or of the wrong type, at `path`. */
export class Shape extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export const field = (o: JsonObject, key: string, path: string): JsonValue => {
  const v = o.get(key);
  if (v === undefined) throw new Shape(`${path}.${key}`, `${path}.${key} is missing (required)`);
  return v;
};
export const str = (o: JsonObject, key: string, path: string): string => {
  const v = field(o, key, path);
  if (typeof v !== 'string') throw new Shape(`${path}.${key}`, `${path}.${key} must be a string, not ${jsonTypeName(v)}`);
  return v;
};
export const uint = (o: JsonObject, key: string, path: string): bigint => {
  const v = field(o, key, path);
  const n = isJsonNumber(v) ? v.toBigInt() : null;
  if (n === null || n < 0n) throw new Shape(`${path}.${key}`, `${path}.${key} must be an unsigned integer, not ${isJsonNumber(v) ? v.raw : jsonTypeName(v)}`);
  return n;
};
export const bool = (o: JsonObject, key: string, path: string): boolean => {
  const v = field(o, key, path);
  if (typeof v !== 'boolean') throw new Shape(`${path}.${key}`, `${path}.${key} must be true or false, not ${jsonTypeName(v)}`);
  return v;
};
export const obj = (v: JsonValue, path: string): JsonObject => {
  if (!isJsonObject(v)) throw new Shape(path, `${path} must be an object, not ${jsonTypeName(v)}`);
  return v;
};
export const arr = (v: JsonValue, path: string): JsonValue[] => {
  if (!isJsonArray(v)) throw new Shape(path, `${path} must be an array, not ${jsonTypeName(v)}`);
  return v;
};
export const strOrNull = (o: JsonObject, key: string, path: string): string | null => {
  const v = field(o, key, path);
  if (v !== null && typeof v !== 'string') throw new Shape(`${path}.${key}`, `${path}.${key} must be a string or null, not ${jsonTypeName(v)}`);
  return v;
};
export const uintOrNull = (o: JsonObject, key: string, path: string): bigint | null => (field(o, key, path) === null ? null : uint(o, key, path));
