// The DAG's sessions (issue 5, item 1): which session each receipt belongs to (its own, or its
// parent receipt's) and every session of the log with its verified receipt counts, in the order
// of its first receipt. Receipts that are not verified are counted apart. Pure.
import { type RowStore, VERDICTS } from '../query/row-store';
import { otherRuntimeTypeFlags } from '../query/runtimes';

const VERIFIED = VERDICTS.indexOf('verified');

export interface DagSession {
  sessionId: string;
  /** Verified child and tool receipts of the session. */
  child: number;
  tool: number;
  /** Receipts of the session that are not verified (drawn, marked, not counted above). */
  notVerified: number;
  /** Unix seconds of the session's first and last receipt (NaN when none has a time). */
  firstTime: number;
  lastTime: number;
}

export interface DagIndex {
  /** Sessions in the order of their first receipt in the log. */
  sessions: DagSession[];
  child: number;
  tool: number;
  notVerified: number;
}

/**
 * The session a receipt belongs to, as a `sessionId` dictionary code (0: none):
 * its own session id, or else (a tool receipt whose call chain names only a
 * parent receipt) the session of that parent receipt.
 */
export function sessionCodeOf(store: RowStore, row: number): number {
  const own = store.codes.sessionId[row]!;
  if (own !== 0 || store.codes.parentReceiptId[row] === 0) return own;
  const parent = store.rowById(store.str('parentReceiptId', row)!);
  return parent === undefined || parent === row ? 0 : store.codes.sessionId[parent]!;
}

/** Every session of the log with its verified receipt counts: one pass over the rows. */
export function dagSessions(store: RowStore): DagIndex {
  const dict = store.dict.sessionId.values;
  const child = new Uint32Array(dict.length);
  const tool = new Uint32Array(dict.length);
  const other = new Uint32Array(dict.length);
  const first = new Float64Array(dict.length).fill(NaN);
  const last = new Float64Array(dict.length).fill(NaN);
  const firstPos = new Float64Array(dict.length).fill(Infinity);
  const { posOfRow } = store.positions();
  const childType = store.dict.type.lookup('child') ?? -1;
  const otherRuntime = otherRuntimeTypeFlags(store);
  let nChild = 0;
  let nTool = 0;
  let nOther = 0;
  for (let row = 0; row < store.length; row++) {
    // A CodeWhale turn names its thread as a session, but no Chio request tree holds it.
    if (otherRuntime[store.codes.type[row]!]) continue;
    const s = sessionCodeOf(store, row);
    if (s === 0) continue;
    if (store.verdict[row] !== VERIFIED) {
      other[s]!++;
      nOther++;
    } else if (store.codes.type[row] === childType) {
      child[s]!++;
      nChild++;
    } else {
      tool[s]!++;
      nTool++;
    }
    const t = store.time[row]!;
    if (!Number.isNaN(t)) {
      if (!(t >= first[s]!)) first[s] = t;
      if (!(t <= last[s]!)) last[s] = t;
    }
    if (posOfRow[row]! < firstPos[s]!) firstPos[s] = posOfRow[row]!;
  }
  const sessions: DagSession[] = [];
  for (let s = 1; s < dict.length; s++) {
    if (child[s]! + tool[s]! + other[s]! === 0) continue;
    sessions.push({ sessionId: dict[s]!, child: child[s]!, tool: tool[s]!, notVerified: other[s]!, firstTime: first[s]!, lastTime: last[s]! });
  }
  const pos = new Map(sessions.map((x) => [x.sessionId, firstPos[store.dict.sessionId.lookup(x.sessionId)!]!]));
  sessions.sort((a, b) => pos.get(a.sessionId)! - pos.get(b.sessionId)!);
  return { sessions, child: nChild, tool: nTool, notVerified: nOther };
}
