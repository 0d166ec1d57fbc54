import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWal, type WalResult } from './sqlite-wal';
import { reseal, setU32, u32 } from '../../test/support/sqlite-wal-reseal';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../testdata/chio/showcase/sqlite/${name}`, import.meta.url)));
const SIDECAR_DB = fixture('settlement-sidecar-receipts.sqlite3');
const SIDECAR_WAL = fixture('settlement-sidecar-receipts.sqlite3-wal');
const PAGE = 4096;
const _FRAME = 24 + PAGE;

let SQL: SqlJsStatic;
let tmp: string;
beforeAll(async () => {
  SQL = await initSqlJs();
  tmp = mkdtempSync(path.join(tmpdir(), 'sqlite-wal-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// ---- naive reference helpers (test-only) -----------------------------------------------------

const frameOff = (n: number, pageSize = PAGE) => 32 + (n - 1) * (24 + pageSize); // n is 1-based

/** Last commit frame (1-based) at or before frame `n`, and its page count, read straight from the headers. */
function lastCommitUpTo(wal: Uint8Array, n: number): { frame: number; pages: number } {
  let best = { frame: 0, pages: 0 };
  for (let i = 1; i <= n; i++) if (u32(wal, frameOff(i) + 4) !== 0) best = { frame: i, pages: u32(wal, frameOff(i) + 4) };
  return best;
}

type Dump = Record<string, unknown[][]> | { error: string };

/** Every table's rows (blobs as {hex}), the same shape the Python dump prints. */
function dumpSqlJs(bytes: Uint8Array): Dump {
  const db = new SQL.Database(bytes);
  try {
    const names = (db.exec("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")[0]?.values ?? []).map((r) => String(r[0]));
    const out: Record<string, unknown[][]> = {};
    for (const name of names) {
      const rows = db.exec(`SELECT * FROM "${name}" ORDER BY rowid`)[0]?.values ?? [];
      out[name] = rows.map((r) => r.map((v) => (v instanceof Uint8Array ? { hex: Buffer.from(v).toString('hex') } : v)));
    }
    return out;
  } catch (e) {
    return { error: String(e) };
  } finally {
    db.close();
  }
}

const PY_DUMP = `
import json, sqlite3
def dump(c):
    out = {}
    for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall():
        out[name] = [[{'hex': v.hex()} if isinstance(v, bytes) else v for v in r]
                     for r in c.execute('SELECT * FROM "%s" ORDER BY rowid' % name)]
    return out
`;

/** What python3's sqlite3 (which reads WALs natively) sees in db + wal, from fresh copies. */
function pythonView(db: Uint8Array, wal: Uint8Array, label: string): Dump {
  const dir = mkdtempSync(path.join(tmp, `${label.replace(/\W+/g, '-')}-`));
  writeFileSync(path.join(dir, 'x.db'), db);
  writeFileSync(path.join(dir, 'x.db-wal'), wal);
  const script = `${PY_DUMP}
import sys
try:
    c = sqlite3.connect(sys.argv[1]); print(json.dumps(dump(c)))
except Exception as e:
    print(json.dumps({'error': str(e)}))`;
  return JSON.parse(execFileSync('python3', ['-c', script, path.join(dir, 'x.db')], { encoding: 'utf8' })) as Dump;
}

function applied(r: WalResult) {
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r;
}

// ---- the real settlement sidecar WAL -----------------------------------------------------------

describe('applyWal: the real settlement-sidecar WAL', () => {
  it('replays all 23 frames (9 commits) into a 14-page image, as python3 sqlite3 does', () => {
    const dbBefore = SIDECAR_DB.slice();
    const walBefore = SIDECAR_WAL.slice();
    const r = applied(applyWal(SIDECAR_DB, SIDECAR_WAL));
    expect(r.framesApplied).toBe(23);
    expect(r.walIgnored).toBeUndefined();
    expect(r.tailIgnored).toBeUndefined();
    expect(r.bytes.length).toBe(14 * PAGE);
    expect(dumpSqlJs(r.bytes)).toEqual(pythonView(SIDECAR_DB, SIDECAR_WAL, 'real'));
    expect(SIDECAR_DB).toEqual(dbBefore); // inputs untouched
    expect(SIDECAR_WAL).toEqual(walBefore);
  });

  it('the database file alone holds no tables (sql.js does not read -wal files)', () => {
    expect(dumpSqlJs(SIDECAR_DB)).toEqual({});
  });

  it('cut after every frame: applies up to the last commit at or before the cut, matching python3', () => {
    const failures: string[] = [];
    for (let n = 0; n <= 23; n++) {
      for (const extra of [0, 24 + 100]) {
        // a clean cut, and a torn next frame
        const wal = SIDECAR_WAL.subarray(0, Math.min(SIDECAR_WAL.length, frameOff(n + 1) + (n < 23 ? extra : 0)));
        const want = lastCommitUpTo(SIDECAR_WAL, n);
        const r = applied(applyWal(SIDECAR_DB, wal));
        const label = `cut after frame ${n}${extra && n < 23 ? ' + torn frame' : ''}`;
        if (want.frame === 0) {
          if (r.bytes !== SIDECAR_DB || r.framesApplied !== 0 || !r.walIgnored) failures.push(`${label}: expected the db back with a note`);
        } else if (r.framesApplied !== want.frame || r.bytes.length !== want.pages * PAGE) {
          failures.push(`${label}: applied ${r.framesApplied} frames / ${r.bytes.length / PAGE} pages, want ${want.frame} / ${want.pages}`);
        }
        if (extra && n < 23 && !/truncated/.test(r.walIgnored ?? r.tailIgnored ?? '')) failures.push(`${label}: no truncation note`);
        const py = pythonView(SIDECAR_DB, wal, label);
        if (JSON.stringify(dumpSqlJs(r.bytes)) !== JSON.stringify(py)) failures.push(`${label}: differs from python3`);
      }
    }
    expect(failures, `${48 - failures.length} of 48 cuts matched\n${failures.join('\n')}`).toEqual([]);
  });
});

// ---- broken WALs ----------------------------------------------------------------------------

describe('applyWal: invalid frames stop the replay at the last commit before them', () => {
  it('a corrupted checksum (page byte flipped) in frame k applies only frames up to the last commit before k', () => {
    const failures: string[] = [];
    for (const k of [1, 3, 4, 10, 15, 22, 23]) {
      const wal = SIDECAR_WAL.slice();
      wal[frameOff(k) + 24 + 1000]! ^= 0x01;
      const want = lastCommitUpTo(SIDECAR_WAL, k - 1);
      const r = applied(applyWal(SIDECAR_DB, wal));
      if (r.framesApplied !== want.frame) failures.push(`k=${k}: applied ${r.framesApplied}, want ${want.frame}`);
      const note = r.walIgnored ?? r.tailIgnored ?? '';
      if (!note.includes(`frame ${k} fails its checksum`)) failures.push(`k=${k}: note "${note}"`);
      if (JSON.stringify(dumpSqlJs(r.bytes)) !== JSON.stringify(pythonView(SIDECAR_DB, wal, `cksum-${k}`))) failures.push(`k=${k}: differs from python3`);
    }
    expect(failures).toEqual([]);
  });

  it('a frame whose salts differ (checksums otherwise valid) ends the replay there', () => {
    const wal = SIDECAR_WAL.slice();
    setU32(wal, frameOff(12) + 8, u32(wal, frameOff(12) + 8) ^ 1);
    const bad = reseal(wal);
    const r = applied(applyWal(SIDECAR_DB, bad));
    expect(r.framesApplied).toBe(lastCommitUpTo(SIDECAR_WAL, 11).frame); // frame 10
    expect(r.tailIgnored).toContain('frame 12 has other salts');
    expect(dumpSqlJs(r.bytes)).toEqual(pythonView(SIDECAR_DB, bad, 'salt-12'));
  });

  it('a WAL header with new salts (stale frames from an earlier generation) is ignored whole', () => {
    const wal = SIDECAR_WAL.slice();
    setU32(wal, 16, u32(wal, 16) + 1);
    const hdrOnly = reseal(wal.subarray(0, 32));
    wal.set(hdrOnly.subarray(0, 32)); // valid header checksum, frames keep the old salts
    const r = applied(applyWal(SIDECAR_DB, wal));
    expect(r).toMatchObject({ framesApplied: 0, bytes: SIDECAR_DB });
    expect(r.walIgnored).toContain('frame 1 has other salts');
    expect(dumpSqlJs(r.bytes)).toEqual(pythonView(SIDECAR_DB, wal, 'salt-hdr'));
  });

  it('page number 0 is an invalid frame', () => {
    const wal = SIDECAR_WAL.slice();
    setU32(wal, frameOff(6), 0);
    const r = applied(applyWal(SIDECAR_DB, reseal(wal)));
    expect(r.framesApplied).toBe(5);
    expect(r.tailIgnored).toContain('frame 6 has page number 0');
  });

  it('frames after the last commit are not applied', () => {
    const r = applied(applyWal(SIDECAR_DB, SIDECAR_WAL.subarray(0, frameOff(3))));
    expect(r).toMatchObject({ framesApplied: 0, bytes: SIDECAR_DB });
    expect(r.walIgnored).toContain('2 valid frame(s) after the last commit are uncommitted');
  });

  it('big-endian checksums (magic 0x377f0683) give the same image, as in python3', () => {
    const be = reseal(SIDECAR_WAL, true);
    expect(u32(be, 24)).not.toBe(u32(SIDECAR_WAL, 24));
    const r = applied(applyWal(SIDECAR_DB, be));
    expect(r.framesApplied).toBe(23);
    expect(r.bytes).toEqual(applied(applyWal(SIDECAR_DB, SIDECAR_WAL)).bytes);
    expect(dumpSqlJs(r.bytes)).toEqual(pythonView(SIDECAR_DB, be, 'big-endian'));
  });
});

describe('applyWal: unusable WAL headers are ignored with a note; mismatches are errors', () => {
  const ignored: [string, (w: Uint8Array) => Uint8Array, RegExp][] = [
    ['empty WAL', () => new Uint8Array(0), /empty/],
    ['31-byte WAL', (w) => w.subarray(0, 31), /shorter than its 32-byte header/],
    [
      'bad magic',
      (w) => {
        const c = w.slice();
        c[3] = 0x84;
        return c;
      },
      /bad WAL magic 0x377f0684/,
    ],
    [
      'bad version',
      (w) => {
        const c = w.slice();
        setU32(c, 4, 3007001);
        return reseal(c);
      },
      /format version 3007001/,
    ],
    [
      'bad page size',
      (w) => {
        const c = w.slice();
        setU32(c, 8, 1000);
        return c;
      },
      /invalid WAL page size 1000/,
    ],
    [
      'bad header checksum',
      (w) => {
        const c = w.slice();
        c[31]! ^= 1;
        return c;
      },
      /header checksum/,
    ],
  ];
  for (const [label, make, note] of ignored) {
    it(`${label}: the database comes back unchanged`, () => {
      const r = applied(applyWal(SIDECAR_DB, make(SIDECAR_WAL)));
      expect(r.bytes).toBe(SIDECAR_DB);
      expect(r.framesApplied).toBe(0);
      expect(r.walIgnored).toMatch(note);
    });
  }

  it('a valid WAL whose page size differs from the database is an error', () => {
    const c = SIDECAR_WAL.slice();
    setU32(c, 8, 1024);
    const r = applyWal(SIDECAR_DB, reseal(c.subarray(0, 32 + 3 * (24 + 1024))));
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/page size \(1024\) differs from the database's \(4096\)/) });
  });

  it('a commit frame claiming more pages than db + WAL hold is an error, not a huge allocation', () => {
    const c = SIDECAR_WAL.slice();
    setU32(c, frameOff(23) + 4, 0xffffffff);
    expect(applyWal(SIDECAR_DB, reseal(c))).toEqual({ ok: false, message: expect.stringMatching(/declares 4294967295 pages/) });
  });

  it('a database that is not SQLite is an error; so is an empty one', () => {
    expect(applyWal(new TextEncoder().encode('hello world, not a db'), SIDECAR_WAL)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a SQLite database/),
    });
    expect(applyWal(new Uint8Array(0), SIDECAR_WAL)).toMatchObject({ ok: false, message: expect.stringMatching(/empty file/) });
    expect(applyWal(SIDECAR_DB.subarray(0, 40), SIDECAR_WAL)).toMatchObject({ ok: false, message: expect.stringMatching(/100-byte header/) });
  });
});

// ---- differential: fresh WAL databases written by python3 --------------------------------------

const PY_GEN = `${PY_DUMP}
import os, shutil, sys, random
out, scenario = sys.argv[1], sys.argv[2]
random.seed(7)
p = os.path.join(out, 'gen.db')
c = sqlite3.connect(p, isolation_level=None)
c.execute('PRAGMA page_size=%d' % {'small': 1024, 'huge': 65536}.get(scenario, 4096))
c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')
c.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, b BLOB)'); c.execute('CREATE INDEX t_v ON t(v)')
def txn(i, n=20):
    c.execute('BEGIN')
    for j in range(n):
        c.execute('INSERT INTO t (v, b) VALUES (?, ?)', ('row %d-%d %s' % (i, j, 'x' * (j * 37)), random.randbytes(j * 300)))
    c.execute("UPDATE t SET v = v || '!' WHERE id % 7 = ?", (i % 7,))
    c.execute('DELETE FROM t WHERE id % 11 = ?', (i % 11,))
    c.execute('COMMIT')
for i in range(6): txn(i)
if scenario == 'restart':
    c.execute('PRAGMA wal_checkpoint(PASSIVE)')  # all backfilled: the next writer restarts the WAL
    c.execute("CREATE TABLE u (k TEXT)"); c.execute("INSERT INTO u VALUES ('after restart')")
expected = dump(c)
if scenario == 'uncommitted':
    c.execute('PRAGMA cache_size=5'); c.execute('BEGIN')
    for j in range(200): c.execute('INSERT INTO t (v, b) VALUES (?, ?)', ('spill', random.randbytes(3000)))
shutil.copyfile(p, os.path.join(out, 'snap.db')); shutil.copyfile(p + '-wal', os.path.join(out, 'snap.db-wal'))
print(json.dumps(expected))
`;

describe('applyWal vs python3 sqlite3 on freshly written WAL databases', () => {
  const scenarios: [string, number, RegExp | undefined][] = [
    ['plain', 4096, undefined], // 6 transactions: inserts with overflow blobs, updates, deletes
    ['restart', 4096, /other salts/], // checkpoint, then a restarted WAL with stale frames behind it
    ['small', 1024, undefined],
    ['huge', 65536, undefined], // db header page size field 1
    // An open transaction spilled frames into the WAL. SQLite rewrites a re-spilled page's frame in
    // place and fixes the checksums only at commit, so the uncommitted tail fails its checksum.
    ['uncommitted', 4096, /uncommitted|fails its checksum/],
  ];
  for (const [scenario, pageSize, tail] of scenarios) {
    it(`${scenario} (page size ${pageSize})`, () => {
      const dir = mkdtempSync(path.join(tmp, `gen-${scenario}-`));
      const expected = JSON.parse(execFileSync('python3', ['-c', PY_GEN, dir, scenario], { encoding: 'utf8', maxBuffer: 1 << 28 }));
      const db = new Uint8Array(readFileSync(path.join(dir, 'snap.db')));
      const wal = new Uint8Array(readFileSync(path.join(dir, 'snap.db-wal')));
      expect(u32(wal, 8)).toBe(pageSize);
      const r = applied(applyWal(db, wal));
      expect(r.framesApplied).toBeGreaterThan(0);
      if (tail) expect(r.tailIgnored).toMatch(tail);
      else expect(r.tailIgnored).toBeUndefined();
      expect(dumpSqlJs(r.bytes)).toEqual(expected);
    });
  }
});
