import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipText, hasHiddenText, markerLabel, revealPlain, revealText, type RevealSegment } from './reveal';

const marks = (s: string) =>
  revealText(s)
    .filter((seg): seg is Exclude<RevealSegment, { kind: 'text' }> => seg.kind !== 'text')
    .map((seg) => [seg.kind, markerLabel(seg)]);

describe('revealText', () => {
  it('leaves plain ASCII and ordinary non-Latin text alone', () => {
    expect(revealText('rcpt-000042 <script>alert(1)</script>')).toEqual([{ kind: 'text', text: 'rcpt-000042 <script>alert(1)</script>' }]);
    for (const s of ['Grüße, café', 'Москва', 'Αθήνα', 'שלום עולם', '東京都', '🚀 launch', 'e\u0301']) expect(marks(s), s).toEqual([]);
    expect(revealText('')).toEqual([]);
  });

  it('marks bidi controls, so an override cannot reorder what follows', () => {
    // "invoice‮fdp.exe" displays as "invoiceexe.pdf"
    const segs = revealText('invoice\u202efdp.exe');
    expect(segs).toEqual([
      { kind: 'text', text: 'invoice' },
      { kind: 'bidi', text: '\u202e', codePoint: 0x202e, count: 1, name: 'RIGHT-TO-LEFT OVERRIDE' },
      { kind: 'text', text: 'fdp.exe' },
    ]);
    expect(marks('a\u2066b\u2067c\u2068d\u2069e\u200ff')).toEqual([
      ['bidi', 'U+2066'],
      ['bidi', 'U+2067'],
      ['bidi', 'U+2068'],
      ['bidi', 'U+2069'],
      ['bidi', 'U+200F'],
    ]);
  });

  it('marks zero-width and invisible characters, runs counted', () => {
    expect(marks('ad\u200bmin')).toEqual([['invisible', 'U+200B']]);
    expect(marks('x\u200c\u200d\u2060\ufeffy')).toEqual([
      ['invisible', 'U+200C'],
      ['invisible', 'U+200D'],
      ['invisible', 'U+2060'],
      ['invisible', 'U+FEFF'],
    ]);
    expect(marks('a' + '\u200b'.repeat(40) + 'b')).toEqual([['invisible', 'U+200B ×40']]);
    // Unicode tags spell invisible ASCII ("ASCII smuggling"): U+E0068 is a hidden 'h'.
    const tagged = revealText('ok\u{e0068}\u{e0069}');
    expect(tagged.filter((s) => s.kind === 'invisible').map((s) => (s.kind === 'invisible' ? s.name : ''))).toEqual(['TAG h (invisible)', 'TAG i (invisible)']);
  });

  it('marks C0 and C1 controls, DEL and line separators', () => {
    expect(marks('a\u0000b\u001bc\u007fd\u0085e\u009ff\u2028g\nh')).toEqual([
      ['control', 'U+0000'],
      ['control', 'U+001B'],
      ['control', 'U+007F'],
      ['control', 'U+0085'],
      ['control', 'U+009F'],
      ['control', 'U+2028'],
      ['control', 'U+000A'],
    ]);
  });

  it('marks the minority-script letters of a word that mixes confusable alphabets (UTS #39 confusables)', () => {
    // confusables.txt: 0430 ; 0061 (CYRILLIC SMALL LETTER A → a), 0440 ; 0070 (CYRILLIC ER → p), 03BF ; 006F (GREEK OMICRON → o)
    expect(revealText('p\u0430ypal')).toEqual([
      { kind: 'text', text: 'p' },
      { kind: 'lookalike', text: '\u0430', codePoint: 0x430, count: 1, name: 'Cyrillic letter in a Latin word' },
      { kind: 'text', text: 'ypal' },
    ]);
    expect(marks('\u0440aypal.com')).toEqual([['lookalike', 'U+0440']]);
    expect(marks('g\u03bfogle')).toEqual([['lookalike', 'U+03BF']]);
    // Each word is judged on its own: a Latin word next to a Cyrillic one is not a lookalike.
    expect(marks('paypal Москва')).toEqual([]);
    // A mostly-Cyrillic word with one Latin letter: the Latin one is the odd one out.
    expect(marks('Моcква')).toEqual([['lookalike', 'U+0063']]);
  });

  it('marks compatibility forms: fullwidth and mathematical letters', () => {
    // FF50 FF41 FF59: FULLWIDTH LATIN SMALL LETTER P, A, Y; 1D429: MATHEMATICAL BOLD SMALL P
    expect(marks('\uff50\uff41\uff59pal')).toEqual([
      ['lookalike', 'U+FF50'],
      ['lookalike', 'U+FF41'],
      ['lookalike', 'U+FF59'],
    ]);
    expect(marks('\u{1d429}aypal')).toEqual([['lookalike', 'U+1D429']]);
  });

  it('collapses a stack of combining marks (zalgo) into a count, keeps one or two', () => {
    const zalgo = 'Z' + '\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307' + 'algo';
    expect(revealText(zalgo)).toEqual([
      { kind: 'text', text: 'Z' },
      { kind: 'combining', text: '\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307', codePoint: 0x300, count: 8, name: 'COMBINING MARKS' },
      { kind: 'text', text: 'algo' },
    ]);
    expect(marks('Z\u0300\u0301algo')).toEqual([]);
  });

  it('never loses or invents a character, and never throws', () => {
    const alphabet = fc.constantFrom(
      'a',
      'p',
      'Z',
      ' ',
      '<',
      '\u0430',
      '\u03bf',
      '\uff41',
      '\u202e',
      '\u2066',
      '\u200b',
      '\u200d',
      '\u0000',
      '\u0085',
      '\u0301',
      '\u0308',
      '\u{1f600}',
      '\u{e0068}',
      '\u05d0',
      '\u{1d429}',
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((a) => a.join('')),
        (s) => {
          const segs = revealText(s);
          expect(segs.map((x) => x.text).join('')).toBe(s);
          expect(segs.every((x) => x.text.length > 0)).toBe(true);
          // Whatever could hide or reorder text is never left inside a text segment.
          // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is looked for alone, ZWJ (U+200D) included
          for (const x of segs) if (x.kind === 'text') expect(x.text).not.toMatch(/[\u202e\u2066\u200b\u200d\u0000\u0085\u{e0068}]/u);
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        (s) =>
          void expect(
            revealText(s)
              .map((x) => x.text)
              .join(''),
          ).toBe(s),
      ),
    );
  });

  it('keeps line feeds and tabs as layout in multi-line text, still marking the rest', () => {
    expect(revealText('{\n\t"a": 1\n}', { multiline: true })).toEqual([{ kind: 'text', text: '{\n\t"a": 1\n}' }]);
    expect(marks('{\n  "p\u0430y": "\u202e"\r\n}')).toEqual([
      ['control', 'U+000A'],
      ['lookalike', 'U+0430'],
      ['bidi', 'U+202E'],
      ['control', 'U+000D'],
      ['control', 'U+000A'],
    ]);
    const segs = revealText('{\n  "p\u0430y": "\u202e"\r\n}', { multiline: true }).filter((x) => x.kind !== 'text');
    expect(segs.map((x) => x.kind)).toEqual(['lookalike', 'bidi', 'control']);
  });

  it('hasHiddenText says whether anything would be marked', () => {
    expect(hasHiddenText('file_read')).toBe(false);
    expect(hasHiddenText('file\u200b_read')).toBe(true);
  });
});

describe('clipText', () => {
  it('keeps short strings whole', () => {
    expect(clipText('abc', 3)).toEqual({ shown: 'abc', hidden: 0 });
  });
  it('cuts at a code point, never inside a surrogate pair, and counts the rest in code points', () => {
    const s = '\u{1f600}'.repeat(10);
    const c = clipText(s, 3);
    expect(c).toEqual({ shown: '\u{1f600}'.repeat(3), hidden: 7 });
    expect(clipText('x'.repeat(100_000), 200)).toEqual({ shown: 'x'.repeat(200), hidden: 99_800 });
    // 6 code points in 12 UTF-16 units: longer than 8 units, but within 8 code points.
    expect(clipText('\u{1f600}'.repeat(6), 8)).toEqual({ shown: '\u{1f600}'.repeat(6), hidden: 0 });
  });
});

describe('revealPlain', () => {
  it('puts the markers inline and clips, for labels that cannot hold elements', () => {
    expect(revealPlain('p\u0430ypal')).toBe('p\u0430⟦U+0430⟧ypal');
    expect(revealPlain('invoice\u202efdp.exe')).toBe('invoice⟦U+202E⟧fdp.exe');
    expect(revealPlain('A'.repeat(5000), 10)).toBe('AAAAAAAAAA… (4,990 more characters)');
    expect(revealPlain('<b>x</b>')).toBe('<b>x</b>');
  });
});
