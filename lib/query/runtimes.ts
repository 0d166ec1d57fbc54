// Which agent runtime wrote a receipt, by its report type (issue 8): Chio's
// own receipts, and ZeroClaw's and CodeWhale's, which lib/dialects audits.
// One table for the explorer's runtime filter and badges, the overview's
// per-runtime totals, and the readers (DAG, finance, compliance, security),
// which read Chio receipts only. Pure.
import type { RowStore } from './row-store';

export interface Runtime {
  id: 'chio' | 'zeroclaw' | 'codewhale';
  label: string;
  /** Report receipt types (the explorer's `type` values) this runtime writes. */
  types: readonly string[];
}

export const RUNTIMES: readonly Runtime[] = [
  { id: 'chio', label: 'Chio', types: ['tool', 'child', 'http'] },
  { id: 'zeroclaw', label: 'ZeroClaw', types: ['zeroclaw'] },
  { id: 'codewhale', label: 'CodeWhale', types: ['codewhale-review', 'codewhale-turn'] },
];

const BY_TYPE = new Map(RUNTIMES.flatMap((r) => r.types.map((t) => [t, r] as const)));

/** The runtime of a receipt type; undefined for a type no runtime here writes. */
export function runtimeOf(type: string | undefined): Runtime | undefined {
  return type === undefined ? undefined : BY_TYPE.get(type);
}

/** True for ZeroClaw and CodeWhale receipts: no Chio signature, checkpoint, policy or budget. */
export function isOtherRuntime(type: string | undefined): boolean {
  const r = runtimeOf(type);
  return r !== undefined && r.id !== 'chio';
}

/**
 * One byte per `type` dictionary code, 1 where the type is another runtime's:
 * a reader tests a row with `flags[store.codes.type[row]]` instead of a string
 * compare per row (a million rows).
 */
export function otherRuntimeTypeFlags(store: RowStore): Uint8Array {
  const values = store.dict.type.values;
  const flags = new Uint8Array(values.length);
  for (let c = 1; c < values.length; c++) if (isOtherRuntime(values[c])) flags[c] = 1;
  return flags;
}
