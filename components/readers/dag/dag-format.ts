// The DAG page's small formatters (/dag): counts in en-US digits, counted nouns, and a link to
// the explorer filtered to some values (lib/query/explorer-filter.ts).
import { type ExplorerFilter, explorerUrl } from '../../../lib/query/explorer-filter';

export const fmt = (n: number) => n.toLocaleString('en-US');
export const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** The explorer, filtered to some values. */
export const explorerHref = (values: ExplorerFilter['values']): string => explorerUrl({ values });
