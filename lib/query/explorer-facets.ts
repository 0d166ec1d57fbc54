// The values of a field with their row counts, for the explorer's "filter by"
// menu: counted over the rows the other filters leave (the values of one
// field are alternatives, so a field's own choices do not narrow its counts),
// as a facet list in Datadog or Kibana does. One pass over those rows. Pure.
import { type ExplorerFilter, type ValueFilter, filterRows } from './explorer-filter';
import { type RowStore, VERDICTS } from './row-store';
import { PROBLEM_CODES } from '../verdict/problems';

export interface FacetCount {
  value: string;
  count: number;
}

/** `f` without its choices for `field`, in log order (a count needs no sort). */
export function withoutField(f: ExplorerFilter, field: ValueFilter): ExplorerFilter {
  const values = { ...f.values };
  delete values[field];
  return { ...f, values, sort: { column: 'order', dir: 'asc' } };
}

/**
 * The values of `field` among the rows `f` leaves without its own choices for that field, most
 * frequent first (ties by value), at most `limit`; values with no row there are left out.
 * `rows`: those rows when the caller has them already (f has no choice for the field).
 */
export function facetCounts(store: RowStore, f: ExplorerFilter, field: ValueFilter, limit = 500, rows?: Uint32Array): FacetCount[] {
  const over = rows && !f.values[field]?.length ? rows : filterRows(store, withoutField(f, field));
  const out: FacetCount[] = [];
  if (field === 'verdict') {
    const n = new Uint32Array(VERDICTS.length);
    for (let j = 0; j < over.length; j++) n[store.verdict[over[j]!]!]!++;
    VERDICTS.forEach((v, i) => n[i]! > 0 && out.push({ value: v, count: n[i]! }));
  } else if (field === 'problem') {
    const n = new Uint32Array(PROBLEM_CODES.length);
    for (let j = 0; j < over.length; j++) {
      const r = over[j]!;
      const lo = store.problems[r]!;
      const hi = store.problemsHi[r]!;
      if (lo === 0 && hi === 0) continue;
      for (let b = 0; b < PROBLEM_CODES.length; b++) if (((b < 32 ? lo : hi) & (1 << (b & 31))) !== 0) n[b]!++;
    }
    PROBLEM_CODES.forEach((code, i) => n[i]! > 0 && out.push({ value: code, count: n[i]! }));
  } else {
    const codes = store.codes[field];
    const values = store.dict[field].values;
    const n = new Uint32Array(values.length);
    for (let j = 0; j < over.length; j++) n[codes[over[j]!]!]!++;
    for (let c = 1; c < values.length; c++) if (n[c]! > 0) out.push({ value: values[c]!, count: n[c]! });
  }
  return out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, limit);
}
