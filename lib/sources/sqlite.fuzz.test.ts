// Fuzz: the SQLite readers on damaged real stores (issue 7 §2). openChioStore on the provider
// store with bytes overwritten, the file cut anywhere, whole pages zeroed, filled with garbage or
// copied over others, and on the settlement sidecar with a damaged WAL: never throws; either
// { ok: false } with a message, or rows and error rows of the documented shapes. applyWal on
// mutated, cut, re-sealed and reordered WALs never throws and yields whole pages. sql.js is
// slow on a 1 MB image, so the run counts here are small.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { reseal } from '../../test/support/sqlite-wal-reseal';
import { openChioStore } from './sqlite-store';
import { type StoreOpenResult, isRowError } from './sqlite-rows';
import { applyWal } from './sqlite-wal';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../testdata/chio/showcase/sqlite/${name}`, import.meta.url)));
const PROVIDER = fixture('provider-receipts.sqlite3');
const SIDECAR_DB = fixture('settlement-sidecar-receipts.sqlite3');
const SIDECAR_WAL = fixture('settlement-sidecar-receipts.sqlite3-wal');
const PAGE = 4096;
const FRAME = 24 + PAGE;
const TABLES = ['chio_tool_receipts', 'chio_child_receipts', 'claim_receipt_log_entries', 'kernel_checkpoints', 'http_receipts'];

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await initSqlJs();
});

/** Reads everything a store offers and checks each answer's shape. */
function expectWellFormed(r: StoreOpenResult): void {
  if (!r.ok) {
    expect(typeof r.message === 'string' && r.message.length > 0).toBe(true);
    return;
  }
  const { store } = r;
  const counts = store.counts();
  for (const e of counts.errors) expectRowError(e);
  const iterators = [store.toolReceipts(), store.childReceipts(), store.claimLog(), store.checkpoints(), store.httpReceipts()];
  for (const rows of iterators) {
    for (const row of rows) {
      if (isRowError(row)) expectRowError(row);
      else for (const v of Object.values(row)) expect(typeof v === 'string' || Number.isSafeInteger(v), JSON.stringify(row).slice(0, 200)).toBe(true);
    }
  }
  store.capabilityLineage('store');
  for (const row of store.signedLineage()) {
    if ('error' in row) expect(row.error.length).toBeGreaterThan(0);
    else expect(row.text.startsWith('{')).toBe(true);
  }
  store.close();
}

function expectRowError(e: { error: string; table: string; rowid: string | null }): void {
  expect(e.error.length).toBeGreaterThan(0);
  expect(TABLES).toContain(e.table);
  expect(e.rowid === null || /^-?\d+$/.test(e.rowid)).toBe(true);
}

type Damage =
  | { kind: 'bytes'; edits: [number, number][] }
  | { kind: 'cut'; at: number; aligned: boolean }
  | { kind: 'zero-page' | 'garbage-page'; page: number; seed: number }
  | { kind: 'copy-page'; from: number; to: number }
  | { kind: 'header'; edits: [number, number][] };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('bytes' as const), edits: fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 40 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), aligned: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('zero-page' as const, 'garbage-page' as const), page: fc.nat(), seed: fc.nat() }),
  fc.record({ kind: fc.constant('copy-page' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('header' as const), edits: fc.array(fc.tuple(fc.nat(99), fc.nat(255)), { minLength: 1, maxLength: 4 }) }),
);

/** Applies damage to a copy; `pageSize` is the unit of page-level damage. */
function damaged(original: Uint8Array, d: Damage, pageSize: number): Uint8Array {
  const pages = Math.max(1, Math.floor(original.length / pageSize));
  switch (d.kind) {
    case 'cut': {
      const at = d.aligned ? (d.at % (pages + 1)) * pageSize : d.at % (original.length + 1);
      return original.slice(0, at);
    }
    case 'bytes':
    case 'header': {
      const b = original.slice();
      for (const [i, v] of d.edits) if (b.length > 0) b[i % b.length] = v;
      return b;
    }
    case 'zero-page':
    case 'garbage-page': {
      const b = original.slice();
      const start = (d.page % pages) * pageSize;
      let x = d.seed | 1;
      for (let i = start; i < Math.min(b.length, start + pageSize); i++) {
        x = (x * 1103515245 + 12345) >>> 0;
        b[i] = d.kind === 'zero-page' ? 0 : x >>> 24;
      }
      return b;
    }
    case 'copy-page': {
      const b = original.slice();
      const from = (d.from % pages) * pageSize;
      b.set(original.subarray(from, from + pageSize), (d.to % pages) * pageSize);
      return b;
    }
  }
}

describe('openChioStore never throws', () => {
  it(
    'on arbitrary bytes (with and without a WAL)',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 2000 }), fc.option(fc.uint8Array({ maxLength: 600 }), { nil: undefined }), (db, wal) => {
          expectWellFormed(openChioStore(SQL, db, wal));
        }),
        fuzzParams(300),
      );
    },
    fuzzTimeout(),
  );

  it(
    'on the real provider store, damaged (bytes, cuts, pages zeroed, garbage or copied, header fields)',
    () => {
      fc.assert(
        fc.property(fc.array(damage, { minLength: 1, maxLength: 2 }), (ds) => {
          expectWellFormed(
            openChioStore(
              SQL,
              ds.reduce<Uint8Array>((b, d) => damaged(b, d, PAGE), PROVIDER),
            ),
          );
        }),
        fuzzParams(80),
      );
    },
    fuzzTimeout(),
  );

  it(
    'on the real settlement sidecar with its WAL damaged (and sometimes re-sealed so the checksums pass)',
    () => {
      fc.assert(
        fc.property(fc.array(damage, { minLength: 1, maxLength: 2 }), fc.boolean(), (ds, resealed) => {
          const wal = ds.reduce<Uint8Array>((b, d) => damaged(b, d, FRAME), SIDECAR_WAL);
          expectWellFormed(openChioStore(SQL, SIDECAR_DB, resealed ? reseal(wal) : wal));
        }),
        fuzzParams(150),
      );
    },
    fuzzTimeout(),
  );
});

describe('applyWal never throws', () => {
  it(
    'on arbitrary bytes',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 600 }), fc.uint8Array({ maxLength: 600 }), (db, wal) => {
          applyWal(db, wal);
          applyWal(SIDECAR_DB, wal);
        }),
        fuzzParams(500),
      );
    },
    fuzzTimeout(),
  );

  it(
    'on the real WAL damaged, cut, re-sealed or with frames reordered and repeated: whole pages out',
    () => {
      const frames = Math.floor((SIDECAR_WAL.length - 32) / FRAME);
      const reorder = fc.array(fc.nat(frames - 1), { minLength: 1, maxLength: frames + 4 }).map((order) => {
        const w = new Uint8Array(32 + order.length * FRAME);
        w.set(SIDECAR_WAL.subarray(0, 32));
        order.forEach((f, i) => w.set(SIDECAR_WAL.subarray(32 + f * FRAME, 32 + (f + 1) * FRAME), 32 + i * FRAME));
        return w;
      });
      const wal = fc.oneof(
        fc.array(damage, { minLength: 1, maxLength: 2 }).map((ds) => ds.reduce<Uint8Array>((b, d) => damaged(b, d, FRAME), SIDECAR_WAL)),
        reorder,
      );
      fc.assert(
        fc.property(wal, fc.boolean(), (w, resealed) => {
          const r = applyWal(SIDECAR_DB, resealed ? reseal(w) : w);
          if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
          else if (r.bytes !== SIDECAR_DB) expect(r.bytes.length % PAGE).toBe(0);
        }),
        fuzzParams(400),
      );
    },
    fuzzTimeout(),
  );
});
