// Lineage rows of a local Chio store (format v2 §16.9): the one place legacy_projection is
// allowed. A store built with the real schema, given the newer columns upstream added
// (provenance, signed_capability_json, federated_parent_capability_id), then read the way the
// command line reads it: legacy rows without a token stay unsigned context, the others are
// verified like package rows, and a bad row is a problem naming table and row.
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { capabilityToken, genAReceipt, keyFromSeed, lineageRowOf } from '../../test/support/forge';
import type { VerificationReport } from '../verdict/report';
import { createChioStore } from './sqlite-store-writer';
import { openChioStore } from './sqlite-store';
import { loadStore } from './store';
import { pinnedVerifier } from '../../test/support/verify-records';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const key = keyFromSeed(31);
const subject = keyFromSeed(32).publicHex;
const receipt = genAReceipt({ seq: 1, key });

/** The newer upstream columns, as `chio-store-sqlite` adds them. */
const NEWER_COLUMNS = `
  ALTER TABLE capability_lineage ADD COLUMN federated_parent_capability_id TEXT;
  ALTER TABLE capability_lineage ADD COLUMN provenance TEXT NOT NULL DEFAULT 'legacy_projection';
  ALTER TABLE capability_lineage ADD COLUMN signed_capability_json TEXT;`;

type Cell = string | number | null;
/** A store with `rows` of capability_lineage (each a column → value map), newer columns unless `old`. */
function store(rows: Record<string, Cell>[], old = false): Uint8Array {
  const db = new SQL.Database(
    createChioStore(SQL, {
      toolReceipts: [
        {
          rawJson: JSON.stringify(receipt),
          receiptId: receipt.id as string,
          timestamp: receipt.timestamp as number,
          capabilityId: 'cap-test-1',
          toolServer: 'srv-files',
          toolName: 'file_read',
          decisionKind: 'allow',
          policyHash: 'policy-test-v1',
          contentHash: receipt.content_hash as string,
        },
      ],
    }),
  );
  try {
    if (!old) db.exec(NEWER_COLUMNS);
    for (const row of rows) {
      const cols = Object.keys(row);
      db.run(
        `INSERT INTO capability_lineage (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        cols.map((c) => row[c]!),
      );
    }
    return db.export();
  } finally {
    db.close();
  }
}

/** A lineage row (package form) as the store's columns. */
function columns(row: Record<string, unknown>): Record<string, Cell> {
  const { signed_capability: token, ...rest } = row;
  const out = rest as Record<string, Cell>;
  if (token !== undefined) out.signed_capability_json = JSON.stringify(token);
  return out;
}

async function verifyStore(bytes: Uint8Array): Promise<VerificationReport> {
  const opened = openChioStore(SQL, bytes);
  if (!opened.ok) throw new Error(opened.message);
  const v = pinnedVerifier([key.publicHex]);
  try {
    await loadStore(opened.store, 'receipts.sqlite3', v, 's');
  } finally {
    opened.store.close();
  }
  return v.finish();
}

const token = (id: string) => capabilityToken({ id, key, subject });
const FILE = 'receipts.sqlite3#capability_lineage';

describe('capability_lineage of a local store', () => {
  it('a store of the older schema: its rows are unsigned context, nothing is reported', async () => {
    const { provenance: _, signed_capability: __, ...legacy } = lineageRowOf(token('cap-test-1'));
    const r = await verifyStore(store([legacy as Record<string, Cell>], true));
    expect('lineage' in r).toBe(false);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('signed rows verify, legacy rows without a token stay context, every other row is judged as in a package', async () => {
    const anchor: Record<string, Cell> = {
      capability_id: `fed-del-${'0'.repeat(64)}`,
      subject_key: subject,
      issuer_key: key.publicHex,
      issued_at: 1,
      expires_at: 2,
      grants_json: '{}',
      delegation_depth: 0,
      parent_capability_id: null,
      provenance: 'synthetic_anchor',
    };
    const { signed_capability: _, ...projection } = lineageRowOf(token('cap-legacy'));
    const rows: Record<string, Cell>[] = [
      columns(lineageRowOf(token('cap-test-1'))), // rowid 1: verified
      columns({ ...projection, provenance: 'legacy_projection' }), // 2: context
      columns(lineageRowOf(token('cap-relabelled'), { provenance: 'legacy_projection' })), // 3: a token under legacy
      columns(lineageRowOf(token('cap-tokenless'), { signed_capability: undefined })), // 4: signed_token, no token
      columns(lineageRowOf(token('cap-unreadable'))), // 5: token text cut short
      anchor, // 6: an unsigned federation anchor
      columns(lineageRowOf(token('cap-bogus'), { provenance: 'self_signed' })), // 7: unknown provenance
    ];
    rows[3]!.signed_capability_json = null;
    rows[4]!.signed_capability_json = (rows[4]!.signed_capability_json as string).slice(0, 40);
    const r = await verifyStore(store(rows));
    expect(r.lineage!.map((l) => [l.line, l.capability_id, l.verdict, l.problems])).toEqual([
      [1, 'cap-test-1', 'verified', []],
      [3, 'cap-relabelled', 'failed', ['lineage_downgraded']],
      [4, 'cap-tokenless', 'failed', ['lineage_signature_invalid']],
      [5, 'cap-unreadable', 'failed', ['lineage_signature_invalid']],
      [6, anchor.capability_id!, 'verified', []],
    ]);
    expect(r.lineage!.every((l) => l.file === FILE)).toBe(true);
    expect(r.lineage![1]!.details!.lineage).toBe('it marks a signed token as a legacy projection');
    expect(r.lineage![3]!.details!.lineage).toMatch(/^signed_capability_json is not valid JSON/);
    const parse = r.problems.filter((p) => p.code === 'parse_error');
    expect(parse.map((p) => [p.file, p.line])).toEqual([[FILE, 7]]);
    expect(parse[0]!.message).toMatch(/provenance: expected one of .*found "self_signed"/);
    // The receipt is untouched: no package, so no lineage_missing either.
    expect(r.receipts.map((x) => [x.verdict, x.checks.signature])).toEqual([['verified', 'pass']]);
    expect(r.problems.some((p) => p.code === 'lineage_missing')).toBe(false);
  });

  it('a column of the wrong type is a problem naming the row; the next row is still read', async () => {
    const rows = [columns(lineageRowOf(token('cap-a'))), columns(lineageRowOf(token('cap-b')))];
    rows[0]!.issued_at = 'soon';
    const r = await verifyStore(store(rows));
    expect(r.problems.map((p) => [p.code, p.file, p.line, p.message])).toEqual([
      ['parse_error', FILE, 1, `${FILE} row 1: issued_at is text, expected integer`],
    ]);
    expect(r.lineage!.map((l) => [l.capability_id, l.verdict])).toEqual([['cap-b', 'verified']]);
  });
});
