// How large a SQLite store can be read (issue 7 "big and broken input"). sql.js
// has no streaming reader: it copies the whole database image into its
// WebAssembly heap, so a store costs about twice its size in memory at once.
// A wasm32 heap stops at 2 GiB (the command line's limit); a browser tab also
// holds the page and the verify workers, and must stay well under 2.5 GB, so
// the page refuses stores over 1 GiB with a message instead of crashing.

export const MAX_SQLITE_BYTES = { page: 2 ** 30, cli: 2 ** 31 - 1 } as const;

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/** Null when a store of `bytes` can be read `where`; else why not and what to do instead. */
export function sqliteTooLarge(name: string, bytes: number, where: keyof typeof MAX_SQLITE_BYTES): string | null {
  const max = MAX_SQLITE_BYTES[where];
  if (bytes <= max) return null;
  const why = `${name} is ${gib(bytes)}: the SQLite reader (sql.js) holds a whole store in memory, so ${where === 'page' ? 'the page reads' : 'it reads'} stores up to ${where === 'page' ? '1 GiB' : '2 GiB'}`;
  return where === 'page'
    ? `${why}. Verify it with the command line (receipt-audit verify ${name}) or open its evidence package (the server's /v1/evidence/package) instead.`
    : `${why}. Export it as an evidence package instead (RECEIPT_DB=${name} npm start, then GET /v1/evidence/package) and verify that folder.`;
}
