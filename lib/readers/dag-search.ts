// The DAG's search (issue 5, item 1): receipts of any session whose ids, session, tool or
// operation kind match a text, and how many per session, in one pass over the row store.
// The text and the fields are attacker-controlled; they are only compared. Pure.
import type { RowStore, RowVerdict } from '../query/row-store';
import { otherRuntimeTypeFlags } from '../query/runtimes';
import { sessionCodeOf } from './dag-sessions';

export interface DagHit {
  receiptId: string;
  session: string;
  label: string;
  verdict: RowVerdict;
}

/**
 * Receipts of any session that match `q` (receipt id, request id, parent
 * request id, session id, tool server or name, operation kind): the first
 * `limit` in log order, and per session how many. One pass over the rows;
 * the text is matched once per distinct value.
 */
export function dagSearch(store: RowStore, q: string, limit = 50): { hits: DagHit[]; total: number; bySession: Map<string, number> } {
  const needle = q.trim().toLowerCase();
  const bySession = new Map<string, number>();
  const hits: DagHit[] = [];
  if (!needle) return { hits, total: 0, bySession };
  const columns = ['id', 'requestId', 'parentRequestId', 'sessionId', 'toolServer', 'toolName', 'operationKind'] as const;
  const flags = columns.map((c) => store.dict[c].matches(needle));
  const { rowAtPos } = store.positions();
  const perSession = new Uint32Array(store.dict.sessionId.values.length);
  const otherRuntime = otherRuntimeTypeFlags(store);
  let total = 0;
  for (let p = 0; p < rowAtPos.length; p++) {
    const row = rowAtPos[p]!;
    if (otherRuntime[store.codes.type[row]!]) continue;
    let hit = false;
    for (let c = 0; c < columns.length && !hit; c++) hit = flags[c]![store.codes[columns[c]!][row]!] === 1;
    if (!hit) continue;
    const s = sessionCodeOf(store, row);
    if (s === 0) continue;
    total++;
    perSession[s]!++;
    if (hits.length < limit) {
      const isChild = store.str('type', row) === 'child';
      hits.push({
        receiptId: store.str('id', row) ?? '',
        session: store.dict.sessionId.values[s]!,
        label: isChild ? (store.str('operationKind', row) ?? 'request') : `${store.str('toolServer', row) ?? '?'}/${store.str('toolName', row) ?? '?'}`,
        verdict: store.verdictOf(row),
      });
    }
  }
  for (let s = 1; s < perSession.length; s++) if (perSession[s]! > 0) bySession.set(store.dict.sessionId.values[s]!, perSession[s]!);
  return { hits, total, bySession };
}
