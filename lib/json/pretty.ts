// Pretty JSON for people (the receipt page): keys in source order, numbers as
// written, and every character that could hide or reorder text on screen
// (controls, bidi overrides, zero-width marks, line separators) shown as a
// \uXXXX escape. Display only: what is signed and hashed is canonicalize().
import { JsonNumber, type JsonValue } from './value';

// C0/C1 controls, DEL, soft hyphen, zero-width and bidi marks, line/paragraph separators, BOM.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** A string as a JSON literal whose invisible and direction-changing characters are visible escapes. */
export function visibleString(s: string): string {
  return JSON.stringify(s).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text with its invisible and direction-changing characters shown as \uXXXX (for raw bytes on screen). */
export function visibleText(s: string): string {
  return s.replace(
    /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\u0000-\u0008\u000b-\u001f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function prettyJson(value: JsonValue, indent = 2): string {
  const out: string[] = [];
  write(value, '', ' '.repeat(indent), out);
  return out.join('');
}

function write(v: JsonValue, pad: string, step: string, out: string[]): void {
  if (v === null || typeof v === 'boolean') out.push(String(v));
  else if (typeof v === 'string') out.push(visibleString(v));
  else if (v instanceof JsonNumber) out.push(v.raw);
  else if (Array.isArray(v)) {
    if (v.length === 0) return void out.push('[]');
    out.push('[');
    v.forEach((item, i) => {
      out.push(i ? ',\n' : '\n', pad + step);
      write(item, pad + step, step, out);
    });
    out.push('\n', pad, ']');
  } else {
    if (v.size === 0) return void out.push('{}');
    out.push('{');
    let i = 0;
    for (const [k, item] of v) {
      out.push(i++ ? ',\n' : '\n', pad + step, visibleString(k), ': ');
      write(item, pad + step, step, out);
    }
    out.push('\n', pad, '}');
  }
}

/**
 * Compact JSON that parseJson reads back to the same tree: keys in source order, numbers exactly
 * as written (`1.0` stays `1.0`, where canonicalize() would print `1`). For handing a parsed
 * record to another thread without losing what a dialect's own serializer depends on.
 */
export function compactJson(v: JsonValue): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof JsonNumber) return v.raw;
  if (Array.isArray(v)) return `[${v.map(compactJson).join(',')}]`;
  const parts: string[] = [];
  for (const [k, item] of v) parts.push(`${JSON.stringify(k)}:${compactJson(item)}`);
  return `{${parts.join(',')}}`;
}
