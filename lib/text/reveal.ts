// Makes hidden and lookalike text visible (issue 7, the page resists hostile
// content). Every string the page shows from a receipt, checkpoint, log or
// trust file is attacker-controlled: a bidi override can reorder what is
// around it ("txt.exe" shown as "exe.txt"), a zero-width or tag character can
// make two different ids look the same, and a Cyrillic 'а' in "pаypal" is a
// different tool name that reads the same. revealText() splits a string into
// segments that a view renders as text and as visible markers, each with its
// code point; it never drops a character silently. clipText() cuts a long
// string at a code-point boundary and says how much was left out. Pure.

/** Why a character is marked. */
export type MarkKind = 'bidi' | 'invisible' | 'control' | 'lookalike' | 'combining';

export type RevealSegment =
  /** Ordinary text, shown as is. */
  | { kind: 'text'; text: string }
  /**
   * One character or a run of the same character that is hidden, reorders
   * text or is a control: a view shows the marker INSTEAD of the character.
   */
  | { kind: 'bidi' | 'invisible' | 'control'; text: string; codePoint: number; count: number; name: string }
  /**
   * A letter that passes for another one: a minority script inside a word
   * (Cyrillic in a Latin word) or a compatibility form (fullwidth, math
   * alphanumerics). A view shows the character AND its marker.
   */
  | { kind: 'lookalike'; text: string; codePoint: number; count: 1; name: string }
  /** A stack of combining marks on one base (zalgo): shown as a count, not drawn. */
  | { kind: 'combining'; text: string; codePoint: number; count: number; name: string };

const NAMES: Record<number, string> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM)',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x0009: 'CHARACTER TABULATION',
  0x000a: 'LINE FEED',
  0x000d: 'CARRIAGE RETURN',
  0x0000: 'NULL',
  0x001b: 'ESCAPE',
  0x007f: 'DELETE',
};

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Zero-width and blank-looking format characters, Hangul fillers, Unicode tags (invisible ASCII).
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed code point is matched alone on purpose (a lone U+034F or U+1160 is what hides text)
const INVISIBLE = /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]/u;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
const COMBINING = /\p{M}/u;
/** Anything outside printable ASCII needs a closer look; most ids and names are plain ASCII. */
const PLAIN = /^[\u0020-\u007e]*$/;
const PLAIN_LINES = /^[\t\n\u0020-\u007e]*$/;
const LAYOUT = /^[\t\n]$/;
/** Alphabets whose letters pass for one another (UTS #39 confusables are mostly among these). */
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee', 'Coptic'] as const;
const SCRIPT_RE = SCRIPTS.map((s) => new RegExp(`\\p{Script=${s}}`, 'u'));
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** More than this many combining marks on one base is collapsed into a count. */
export const COMBINING_RUN_MAX = 2;

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function hiddenKind(ch: string): 'bidi' | 'invisible' | 'control' | null {
  if (BIDI.test(ch)) return 'bidi';
  if (INVISIBLE.test(ch)) return 'invisible';
  if (CONTROL.test(ch)) return 'control';
  return null;
}

function nameOf(cp: number, kind: MarkKind): string {
  const known = NAMES[cp];
  if (known) return known;
  if (cp >= 0xe0000 && cp <= 0xe007f)
    return cp >= 0xe0020 && cp <= 0xe007e ? `TAG ${String.fromCodePoint(cp - 0xe0000)} (invisible)` : 'TAG CHARACTER (invisible)';
  if (kind === 'control') return cp < 0x20 ? 'C0 CONTROL' : cp <= 0x9f ? 'C1 CONTROL' : 'CONTROL';
  if (kind === 'invisible') return 'INVISIBLE FORMAT CHARACTER';
  return 'DIRECTION CONTROL';
}

function scriptOf(ch: string): number {
  for (let i = 0; i < SCRIPT_RE.length; i++) if (SCRIPT_RE[i]!.test(ch)) return i;
  return -1;
}

/**
 * The letters of a word that pass for other letters: a compatibility form
 * (NFKC changes it: fullwidth, mathematical bold), or a letter of a minority
 * script where the word mixes confusable alphabets (Latin with Cyrillic,
 * Greek…). Returns the indexes (into `chars`) and why.
 */
function lookalikesIn(chars: string[]): Map<number, string> {
  const out = new Map<number, string>();
  const scripts = chars.map(scriptOf);
  const counts = new Map<number, number>();
  for (const s of scripts) if (s >= 0) counts.set(s, (counts.get(s) ?? 0) + 1);
  let major = -1;
  if (counts.size > 1) {
    // The word's main script: the most letters, Latin winning ties (ids and names are mostly Latin).
    for (const [s, n] of counts) if (major < 0 || n > counts.get(major)! || (n === counts.get(major)! && s === 0)) major = s;
  }
  chars.forEach((ch, i) => {
    if (ch.normalize('NFKC') !== ch && /\p{L}|\p{N}/u.test(ch)) out.set(i, `compatibility form of "${ch.normalize('NFKC')}"`);
    else if (major >= 0 && scripts[i]! >= 0 && scripts[i] !== major) out.set(i, `${SCRIPTS[scripts[i]!]} letter in a ${SCRIPTS[major]} word`);
  });
  return out;
}

function combiningRun(chars: string[], from: number): number {
  let j = from;
  while (j < chars.length && COMBINING.test(chars[j]!) && !hiddenKind(chars[j]!)) j++;
  return j - from;
}

export interface RevealOptions {
  /** Line feeds (and tabs) are layout, not hidden text: for multi-line text such as pretty JSON, whose strings escape their own. */
  multiline?: boolean;
}

/** Splits `s` into text and marked segments; concatenating every segment's `text` gives `s` back. */
export function revealText(s: string, options: RevealOptions = {}): RevealSegment[] {
  if (PLAIN.test(s) || (options.multiline === true && PLAIN_LINES.test(s))) return s === '' ? [] : [{ kind: 'text', text: s }];
  const layout = options.multiline === true ? LAYOUT : null;
  const chars = Array.from(s);
  const out: RevealSegment[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i]!;
    const hidden = layout?.test(ch) ? null : hiddenKind(ch);
    if (hidden) {
      let j = i + 1;
      while (j < chars.length && chars[j] === ch) j++;
      flush();
      const cp = ch.codePointAt(0)!;
      out.push({ kind: hidden, text: ch.repeat(j - i), codePoint: cp, count: j - i, name: nameOf(cp, hidden) });
      i = j;
    } else if (COMBINING.test(ch)) {
      const j = i + combiningRun(chars, i);
      if (j - i > COMBINING_RUN_MAX) {
        flush();
        out.push({ kind: 'combining', text: chars.slice(i, j).join(''), codePoint: ch.codePointAt(0)!, count: j - i, name: 'COMBINING MARKS' });
      } else text += chars.slice(i, j).join('');
      i = j;
    } else if (WORD_CHAR.test(ch)) {
      let j = i + 1;
      while (j < chars.length && (WORD_CHAR.test(chars[j]!) || (COMBINING.test(chars[j]!) && !hiddenKind(chars[j]!)))) j++;
      // A stack of combining marks inside the word ends it, so the stack is collapsed above.
      let k = i;
      while (k < j && !(COMBINING.test(chars[k]!) && combiningRun(chars, k) > COMBINING_RUN_MAX)) k++;
      const word = chars.slice(i, k);
      const marks = lookalikesIn(word);
      word.forEach((c, n) => {
        const why = marks.get(n);
        if (why === undefined) return void (text += c);
        flush();
        out.push({ kind: 'lookalike', text: c, codePoint: c.codePointAt(0)!, count: 1, name: why });
      });
      i = k;
    } else {
      text += ch;
      i++;
    }
  }
  flush();
  return out;
}

/** True when revealText() would mark something. */
export function hasHiddenText(s: string): boolean {
  return revealText(s).some((seg) => seg.kind !== 'text');
}

/** What a marker says on screen: `U+202E`, or `U+200B ×40`, or `+23 marks`. */
export function markerLabel(seg: Exclude<RevealSegment, { kind: 'text' }>): string {
  if (seg.kind === 'combining') return `+${seg.count} combining marks`;
  return seg.count > 1 ? `${codePointLabel(seg.codePoint)} ×${seg.count}` : codePointLabel(seg.codePoint);
}

export interface Clipped {
  shown: string;
  /** Code points left out (0 when the whole string is shown). */
  hidden: number;
}

/** The first `max` code points of `s` (never half a surrogate pair) and how many are left out. */
export function clipText(s: string, max: number): Clipped {
  // Fast path: a string no longer than `max` UTF-16 units has at most `max` code points.
  if (s.length <= max) return { shown: s, hidden: 0 };
  let units = 0;
  let points = 0;
  while (units < s.length && points < max) {
    units += s.codePointAt(units)! > 0xffff ? 2 : 1;
    points++;
  }
  if (units >= s.length) return { shown: s, hidden: 0 };
  let rest = 0;
  for (const _ of s.slice(units)) rest++;
  return { shown: s.slice(0, units), hidden: rest };
}

/**
 * The string as one line of plain text with its markers inline, e.g.
 * `p⟦U+0430⟧ypal`, `invoice⟦U+202E⟧fdp.exe`, clipped to `max` code points:
 * for places that take a string, not elements (chart labels drawn on a
 * canvas, <option>, title and aria-label attributes).
 */
export function revealPlain(s: string, max = 120): string {
  const { shown, hidden } = clipText(s, max);
  const body = revealText(shown)
    .map((seg) => (seg.kind === 'text' ? seg.text : seg.kind === 'lookalike' ? `${seg.text}⟦${markerLabel(seg)}⟧` : `⟦${markerLabel(seg)}⟧`))
    .join('');
  return hidden > 0 ? `${body}… (${hidden.toLocaleString('en-US')} more characters)` : body;
}
