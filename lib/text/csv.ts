// A small CSV writer (RFC 4180): fields quoted when they hold a comma, quote
// or line break, quotes doubled, CRLF between records. Receipt fields are
// attacker-controlled, and a spreadsheet runs a cell that starts with = + - @
// (or a tab / carriage return) as a formula, so such cells are neutralised
// with a leading apostrophe (OWASP "CSV injection"). Pure.

export interface CsvTable {
  /** File name for the download, e.g. `finance-budgets.csv`. */
  name: string;
  header: string[];
  rows: string[][];
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, neutralised and quoted as needed. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The table as CSV text: the header record, then one record per row, each ended by CRLF. */
export function toCsv(table: Pick<CsvTable, 'header' | 'rows'>): string {
  const lines = [table.header, ...table.rows].map((r) => r.map(csvField).join(','));
  return lines.join('\r\n') + '\r\n';
}

/**
 * Reads CSV text back into records (RFC 4180; for tests and round trips).
 * Throws on an unterminated quote: input that is not CSV is a caller error.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
    i++;
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}
