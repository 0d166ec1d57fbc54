import { readFileSync } from 'node:fs';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { openChioStore } from './sqlite-store';
import { isRowError, type ChioStoreReader, type RowError } from './sqlite-rows';
import { CHIO_STORE_SCHEMA_SQL, createChioStore, type ChioStoreInput } from './sqlite-store-writer';

const read = (rel: string) => new Uint8Array(readFileSync(new URL(`../testdata/chio/showcase/${rel}`, import.meta.url)));
const store = (name: string) => read(`sqlite/${name}`);
const ndjson = (name: string) =>
  new TextDecoder()
    .decode(read(`derived-from-sqlite/${name}`))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await initSqlJs();
});

function open(db: Uint8Array, wal?: Uint8Array): ChioStoreReader {
  const r = openChioStore(SQL, db, wal);
  if (!r.ok) throw new Error(`expected the store to open: ${r.message}`);
  return r.store;
}

function failure(db: Uint8Array, wal?: Uint8Array): string {
  const r = openChioStore(SQL, db, wal);
  if (r.ok) {
    r.store.close();
    throw new Error('expected { ok: false }');
  }
  return r.message;
}

/** A database built with plain SQL (sql.js), for shapes the real schema forbids. */
function rawDb(sql: string): Uint8Array {
  const db = new SQL.Database();
  try {
    db.exec(sql);
    return db.export();
  } finally {
    db.close();
  }
}

describe('openChioStore on the real stores (lib/testdata/chio/showcase/sqlite)', () => {
  it('provider: 8 tool receipts whose raw_json equals the derived ndjson, in seq order, with their claim log', () => {
    const s = open(store('provider-receipts.sqlite3'));
    expect(s.kind).toBe('kernel');
    expect(s.wal).toBeNull();
    expect(s.counts()).toEqual({
      rows: { chio_tool_receipts: 8, chio_child_receipts: 0, claim_receipt_log_entries: 8, kernel_checkpoints: 0 },
      errors: [],
    });
    const want = ndjson('provider-receipts.chio_tool_receipts.ndjson').map((r) => ({ seq: r.seq, receiptId: r.receipt_id, rawJson: r.raw_json }));
    expect([...s.toolReceipts()]).toEqual(want);
    expect([...s.claimLog()]).toEqual(want.map((r, i) => ({ entrySeq: i + 1, receiptId: r.receiptId, receiptKind: 'tool_receipt', sourceSeq: r.seq })));
    expect([...s.childReceipts(), ...s.checkpoints(), ...s.httpReceipts()]).toEqual([]);
    s.close();
  });

  it('federation: 1 tool receipt, identical to the derived ndjson', () => {
    const s = open(store('federation-receipts.sqlite3'));
    const want = ndjson('federation-receipts.chio_tool_receipts.ndjson').map((r) => ({ seq: r.seq, receiptId: r.receipt_id, rawJson: r.raw_json }));
    expect(want).toHaveLength(1);
    expect([...s.toolReceipts()]).toEqual(want);
    s.close();
  });

  it('operator: 0 receipts, still a kernel store with all four kernel tables', () => {
    const s = open(store('operator-receipts.sqlite3'));
    expect(s.kind).toBe('kernel');
    expect(s.tables).toEqual(['chio_tool_receipts', 'chio_child_receipts', 'claim_receipt_log_entries', 'kernel_checkpoints']);
    expect([...s.toolReceipts()]).toEqual([]);
    s.close();
  });

  it('settlement sidecar with its WAL applied: the http_receipts row of the derived ndjson, identical receipt_json', () => {
    const s = open(store('settlement-sidecar-receipts.sqlite3'), store('settlement-sidecar-receipts.sqlite3-wal'));
    expect(s.kind).toBe('sidecar');
    expect(s.wal).toEqual({ framesApplied: 23 });
    expect(s.counts()).toEqual({ rows: { http_receipts: 1 }, errors: [] });
    const want = ndjson('settlement-sidecar-receipts.http_receipts.ndjson').map((r) => ({ id: r.id, receiptJson: r.receipt_json }));
    expect([...s.httpReceipts()]).toEqual(want);
    expect([...s.toolReceipts()]).toEqual([]);
    s.close();
  });

  it('settlement sidecar without its WAL: no tables at all, and the message says the rows may be in the -wal file', () => {
    const message = failure(store('settlement-sidecar-receipts.sqlite3'));
    expect(message).toMatch(/^no Chio tables: .*it has no tables/);
    expect(message).toMatch(/WAL mode: its rows may be only in its -wal file/);
  });
});

describe('the Chio store schema and createChioStore', () => {
  const master = (db: Uint8Array, names?: Set<string>) => {
    const d = new SQL.Database(db);
    try {
      const rows =
        d.exec("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name <> 'sqlite_sequence' ORDER BY rowid")[0]?.values ?? [];
      return rows.filter((r) => !names || names.has(String(r[1])));
    } finally {
      d.close();
    }
  };
  it('the schema constant, the writer and the real operator store define the same objects, byte for byte', () => {
    const fromFile = master(rawDb(CHIO_STORE_SCHEMA_SQL));
    expect(fromFile).toHaveLength(46);
    const names = new Set(fromFile.map((r) => String(r[1])));
    expect(master(store('operator-receipts.sqlite3'), names)).toEqual(fromFile);
    expect(master(createChioStore(SQL, { toolReceipts: [] }))).toEqual(fromFile);
  });

  const tool = (n: number, timestamp: number, rawJson = `{"id":"t${n}"}`) => ({
    rawJson,
    receiptId: `t${n}`,
    timestamp,
    capabilityId: 'cap-1',
    toolServer: 'srv',
    toolName: 'tool',
    decisionKind: 'allow',
    policyHash: 'p',
    contentHash: 'c',
  });
  const child = (n: number, timestamp: number) => ({
    rawJson: `{"id":"c${n}"}`,
    receiptId: `c${n}`,
    timestamp,
    sessionId: 's',
    parentRequestId: 'pr',
    requestId: `r${n}`,
    operationKind: 'op',
    terminalState: 'done',
    policyHash: 'p',
    outcomeHash: 'o',
  });
  const input: ChioStoreInput = {
    // raw_json kept exactly: odd spacing, non-ASCII, an escape, an astral character, even a raw NUL.
    toolReceipts: [tool(1, 100, '{ "id" :"t1",\n "note":"é😀\\u0000" }'), tool(2, 300, '\uFEFF{"nul":"\u0000"}'), tool(3, 500)],
    childReceipts: [child(1, 200), child(2, 400)],
    checkpoints: [
      {
        checkpointSeq: 1,
        batchStartSeq: 1,
        batchEndSeq: 5,
        treeSize: 5,
        merkleRoot: 'ab'.repeat(32),
        issuedAt: 600,
        statementJson: `{"checkpoint_seq":1,"merkle_root":"0x${'ab'.repeat(32)}"}`,
        signature: 'sig',
        kernelKey: 'key',
      },
    ],
  };

  it('round trip: 3 tool + 2 child receipts and 1 checkpoint; the triggers fill the claim log in insert order', () => {
    const s = open(createChioStore(SQL, input));
    expect(s.counts().rows).toEqual({ chio_tool_receipts: 3, chio_child_receipts: 2, claim_receipt_log_entries: 5, kernel_checkpoints: 1 });
    expect([...s.toolReceipts()].map((r) => !isRowError(r) && r.rawJson)).toEqual(input.toolReceipts.map((r) => r.rawJson));
    expect([...s.childReceipts()]).toEqual([
      { seq: 1, receiptId: 'c1', rawJson: '{"id":"c1"}' },
      { seq: 2, receiptId: 'c2', rawJson: '{"id":"c2"}' },
    ]);
    expect([...s.claimLog()].map((e) => !isRowError(e) && [e.entrySeq, e.receiptKind, e.sourceSeq, e.receiptId])).toEqual([
      [1, 'tool_receipt', 1, 't1'],
      [2, 'child_receipt', 1, 'c1'],
      [3, 'tool_receipt', 2, 't2'],
      [4, 'child_receipt', 2, 'c2'],
      [5, 'tool_receipt', 3, 't3'],
    ]);
    const cp = input.checkpoints![0]!;
    expect([...s.checkpoints()]).toEqual([{ ...cp }]);
    s.close();
  });

  it('refuses a raw_json with a lone surrogate (it has no UTF-8 form) instead of altering it', () => {
    expect(() => createChioStore(SQL, { toolReceipts: [tool(1, 1, '{"x":"\uD800"}')] })).toThrow(/lone surrogate/);
  });

  it('the checkpoint trigger fills checkpoint_tree_heads and checkpoint_publication_metadata', () => {
    const d = new SQL.Database(createChioStore(SQL, input));
    expect(d.exec('SELECT checkpoint_seq, tree_size, previous_checkpoint_sha256 FROM checkpoint_tree_heads')[0]?.values).toEqual([[1, 5, null]]);
    expect(d.exec('SELECT publication_schema, entry_start_seq, entry_end_seq FROM checkpoint_publication_metadata')[0]?.values).toEqual([
      ['chio.checkpoint_publication.v1', 1, 5],
    ]);
    d.close();
  });
});

describe('openChioStore on hostile or wrong input: { ok: false } with a clear message, never a throw', () => {
  const provider = store('provider-receipts.sqlite3');
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['garbage bytes', () => new TextEncoder().encode('{"not":"a database"}'.repeat(10)), /^not a SQLite database/],
    ['an empty file', () => new Uint8Array(0), /^empty file \(0 bytes\)/],
    ['a 60-byte prefix', () => provider.subarray(0, 60), /less than its 100-byte header/],
    ['a copy cut mid-page', () => provider.subarray(0, 50_000), /truncated SQLite database: 50000 bytes is not a whole number of 4096-byte pages/],
    ['a copy cut at a page boundary', () => provider.subarray(0, 40 * 4096), /truncated SQLite database: its header says 231 pages/],
    [
      'a SQLite db without Chio tables',
      () => rawDb('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)'),
      /^no Chio tables: .*it has 1 table\(s\): notes$/,
    ],
    [
      'a header followed by garbage pages',
      () => {
        const b = provider.slice();
        b.fill(0xa5, 100);
        return b;
      },
      /^malformed SQLite database: /,
    ],
    [
      'chio_tool_receipts without raw_json',
      () => rawDb('CREATE TABLE chio_tool_receipts (seq INTEGER PRIMARY KEY, receipt_id TEXT)'),
      /chio_tool_receipts lacks column\(s\) raw_json/,
    ],
  ];
  for (const [label, make, message] of cases) {
    it(label, () => expect(failure(make())).toMatch(message));
  }

  it('a kernel and a sidecar table in one file is described as both', () => {
    const s = open(
      rawDb(`CREATE TABLE chio_tool_receipts (seq INTEGER PRIMARY KEY, receipt_id TEXT, raw_json TEXT);
      CREATE TABLE http_receipts (id TEXT PRIMARY KEY, receipt_json TEXT)`),
    );
    expect(s.kind).toBe('kernel+sidecar');
    s.close();
  });
});

describe('bad rows become error rows naming table and rowid; the rest still come out', () => {
  const hostile = () =>
    rawDb(`
    CREATE TABLE chio_tool_receipts (seq INTEGER PRIMARY KEY, receipt_id, raw_json TEXT); -- receipt_id: no affinity
    INSERT INTO chio_tool_receipts VALUES (1, 'a', '{"a":1}'), (2, 'b', NULL), (3, 'c', X'7b7d'),
      (4, 'd', 'x' || char(0) || 'y'), (5, 'e', CAST(X'7bff7d' AS TEXT)), (6, 'f', char(65279) || '{}'),
      (7, 7, '{}'), (9007199254740993, 'big', '{}');
    CREATE TABLE claim_receipt_log_entries (entry_seq INTEGER PRIMARY KEY, receipt_id TEXT, receipt_kind TEXT, source_seq);
    INSERT INTO claim_receipt_log_entries VALUES (1, 'a', 'tool_receipt', 1), (2, 'b', 'weird', 2), (3, 'c', 'child_receipt', '3'), (4, 'd', 'child_receipt', 4);`);

  it('NULL, blob, non-text and invalid UTF-8 columns and a seq beyond 2^53; NUL and BOM kept exactly', () => {
    const s = open(hostile());
    const rows = [...s.toolReceipts()];
    const err = (rowid: string, error: string): RowError => ({ error, table: 'chio_tool_receipts', rowid });
    expect(rows).toEqual([
      { seq: 1, receiptId: 'a', rawJson: '{"a":1}' },
      err('2', 'raw_json is NULL'),
      err('3', 'raw_json is blob, expected text'),
      { seq: 4, receiptId: 'd', rawJson: 'x\u0000y' },
      err('5', 'raw_json is not valid utf-8'),
      { seq: 6, receiptId: 'f', rawJson: '\uFEFF{}' },
      err('7', 'receipt_id is integer, expected text'),
      err('9007199254740993', 'seq 9007199254740993 is beyond 2^53, not rounded'),
    ]);
    expect([...s.claimLog()].map((e) => (isRowError(e) ? [e.table, e.rowid, e.error] : e.entrySeq))).toEqual([
      1,
      ['claim_receipt_log_entries', '2', 'receipt_kind "weird" is neither tool_receipt nor child_receipt'],
      ['claim_receipt_log_entries', '3', 'source_seq is text, expected integer'],
      4,
    ]);
    s.close();
  });

  it('a UTF-16 store is decoded from its own encoding', () => {
    for (const enc of ['UTF-16le', 'UTF-16be']) {
      const s = open(
        rawDb(`PRAGMA encoding = '${enc}';
        CREATE TABLE chio_tool_receipts (seq INTEGER PRIMARY KEY, receipt_id TEXT, raw_json TEXT);
        INSERT INTO chio_tool_receipts VALUES (1, 'a', '{"é":"😀"}');`),
      );
      expect([...s.toolReceipts()], enc).toEqual([{ seq: 1, receiptId: 'a', rawJson: '{"é":"😀"}' }]);
      s.close();
    }
  });

  it('after close() iterators yield one error row and counts() reports it; close() twice is harmless', () => {
    const s = open(hostile());
    const it1 = s.toolReceipts();
    expect(it1.next().value).toEqual({ seq: 1, receiptId: 'a', rawJson: '{"a":1}' });
    s.close();
    expect(it1.next().value).toMatchObject({ table: 'chio_tool_receipts', error: expect.stringMatching(/reading chio_tool_receipts stopped/) });
    expect([...s.toolReceipts()]).toEqual([{ error: 'the store is closed', table: 'chio_tool_receipts', rowid: null }]);
    expect(s.counts().errors).toHaveLength(2);
    s.close();
  });

  it('a consumer that stops early can iterate again from the start', () => {
    const s = open(store('provider-receipts.sqlite3'));
    for (const r of s.toolReceipts()) if (r) break;
    expect([...s.toolReceipts()]).toHaveLength(8);
    s.close();
  });
});
