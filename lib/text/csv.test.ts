import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, parseCsv, toCsv } from './csv';

describe('CSV (RFC 4180)', () => {
  it('quotes fields with commas, quotes and line breaks; CRLF between records', () => {
    expect(
      toCsv({
        header: ['a', 'b'],
        rows: [
          ['1', 'x,y'],
          ['say "hi"', 'two\nlines'],
        ],
      }),
    ).toBe('a,b\r\n1,"x,y"\r\n"say ""hi""","two\nlines"\r\n');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('1,234.50 USD')).toBe('"1,234.50 USD"');
    expect(csvField('123')).toBe('123');
  });

  it('round-trips any table (after neutralising)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { maxLength: 5 }), (rows) => {
        const back = parseCsv(toCsv({ header: ['h1', 'h2'], rows }));
        const neutral = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);
        expect(back).toEqual([['h1', 'h2'], ...rows.map((r) => r.map(neutral))]);
      }),
    );
  });
});
