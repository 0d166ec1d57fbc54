// Test-only: structured mutations of a JSON document for the fuzz suites: a value replaced, a
// key added, deleted or renamed, one character of a string edited, a number respelled. The
// result is written back as canonical text (so key order and number spelling change too).
import fc from 'fast-check';
import { canonicalize } from '../../lib/json/canonicalize';
import { parseJson } from '../../lib/json/parse';
import { JsonNumber, type JsonObject, type JsonValue } from '../../lib/json/value';
import { jsonDoc, jsonString, renderJson, style } from './json-arbitraries';

export type JsonEdit =
  | { op: 'replace'; at: number; value: JsonValue }
  | { op: 'delete'; at: number }
  | { op: 'add'; at: number; key: string; value: JsonValue }
  | { op: 'rename'; at: number; key: string }
  | { op: 'string'; at: number; pos: number; ch: string; how: 'insert' | 'replace' | 'delete' }
  | { op: 'number'; at: number; raw: string };

const parsedValue = fc.tuple(jsonDoc, style).map(([d, st]) => {
  const r = parseJson(renderJson(d, st));
  return r.ok ? r.value : null;
});
export const jsonEdit: fc.Arbitrary<JsonEdit> = fc.oneof(
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: parsedValue }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: jsonString, value: parsedValue }),
  fc.record({ op: fc.constant('rename' as const), at: fc.nat(), key: jsonString }),
  fc.record({
    op: fc.constant('string' as const),
    at: fc.nat(),
    pos: fc.nat(),
    how: fc.constantFrom('insert' as const, 'replace' as const, 'delete' as const),
    ch: fc.constantFrom(...'0123456789abcdefABCDEF-_.:/ x\u007f\u0080\u00e9\u{1F600}'.split(/(?:)/u)),
  }),
  fc.record({
    op: fc.constant('number' as const),
    at: fc.nat(),
    raw: fc.constantFrom('0', '-0', '1', '-1', '1.0', '1e0', '18446744073709551615', '9007199254740993', '0.5'),
  }),
);

/** A deep copy of the tree (numbers and strings are immutable and shared). */
function clone(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(clone);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, clone(x)]));
  return v;
}

/** Every (container, key) slot in the tree, depth first. */
function slots(root: JsonValue): { parent: JsonObject | JsonValue[]; key: string | number }[] {
  const out: { parent: JsonObject | JsonValue[]; key: string | number }[] = [];
  const walk = (v: JsonValue) => {
    if (Array.isArray(v))
      v.forEach((x, i) => {
        out.push({ parent: v, key: i });
        walk(x);
      });
    else if (v instanceof Map)
      for (const [k, x] of v) {
        out.push({ parent: v, key: k });
        walk(x);
      }
  };
  walk(root);
  return out;
}

function applyEdit(root: JsonValue, e: JsonEdit): void {
  const all = slots(root);
  if (all.length === 0) return;
  const { parent, key } = all[e.at % all.length]!;
  const get = () => (parent instanceof Map ? parent.get(key as string)! : parent[key as number]!);
  const set = (v: JsonValue) => (parent instanceof Map ? parent.set(key as string, v) : (parent[key as number] = v));
  switch (e.op) {
    case 'replace':
      if (e.value !== null) set(e.value);
      return;
    case 'delete':
      if (parent instanceof Map) parent.delete(key as string);
      else parent.splice(key as number, 1);
      return;
    case 'add': {
      const v = get();
      if (v instanceof Map && !v.has(e.key)) v.set(e.key, e.value ?? null);
      else if (Array.isArray(v)) v.push(e.value ?? null);
      return;
    }
    case 'rename':
      if (parent instanceof Map && !parent.has(e.key)) {
        const v = get();
        parent.delete(key as string);
        parent.set(e.key, v);
      }
      return;
    case 'string': {
      const s = get();
      if (typeof s !== 'string') return;
      const i = e.pos % (s.length + 1);
      set(e.how === 'insert' ? s.slice(0, i) + e.ch + s.slice(i) : s.slice(0, i) + (e.how === 'replace' ? e.ch : '') + s.slice(i + 1));
      return;
    }
    case 'number':
      if (get() instanceof JsonNumber) set(new JsonNumber(e.raw));
      return;
  }
}

/** Mutated text: the edited tree written back (canonical text, so key order changes too). */
export function mutateJson(text: string, edits: JsonEdit[]): string | null {
  const r = parseJson(text);
  if (!r.ok) return null;
  const root = clone(r.value);
  for (const e of edits) applyEdit(root, e);
  try {
    return canonicalize(root);
  } catch {
    return null; // a string edit split a surrogate pair: not JSON text we can write
  }
}
