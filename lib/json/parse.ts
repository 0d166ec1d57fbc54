// Lossless, strict JSON parser (RFC 8259 grammar; contract §2).
// Attacker-controlled input. Fails closed on anything two honest parsers could
// read differently: duplicate keys, lone UTF-16 surrogates, NaN/Infinity (not
// JSON), numbers out of range, and nesting deeper than the limit. Every number
// keeps its source text. Never throws on input; returns the first issue with a
// field path, line and column.
import { JsonNumber, type JsonObject, type JsonValue, pathIndex, pathKey } from './value';

export const MAX_DEPTH = 512;

/** Levels of a field path a message spells out (the first ones and the last four), and characters of each key. */
const PATH_SHOWN_LEVELS = 16;
const PATH_KEY_CHARS = 120;

export type JsonIssueCode = 'parse_error' | 'duplicate_key';

export interface JsonIssue {
  code: JsonIssueCode;
  message: string;
  /** Field path of the offending value, `$` for the root. */
  path: string;
  /** 1-based line and column in the parsed text. */
  line: number;
  column: number;
}

export type JsonParseResult = { ok: true; value: JsonValue } | { ok: false; issue: JsonIssue };

export interface ParseOptions {
  maxDepth?: number;
}

const U64_MAX = 18446744073709551615n;
const I64_MIN = -9223372036854775808n;

class JsonSyntaxError {
  constructor(
    readonly code: JsonIssueCode,
    readonly message: string,
    readonly pos: number,
    readonly path: string,
  ) {}
}

/** Parses one JSON text. Leading/trailing whitespace is allowed; anything else after the value is not. */
export function parseJson(text: string, options: ParseOptions = {}): JsonParseResult {
  const parser = new Parser(text, options.maxDepth ?? MAX_DEPTH);
  try {
    parser.skipWs();
    const value = parser.parseValue(0);
    parser.skipWs();
    if (parser.pos < text.length) parser.fail('unexpected content after the JSON value');
    return { ok: true, value };
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      const { line, column } = lineAndColumn(text, e.pos);
      return { ok: false, issue: { code: e.code, message: e.message, path: e.path, line, column } };
    }
    // A RangeError from the engine (e.g. stack) must still not escape as a throw.
    return {
      ok: false,
      issue: { code: 'parse_error', message: `cannot parse: ${String(e)}`, path: '$', line: 1, column: 1 },
    };
  }
}

export function lineAndColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(pos, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

class Parser {
  pos = 0;
  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  /**
   * Keys and indices from the root to the value being parsed. Paths are built
   * from it only when something fails: most records never need one.
   */
  private readonly segs: (string | number)[] = [];

  /**
   * The path for a message. A hostile record makes it unreadable, so its middle levels are left
   * out past PATH_SHOWN_LEVELS (`$[0][0]…(500 levels)…[0]`) and a long key is cut.
   */
  path(): string {
    const segs = this.segs;
    const head = segs.length > PATH_SHOWN_LEVELS ? PATH_SHOWN_LEVELS - 4 : segs.length;
    let path = '$';
    const add = (s: string | number) =>
      (path = typeof s === 'number' ? pathIndex(path, s) : pathKey(path, s.length > PATH_KEY_CHARS ? `${s.slice(0, PATH_KEY_CHARS)}…` : s));
    for (let i = 0; i < head; i++) add(segs[i]!);
    if (head < segs.length) {
      path += `…(${segs.length - head - 4} levels)…`;
      for (let i = segs.length - 4; i < segs.length; i++) add(segs[i]!);
    }
    return path;
  }

  fail(message: string, code: JsonIssueCode = 'parse_error', at = this.pos): never {
    throw new JsonSyntaxError(code, message, at, this.path());
  }

  skipWs(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  parseValue(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 123: // {
        return this.parseObject(depth + 1);
      case 91: // [
        return this.parseArray(depth + 1);
      case 34: // "
        return this.parseString();
      case 116: // t
        return this.literal('true', true);
      case 102: // f
        return this.literal('false', false);
      case 110: // n
        return this.literal('null', null);
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.parseNumber();
        if (Number.isNaN(c)) this.fail('unexpected end of input');
        if (this.text.startsWith('NaN', this.pos) || this.text.startsWith('Infinity', this.pos)) {
          this.fail('NaN and Infinity are not JSON numbers');
        }
        this.fail(`unexpected character ${describeChar(this.text, this.pos)}`);
    }
  }

  literal<T extends boolean | null>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`unexpected character ${describeChar(this.text, this.pos)}`);
    this.pos += word.length;
    return value;
  }

  parseObject(depth: number): JsonObject {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
    const obj: JsonObject = new Map();
    this.pos++; // {
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 34) this.fail('expected a string key');
      const keyPos = this.pos;
      const key = this.parseString();
      this.segs.push(key);
      if (obj.has(key)) this.fail(`duplicate key ${JSON.stringify(key)}`, 'duplicate_key', keyPos);
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 58) this.fail("expected ':' after the key");
      this.pos++;
      this.skipWs();
      obj.set(key, this.parseValue(depth));
      this.segs.pop();
      if (this.closedAfterMember(125, 'an object')) return obj;
    }
  }

  parseArray(depth: number): JsonValue[] {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
    const arr: JsonValue[] = [];
    this.pos++; // [
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 93) {
      this.pos++;
      return arr;
    }
    for (;;) {
      this.segs.push(arr.length);
      arr.push(this.parseValue(depth));
      this.segs.pop();
      if (this.closedAfterMember(93, 'an array')) return arr;
    }
  }

  /** After an object or array member: consumes `,` (false) or the closing `close` (true); anything else fails. */
  private closedAfterMember(close: number, inWhat: string): boolean {
    this.skipWs();
    const c = this.text.charCodeAt(this.pos);
    if (c === 44) {
      this.pos++;
      this.skipWs();
      return false;
    }
    if (c === close) {
      this.pos++;
      return true;
    }
    return this.fail(Number.isNaN(c) ? `unexpected end of input in ${inWhat}` : `expected ',' or '${String.fromCharCode(close)}'`);
  }

  parseString(): string {
    const t = this.text;
    const start = ++this.pos; // after the opening quote
    let p = start;
    let segStart = start;
    let out = '';
    let sawSurrogate = false;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        out += t.slice(segStart, p);
        this.pos = p + 1;
        if (sawSurrogate) this.checkSurrogates(out, start);
        return out;
      }
      if (c === 92) {
        out += t.slice(segStart, p);
        const e = t.charCodeAt(p + 1);
        let width = 2;
        switch (e) {
          case 34:
            out += '"';
            break;
          case 92:
            out += '\\';
            break;
          case 47:
            out += '/';
            break;
          case 98:
            out += '\b';
            break;
          case 102:
            out += '\f';
            break;
          case 110:
            out += '\n';
            break;
          case 114:
            out += '\r';
            break;
          case 116:
            out += '\t';
            break;
          case 117: {
            const hex = t.slice(p + 2, p + 6);
            if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('invalid \\u escape', 'parse_error', p);
            const code = parseInt(hex, 16);
            if (code >= 0xd800 && code <= 0xdfff) sawSurrogate = true;
            out += String.fromCharCode(code);
            width = 6;
            break;
          }
          default:
            this.fail(Number.isNaN(e) ? 'unterminated string' : 'invalid escape sequence', 'parse_error', p);
        }
        p += width;
        segStart = p;
        continue;
      }
      if (c < 32 || Number.isNaN(c)) this.failInString(c, p);
      if (c >= 0xd800 && c <= 0xdfff) sawSurrogate = true;
      p++;
    }
  }

  failInString(c: number, at: number): never {
    if (Number.isNaN(c)) this.fail('unterminated string', 'parse_error', at);
    this.fail(`unescaped control character U+${c.toString(16).padStart(4, '0')} in a string`, 'parse_error', at);
  }

  /** Rejects lone surrogates: Rust strings cannot hold them, JS strings can (contract §2). */
  checkSurrogates(s: string, at: number): void {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
        this.fail('lone UTF-16 surrogate in a string', 'parse_error', at);
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        this.fail('lone UTF-16 surrogate in a string', 'parse_error', at);
      }
    }
  }

  parseNumber(): JsonNumber {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 45) p++;
    const firstDigit = t.charCodeAt(p);
    if (firstDigit === 48) {
      p++;
    } else if (firstDigit >= 49 && firstDigit <= 57) {
      while (isDigit(t.charCodeAt(p))) p++;
    } else {
      if (t.startsWith('Infinity', p)) this.fail('NaN and Infinity are not JSON numbers');
      this.fail('invalid number');
    }
    let integer = true;
    if (t.charCodeAt(p) === 46) {
      integer = false;
      p++;
      if (!isDigit(t.charCodeAt(p))) this.fail('invalid number: digits expected after the decimal point');
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 101 || e === 69) {
      integer = false;
      p++;
      const sign = t.charCodeAt(p);
      if (sign === 43 || sign === 45) p++;
      if (!isDigit(t.charCodeAt(p))) this.fail('invalid number: digits expected in the exponent');
      while (isDigit(t.charCodeAt(p))) p++;
    }
    if (isDigit(t.charCodeAt(p))) this.fail('invalid number: leading zeros are not allowed');
    const raw = t.slice(start, p);
    this.pos = p;
    if (integer) {
      // Integers are signed as 64-bit values by the producer; beyond that range
      // Rust falls back to f64 and the value would no longer be exact.
      // Up to 18 characters (sign included) is always below 10^18 < 2^63: no BigInt needed.
      if (raw.length > 21 || (raw.length > 18 && !inInt64OrUint64(BigInt(raw)))) {
        this.fail('integer outside the 64-bit range cannot be represented exactly', 'parse_error', start);
      }
    } else if (!Number.isFinite(Number(raw))) {
      this.fail('number out of the IEEE-754 double range', 'parse_error', start);
    }
    return new JsonNumber(raw);
  }
}

function inInt64OrUint64(v: bigint): boolean {
  return v >= I64_MIN && v <= U64_MAX;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function describeChar(text: string, pos: number): string {
  const cp = text.codePointAt(pos);
  if (cp === undefined) return 'end of input';
  if (cp >= 32 && cp < 127) return `'${String.fromCharCode(cp)}'`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}
