// The guard evidence matrix (issue 5, item 4): per tool, how often each guard
// passed, failed, or was not evaluated, over verified tool receipts. Columns
// are the guards in the kernel's evaluation order, recovered from the order
// the receipts list their evidence in (chio-format.md §6: GuardEvidence is
// appended as guards run, and a denial stops the pipeline). A guard a tool's
// calls are evaluated by elsewhere but that is missing from one receipt is
// `notReached` when an earlier guard failed on that receipt (the pipeline
// stopped), else `notRun` (the guard did not apply, e.g. budget outside a
// budgeted grant, or the receipt carries no evidence). Neither is a pass.
// Pure: one pass counts (tool, trail) pairs; each distinct trail is decoded once.
import type { RowStore } from '../query/row-store';
import { decodeGuardTrail, type GuardOutcome } from '../verify/guard-trail';
import { explorerLink } from './security';
import type { VerifiedScope } from './scope';

export interface MatrixCell {
  pass: number;
  fail: number;
  /** An earlier guard failed on the receipt: this one never ran. */
  notReached: number;
  /** Missing from the receipt otherwise (not applicable, or no evidence at all). */
  notRun: number;
  /** The explorer on the verified receipts of the tool whose first failing guard is this one (when it failed). */
  failHref?: string;
}

export interface MatrixRow {
  tool: string;
  /** Verified tool receipts of this tool. */
  receipts: number;
  /** Of those, receipts without any guard evidence (e.g. trace observations). */
  withoutEvidence: number;
  /** One per column; null when no receipt of this tool was ever evaluated by that guard. */
  cells: (MatrixCell | null)[];
  href: string;
}

export interface GuardMatrix {
  /** Columns, in evaluation order. */
  guards: string[];
  /** Rows, most receipts first. */
  rows: MatrixRow[];
}

const VERIFIED = { verdict: ['verified'] };

export function guardMatrix(store: RowStore, scope: VerifiedScope): GuardMatrix {
  const tool = store.dict.type.lookup('tool') ?? -1;
  const { type, toolName, guards } = store.codes;
  const nTrails = store.dict.guards.values.length;
  // (tool code, trail code) → receipts, as one number key: a log has few distinct pairs.
  const pairs = new Map<number, number>();
  for (const row of scope.rows) {
    if (type[row] !== tool) continue;
    const key = toolName[row]! * nTrails + guards[row]!;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  const trails = new Map<number, GuardOutcome[]>();
  const trailOf = (code: number) => {
    let t = trails.get(code);
    if (!t) trails.set(code, (t = code === 0 ? [] : decodeGuardTrail(store.dict.guards.values[code]!)));
    return t;
  };
  for (const key of pairs.keys()) trailOf(key % nTrails);
  const order = evaluationOrder([...trails.values()]);
  const rank = new Map(order.map((g, i) => [g, i]));

  interface Acc {
    receipts: number;
    withoutEvidence: number;
    cells: Map<number, MatrixCell>;
  }
  const acc = new Map<number, Acc>();
  const accOf = (t: number) => {
    let a = acc.get(t);
    if (!a) acc.set(t, (a = { receipts: 0, withoutEvidence: 0, cells: new Map() }));
    return a;
  };
  // First the guards each tool is evaluated by (the columns its row has), then the counts.
  for (const [key, n] of pairs) {
    const a = accOf(Math.floor(key / nTrails));
    a.receipts += n;
    const trail = trailOf(key % nTrails);
    if (trail.length === 0) a.withoutEvidence += n;
    for (const o of trail) if (!a.cells.has(rank.get(o.guard)!)) a.cells.set(rank.get(o.guard)!, { pass: 0, fail: 0, notReached: 0, notRun: 0 });
  }
  for (const [key, n] of pairs) {
    const a = acc.get(Math.floor(key / nTrails))!;
    const trail = trailOf(key % nTrails);
    const seen = new Set<number>();
    let firstFail = Infinity;
    for (const o of trail) {
      const r = rank.get(o.guard)!;
      seen.add(r);
      const cell = a.cells.get(r)!;
      if (o.passed) cell.pass += n;
      else {
        cell.fail += n;
        firstFail = Math.min(firstFail, r);
      }
    }
    for (const [r, cell] of a.cells) {
      if (seen.has(r)) continue;
      if (r > firstFail) cell.notReached += n;
      else cell.notRun += n;
    }
  }
  const rows: MatrixRow[] = [];
  for (const [t, a] of acc) {
    const name = store.dict.toolName.values[t]!;
    const toolFilter = t === 0 ? {} : { toolName: [name] };
    rows.push({
      tool: name,
      receipts: a.receipts,
      withoutEvidence: a.withoutEvidence,
      cells: order.map((g, r) => {
        const cell = a.cells.get(r);
        if (!cell) return null;
        return cell.fail > 0 ? { ...cell, failHref: explorerLink({ ...VERIFIED, type: ['tool'], ...toolFilter, guardFailed: [g] }) } : cell;
      }),
      href: explorerLink({ ...VERIFIED, type: ['tool'], ...toolFilter }),
    });
  }
  rows.sort((x, y) => y.receipts - x.receipts || (x.tool < y.tool ? -1 : 1));
  return { guards: order, rows };
}

/**
 * The guards in an order every trail agrees with where they can (a
 * topological order of "listed before" over consecutive entries). Where the
 * trails leave the order open (guards never listed together), the guard with
 * the longer chain of guards after it goes first, then alphabetical, so the
 * order never depends on arrival order. On a cycle (receipts that disagree)
 * the guard with the fewest unmet predecessors goes next.
 */
export function evaluationOrder(trails: readonly GuardOutcome[][]): string[] {
  const after = new Map<string, Set<string>>();
  const indegree = new Map<string, number>();
  const node = (g: string) => {
    if (!after.has(g)) {
      after.set(g, new Set());
      indegree.set(g, 0);
    }
  };
  for (const trail of trails) {
    for (let i = 0; i < trail.length; i++) {
      node(trail[i]!.guard);
      if (i === 0) continue;
      const a = trail[i - 1]!.guard;
      const b = trail[i]!.guard;
      if (a === b || after.get(a)!.has(b)) continue;
      after.get(a)!.add(b);
      indegree.set(b, indegree.get(b)! + 1);
    }
  }
  // Longest chain after each guard (a back edge of a cycle is not followed).
  const height = new Map<string, number>();
  const onPath = new Set<string>();
  const heightOf = (g: string): number => {
    const known = height.get(g);
    if (known !== undefined) return known;
    onPath.add(g);
    let h = 0;
    for (const b of after.get(g)!) if (!onPath.has(b)) h = Math.max(h, 1 + heightOf(b));
    onPath.delete(g);
    height.set(g, h);
    return h;
  };
  const before = (a: string, b: string) => {
    const da = indegree.get(a)!;
    const db = indegree.get(b)!;
    if (da !== db) return da < db;
    const ha = heightOf(a);
    const hb = heightOf(b);
    return ha !== hb ? ha > hb : a < b;
  };
  const out: string[] = [];
  const left = new Set(after.keys());
  while (left.size > 0) {
    let next: string | undefined;
    for (const g of left) if (next === undefined || before(g, next)) next = g;
    left.delete(next!);
    out.push(next!);
    for (const b of after.get(next!)!) indegree.set(b, indegree.get(b)! - 1);
  }
  return out;
}
