// SQLite write-ahead-log replay (https://www.sqlite.org/fileformat2.html#walformat) so that a
// WAL-mode receipt store (chio-format.md §10, §13: every real Chio store is in WAL mode, and the
// settlement sidecar keeps its rows only in its -wal file) can be handed to sql.js, which opens
// a single database image and never reads a -wal file.
//
// Both inputs are attacker-controlled. Policy, as in SQLite's own recovery: a WAL whose header
// is unusable, or that has no valid commit, is ignored (the database is returned unchanged with
// a note); frames are read up to the first invalid one and applied only up to the last valid
// commit frame before it. A database image that is not SQLite, and a WAL whose valid header
// names another page size than the database, are errors: nothing sensible can be built.

export type WalResult =
  | {
      ok: true;
      /** The database image with the WAL applied; `db` itself (not a copy) when nothing was applied. */
      bytes: Uint8Array;
      /** Frames replayed: all frames up to and including the last valid commit frame. */
      framesApplied: number;
      /** Set when the whole WAL was ignored, saying why. */
      walIgnored?: string;
      /** Set when frames after the last applied commit exist and were not applied, saying why. */
      tailIgnored?: string;
    }
  | { ok: false; message: string };

export type DbHeaderResult = { ok: true; pageSize: number } | { ok: false; message: string };

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const DB_HEADER_BYTES = 100;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const WAL_MAGIC_LE = 0x377f0682; // checksum words read little-endian
const WAL_MAGIC_BE = 0x377f0683; // checksum words read big-endian
const WAL_FORMAT_VERSION = 3007000;

function isValidPageSize(n: number): boolean {
  return n >= 512 && n <= 65536 && (n & (n - 1)) === 0;
}

/** Checks the 100-byte database header and returns its page size (bytes 16-17; 1 means 65536). */
export function readDbPageSize(db: Uint8Array): DbHeaderResult {
  if (db.length === 0) return { ok: false, message: 'empty file (0 bytes): not a SQLite database' };
  for (let i = 0; i < SQLITE_MAGIC.length; i++) {
    if (db[i] !== SQLITE_MAGIC.charCodeAt(i)) {
      return { ok: false, message: 'not a SQLite database: the file does not start with "SQLite format 3\\0"' };
    }
  }
  if (db.length < DB_HEADER_BYTES) {
    return { ok: false, message: `truncated SQLite database: ${db.length} bytes, less than its 100-byte header` };
  }
  const raw = (db[16]! << 8) | db[17]!;
  const pageSize = raw === 1 ? 65536 : raw;
  if (!isValidPageSize(pageSize)) {
    return { ok: false, message: `malformed SQLite header: page size field ${raw} is not a power of two in 512..65536` };
  }
  return { ok: true, pageSize };
}

interface WalHeader {
  pageSize: number;
  salt1: number;
  salt2: number;
  checksum: [number, number];
  littleEndian: boolean;
}

/** The SQLite WAL checksum over [start, end) (a multiple of 8 bytes), seeded with `seed`. */
function walChecksum(view: DataView, start: number, end: number, littleEndian: boolean, seed: [number, number]): [number, number] {
  let s0 = seed[0];
  let s1 = seed[1];
  for (let i = start; i < end; i += 8) {
    s0 = (s0 + view.getUint32(i, littleEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, littleEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

function parseWalHeader(wal: Uint8Array, view: DataView): WalHeader | string {
  if (wal.length === 0) return 'the WAL is empty (0 bytes)';
  if (wal.length < WAL_HEADER_BYTES) return `the WAL is ${wal.length} bytes, shorter than its 32-byte header`;
  const magic = view.getUint32(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) {
    return `bad WAL magic 0x${magic.toString(16).padStart(8, '0')} (expected 0x377f0682 or 0x377f0683)`;
  }
  const version = view.getUint32(4);
  if (version !== WAL_FORMAT_VERSION) return `unknown WAL format version ${version} (expected 3007000)`;
  const pageSize = view.getUint32(8);
  if (!isValidPageSize(pageSize)) return `invalid WAL page size ${pageSize}`;
  const littleEndian = magic === WAL_MAGIC_LE;
  const checksum = walChecksum(view, 0, 24, littleEndian, [0, 0]);
  if (checksum[0] !== view.getUint32(24) || checksum[1] !== view.getUint32(28)) {
    return 'the WAL header checksum does not match';
  }
  return { pageSize, salt1: view.getUint32(16), salt2: view.getUint32(20), checksum, littleEndian };
}

interface FrameScan {
  /** Frames up to and including the last valid commit frame (0 if none). */
  committedFrames: number;
  /** Database size in pages recorded by that commit frame. */
  dbPages: number;
  /** Why reading stopped before the end of the WAL, if it did. */
  stop?: string;
  validFrames: number;
}

/** Walks the frames, chaining checksums, until the end of the WAL or the first invalid frame. */
function scanFrames(wal: Uint8Array, view: DataView, header: WalHeader): FrameScan {
  const frameBytes = FRAME_HEADER_BYTES + header.pageSize;
  const scan: FrameScan = { committedFrames: 0, dbPages: 0, validFrames: 0 };
  let seed = header.checksum;
  for (let off = WAL_HEADER_BYTES, n = 1; off < wal.length; off += frameBytes, n++) {
    if (off + frameBytes > wal.length) {
      scan.stop = `frame ${n} is truncated (${wal.length - off} of ${frameBytes} bytes)`;
      break;
    }
    if (view.getUint32(off + 8) !== header.salt1 || view.getUint32(off + 12) !== header.salt2) {
      scan.stop = `frame ${n} has other salts than the WAL header (left over from an earlier WAL generation)`;
      break;
    }
    const pgno = view.getUint32(off);
    let sum = walChecksum(view, off, off + 8, header.littleEndian, seed);
    sum = walChecksum(view, off + FRAME_HEADER_BYTES, off + frameBytes, header.littleEndian, sum);
    if (sum[0] !== view.getUint32(off + 16) || sum[1] !== view.getUint32(off + 20)) {
      scan.stop = `frame ${n} fails its checksum`;
      break;
    }
    if (pgno === 0) {
      scan.stop = `frame ${n} has page number 0`;
      break;
    }
    seed = sum;
    scan.validFrames = n;
    const commitPages = view.getUint32(off + 4);
    if (commitPages !== 0) {
      scan.committedFrames = n;
      scan.dbPages = commitPages;
    }
  }
  return scan;
}

function describeTail(scan: FrameScan): string | undefined {
  const uncommitted = scan.validFrames - scan.committedFrames;
  const parts: string[] = [];
  if (uncommitted > 0) parts.push(`${uncommitted} valid frame(s) after the last commit are uncommitted`);
  if (scan.stop !== undefined) parts.push(`stopped reading: ${scan.stop}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Applies the committed frames of `wal` to the database image `db`. Neither input is modified. */
export function applyWal(db: Uint8Array, wal: Uint8Array): WalResult {
  const dbHeader = readDbPageSize(db);
  if (!dbHeader.ok) return dbHeader;
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const header = parseWalHeader(wal, view);
  if (typeof header === 'string') return { ok: true, bytes: db, framesApplied: 0, walIgnored: `WAL ignored: ${header}` };
  const pageSize = header.pageSize;
  if (pageSize !== dbHeader.pageSize) {
    return {
      ok: false,
      message: `the WAL's page size (${pageSize}) differs from the database's (${dbHeader.pageSize}): this -wal file does not belong to this database`,
    };
  }
  const scan = scanFrames(wal, view, header);
  const tail = describeTail(scan);
  if (scan.committedFrames === 0) {
    return { ok: true, bytes: db, framesApplied: 0, walIgnored: `WAL ignored: no valid commit frame${tail ? ` (${tail})` : ''}` };
  }
  // Every page of the result comes from the database file or from a WAL frame (plus, at most,
  // the never-written lock-byte page), so a larger size can only come from a forged commit frame.
  const maxPages = Math.ceil(db.length / pageSize) + scan.committedFrames + 1;
  if (scan.dbPages > maxPages) {
    return {
      ok: false,
      message: `WAL commit frame ${scan.committedFrames} declares ${scan.dbPages} pages; the database and WAL hold at most ${maxPages}`,
    };
  }
  let out: Uint8Array;
  try {
    out = new Uint8Array(scan.dbPages * pageSize);
  } catch {
    return { ok: false, message: `cannot allocate ${scan.dbPages} pages of ${pageSize} bytes` };
  }
  out.set(db.subarray(0, Math.min(db.length, out.length)));
  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  for (let i = 0; i < scan.committedFrames; i++) {
    const off = WAL_HEADER_BYTES + i * frameBytes;
    const pgno = view.getUint32(off);
    // Latest frame wins, as in SQLite's walFindFrame; pages past the final size are dropped.
    if (pgno <= scan.dbPages) out.set(wal.subarray(off + FRAME_HEADER_BYTES, off + frameBytes), (pgno - 1) * pageSize);
  }
  const result: WalResult = { ok: true, bytes: out, framesApplied: scan.committedFrames };
  if (tail !== undefined) result.tailIgnored = tail;
  return result;
}
