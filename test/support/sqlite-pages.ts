// Test-only: finds and damages pages of a SQLite file (https://www.sqlite.org/fileformat2.html §1.6),
// to prove a reader survives a corrupt b-tree page.
import type { SqlJsStatic } from 'sql.js';

/** The leaf pages of the table b-tree rooted at `root`, left to right (file format §1.6). */
export function leafPages(image: Uint8Array, root: number): number[] {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const pageSize = view.getUint16(16) === 1 ? 65536 : view.getUint16(16);
  const walk = (page: number): number[] => {
    const base = (page - 1) * pageSize;
    const hdr = base + (page === 1 ? 100 : 0);
    const type = image[hdr]!;
    if (type === 0x0d) return [page];
    if (type !== 0x05) throw new Error(`page ${page} is not a table b-tree page (type ${type})`);
    const cells = view.getUint16(hdr + 3);
    const out: number[] = [];
    for (let i = 0; i < cells; i++) {
      const cell = base + view.getUint16(hdr + 12 + 2 * i);
      out.push(...walk(view.getUint32(cell)));
    }
    out.push(...walk(view.getUint32(hdr + 8)));
    return out;
  };
  return walk(root);
}

export function rootPage(SQL: SqlJsStatic, image: Uint8Array, table: string): number {
  const db = new SQL.Database(image);
  try {
    return Number(db.exec(`SELECT rootpage FROM sqlite_master WHERE name = '${table}'`)[0]!.values[0]![0]);
  } finally {
    db.close();
  }
}

/** The image with page `page` overwritten by 0xA5 bytes. */
export function damagePage(image: Uint8Array, page: number): Uint8Array {
  const pageSize = new DataView(image.buffer, image.byteOffset).getUint16(16);
  const out = image.slice();
  out.fill(0xa5, (page - 1) * pageSize, page * pageSize);
  return out;
}
