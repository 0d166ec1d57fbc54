// What the reader views (DAG, finance, compliance, security) count: verified
// receipts only, in log order, and how many were left out and why, so every
// number on those pages can say what it stands on. Those views read Chio
// receipts (policies, guards, budgets, signers): other runtimes' receipts are
// left out and counted apart, never mixed into those figures. Pure.
import { type RowStore, VERDICTS } from '../query/row-store';
import { otherRuntimeTypeFlags } from '../query/runtimes';

export interface VerifiedScope {
  /** Rows whose verdict is `verified`, in log order. */
  rows: Uint32Array;
  /** Rows left out, by verdict. */
  /** `unpinned`: intact, but no pinned key vouches for the signer (part 2 §11): not verified, so not counted. */
  left: { failed: number; unverified: number; unpinned: number; pending: number };
  /** All rows of the log. */
  total: number;
  /** ZeroClaw and CodeWhale receipts (of `keep`'s rows), left out whatever their verdict. */
  otherRuntimes: number;
}

/** The verified rows of `store` (optionally only those `keep` accepts), in log order. */
export function verifiedScope(store: RowStore, keep?: (row: number) => boolean): VerifiedScope {
  const { rowAtPos } = store.positions();
  const verified = VERDICTS.indexOf('verified');
  const out = new Uint32Array(store.length);
  const tally = new Uint32Array(VERDICTS.length);
  const other = otherRuntimeTypeFlags(store);
  let otherRuntimes = 0;
  let n = 0;
  for (let p = 0; p < rowAtPos.length; p++) {
    const row = rowAtPos[p]!;
    if (keep && !keep(row)) continue;
    if (other[store.codes.type[row]!]) {
      otherRuntimes++;
      continue;
    }
    const v = store.verdict[row]!;
    if (v === verified) out[n++] = row;
    else tally[v]!++;
  }
  return {
    rows: out.subarray(0, n),
    left: {
      failed: tally[VERDICTS.indexOf('failed')]!,
      unverified: tally[VERDICTS.indexOf('unverified')]!,
      unpinned: tally[VERDICTS.indexOf('unpinned')]!,
      pending: tally[VERDICTS.indexOf('pending')]!,
    },
    total: store.length,
    otherRuntimes,
  };
}
