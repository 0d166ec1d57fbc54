// Where the values of a JSON text are, without parsing them: for splitting a document that
// carries other documents verbatim (a fleet page of /v1/receipts/query holds receipts exactly as
// stored) into those documents' own texts. Nothing here judges the values: each text found is
// handed to the strict parser (./parse.ts) by whoever reads it, so a bad one fails there, on
// its own. The scanner only has to keep strings and brackets apart, and it is bounded: a text
// it cannot split is refused (null), never split in a wrong place silently.

export interface Span {
  start: number;
  /** Exclusive. */
  end: number;
}

const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(text: string, pos: number, end: number): number {
  while (pos < end && WS.has(text[pos]!)) pos++;
  return pos;
}

/** The end of the string starting at `pos` (a `"`), or -1. */
function stringEnd(text: string, pos: number, end: number): number {
  for (let i = pos + 1; i < end; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
  }
  return -1;
}

/** The end of the value starting at `pos` (no whitespace before it), or -1 when it does not end by `end`. */
function valueEnd(text: string, pos: number, end: number): number {
  const c = text[pos];
  if (c === '"') return stringEnd(text, pos, end);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let i = pos; i < end; i++) {
      const d = text[i];
      if (d === '"') {
        i = stringEnd(text, i, end) - 1;
        if (i < 0) return -1;
      } else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = pos;
  while (i < end && !WS.has(text[i]!) && text[i] !== ',' && text[i] !== ']' && text[i] !== '}') i++;
  return i > pos ? i : -1;
}

/** The items of the array at `span`, or null when it is not an array the scanner can split. */
export function arrayItems(text: string, span: Span): Span[] | null {
  let pos = skipWs(text, span.start, span.end);
  if (text[pos] !== '[') return null;
  const items: Span[] = [];
  pos = skipWs(text, pos + 1, span.end);
  if (text[pos] === ']') return skipWs(text, pos + 1, span.end) === span.end ? items : null;
  for (;;) {
    const end = valueEnd(text, pos, span.end);
    if (end < 0) return null;
    items.push({ start: pos, end });
    pos = skipWs(text, end, span.end);
    if (text[pos] === ']') return skipWs(text, pos + 1, span.end) === span.end ? items : null;
    if (text[pos] !== ',') return null;
    pos = skipWs(text, pos + 1, span.end);
  }
}

/**
 * The members of the object at `span` by name, or null when it is not an object the scanner can
 * split or it names a member twice (which of two values is meant is not for a scanner to pick).
 */
export function objectMembers(text: string, span: Span): Map<string, Span> | null {
  let pos = skipWs(text, span.start, span.end);
  if (text[pos] !== '{') return null;
  const members = new Map<string, Span>();
  pos = skipWs(text, pos + 1, span.end);
  if (text[pos] === '}') return skipWs(text, pos + 1, span.end) === span.end ? members : null;
  for (;;) {
    if (text[pos] !== '"') return null;
    const keyEnd = stringEnd(text, pos, span.end);
    if (keyEnd < 0) return null;
    let key: string;
    try {
      key = JSON.parse(text.slice(pos, keyEnd)) as string;
    } catch {
      return null;
    }
    pos = skipWs(text, keyEnd, span.end);
    if (text[pos] !== ':') return null;
    pos = skipWs(text, pos + 1, span.end);
    const end = valueEnd(text, pos, span.end);
    if (end < 0 || members.has(key)) return null;
    members.set(key, { start: pos, end });
    pos = skipWs(text, end, span.end);
    if (text[pos] === '}') return skipWs(text, pos + 1, span.end) === span.end ? members : null;
    if (text[pos] !== ',') return null;
    pos = skipWs(text, pos + 1, span.end);
  }
}
