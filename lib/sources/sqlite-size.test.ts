import { describe, expect, it } from 'vitest';
import { MAX_SQLITE_BYTES, sqliteTooLarge } from './sqlite-size';

describe('sqliteTooLarge', () => {
  it('the page takes up to 1 GiB and the command line up to 2 GiB; above, a message naming the file and what to do', () => {
    expect(sqliteTooLarge('a.sqlite3', MAX_SQLITE_BYTES.page, 'page')).toBeNull();
    expect(sqliteTooLarge('a.sqlite3', MAX_SQLITE_BYTES.page + 1, 'cli')).toBeNull();
    expect(sqliteTooLarge('a.sqlite3', 1.5 * 2 ** 30, 'page')).toBe(
      'a.sqlite3 is 1.5 GiB: the SQLite reader (sql.js) holds a whole store in memory, so the page reads stores up to 1 GiB. ' +
        "Verify it with the command line (receipt-audit verify a.sqlite3) or open its evidence package (the server's /v1/evidence/package) instead.",
    );
    expect(sqliteTooLarge('b.db', 2 ** 31, 'cli')).toMatch(/^b\.db is 2\.0 GiB: .* up to 2 GiB\. Export it as an evidence package/);
  });
});
