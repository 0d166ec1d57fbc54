// Test-only: re-seals a SQLite WAL (https://www.sqlite.org/fileformat2.html#walformat) after
// edits: recomputes the header checksum and every frame's cumulative checksum, so a test can
// build WALs whose checksums are right but whose content is wrong.
export const u32 = (b: Uint8Array, off: number) => new DataView(b.buffer, b.byteOffset).getUint32(off);
export const setU32 = (b: Uint8Array, off: number, v: number) => new DataView(b.buffer, b.byteOffset).setUint32(off, v);

/** Recomputes the header and every frame checksum of `wal` (a copy), optionally switching byte order. */
export function reseal(wal: Uint8Array, bigEndian?: boolean): Uint8Array {
  const w = wal.slice();
  if (w.length < 32) return w;
  if (bigEndian !== undefined) setU32(w, 0, bigEndian ? 0x377f0683 : 0x377f0682);
  const le = u32(w, 0) === 0x377f0682;
  const word = (i: number) => new DataView(w.buffer).getUint32(i, le);
  const sum = (from: number, to: number, s: [number, number]): [number, number] => {
    let [a, b] = s;
    for (let i = from; i < to; i += 8) {
      a = (a + word(i) + b) % 2 ** 32;
      b = (b + word(i + 4) + a) % 2 ** 32;
    }
    return [a, b];
  };
  let s = sum(0, 24, [0, 0]);
  setU32(w, 24, s[0]);
  setU32(w, 28, s[1]);
  const ps = u32(w, 8);
  if (ps < 512 || ps > 65536 || (ps & (ps - 1)) !== 0) return w; // frames unreadable: header only
  for (let off = 32; off + 24 + ps <= w.length; off += 24 + ps) {
    s = sum(off + 24, off + 24 + ps, sum(off, off + 8, s));
    setU32(w, off + 16, s[0]);
    setU32(w, off + 20, s[1]);
  }
  return w;
}
