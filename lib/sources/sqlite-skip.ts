// Reading past a damaged b-tree page of a Chio SQLite store (issue 7 "big and
// broken input"). When stepping a table fails ("database disk image is
// malformed"), the cursor cannot move on, but the rows on other pages are still
// there: a new query that seeks to a key beyond the damaged leaf reaches them.
// This finds the nearest such key after the last row read: probes at growing
// distances, then a binary search back to the boundary, so good rows between
// two damaged regions are not skipped. Bounded work: O(log n) one-row probes.
// The file is attacker-controlled; nothing here throws.
import type { Database, Statement } from 'sql.js';

/** Whether a query for rows with `order` ≥ `key` can step to its first row (or finds none) without an error. */
function readableFrom(db: Database, table: string, order: string, key: number): boolean {
  let stmt: Statement | undefined;
  try {
    stmt = db.prepare(`SELECT "${order}" FROM "${table}" WHERE "${order}" >= ? ORDER BY "${order}" LIMIT 1`);
    stmt.bind([key]);
    stmt.step();
    return true;
  } catch {
    return false;
  } finally {
    try {
      stmt?.free();
    } catch {
      // already freed
    }
  }
}

/** The largest `order` value, or null when it cannot be read. */
function maxKey(db: Database, table: string, order: string): number | null {
  try {
    const v = db.exec(`SELECT max("${order}") FROM "${table}"`)[0]?.values[0]?.[0];
    return typeof v === 'number' && Number.isSafeInteger(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * After a read of `table` (ordered by the integer column `order`) failed past
 * key `after` (null: before the first row), the smallest key from which it
 * reads again, or null when no later key can be read.
 */
export function resumeKey(db: Database, table: string, order: string, after: number | null): number | null {
  const last = maxKey(db, table, order);
  if (last === null) return null;
  let failed = after ?? Math.min(0, last) - 1;
  if (failed >= last) return null;
  // Growing steps until a key reads (or the last key does not).
  let step = 1;
  let ok = -1;
  for (;;) {
    const probe = Math.min(failed + step, last);
    if (readableFrom(db, table, order, probe)) {
      ok = probe;
      break;
    }
    if (probe === last) return null;
    failed = probe;
    step *= 2;
  }
  // Back to the boundary: `failed` does not read, `ok` does.
  while (ok - failed > 1) {
    const mid = failed + Math.floor((ok - failed) / 2);
    if (readableFrom(db, table, order, mid)) ok = mid;
    else failed = mid;
  }
  return ok;
}
