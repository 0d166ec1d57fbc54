// The explorer's columns and reader presets: what each column shows, which
// columns a preset promises, and the column set as a URL parameter (`cols`,
// so a view with chosen columns is a link like any filtered view). Pure.
import { isOtherRuntime } from './runtimes';

export const COLUMN_KEYS = [
  'time',
  'runtime',
  'id',
  'toolServer',
  'toolName',
  'decision',
  'guard',
  'cost',
  'settlement',
  'tenant',
  'capabilityId',
  'policyHash',
  'trustLevel',
  'kind',
  'kernelKey',
  'problems',
  'verdict',
  'where',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

/** Header text of each column. */
export const COLUMN_LABEL: Record<ColumnKey, string> = {
  time: 'time (UTC)',
  runtime: 'runtime',
  id: 'receipt id',
  toolServer: 'tool server',
  toolName: 'tool',
  decision: 'decision',
  guard: 'blocking guard',
  cost: 'cost',
  settlement: 'settlement',
  tenant: 'tenant',
  capabilityId: 'capability',
  policyHash: 'policy',
  trustLevel: 'trust level',
  kind: 'kind',
  kernelKey: 'signer',
  problems: 'problems',
  verdict: 'verdict',
  where: 'read at',
};

/** The explorer's presets: a filter of the rows and the columns a reader of that kind reads. */
export const PRESETS = {
  security: {
    label: 'Security',
    description: 'Denials, failed or unverified receipts, and receipts with problems',
    columns: ['time', 'id', 'toolServer', 'toolName', 'decision', 'guard', 'problems', 'verdict'],
  },
  finance: {
    label: 'Finance',
    description: 'Receipts that carry a cost, with the cost, its settlement and tenant',
    columns: ['time', 'id', 'toolServer', 'toolName', 'decision', 'cost', 'settlement', 'tenant', 'verdict'],
  },
  compliance: {
    label: 'Compliance',
    description: 'Every receipt, with its policy, trust level, kind and signer',
    columns: ['time', 'id', 'toolName', 'policyHash', 'trustLevel', 'kind', 'kernelKey', 'verdict'],
  },
} as const satisfies Record<string, { label: string; description: string; columns: readonly ColumnKey[] }>;
export type Preset = keyof typeof PRESETS;

export const isPreset = (s: string): s is Preset => Object.hasOwn(PRESETS, s);

/** The table without a preset or a choice of columns. */
export const DEFAULT_COLUMNS: readonly ColumnKey[] = ['time', 'id', 'toolServer', 'toolName', 'decision', 'guard', 'cost', 'verdict'];

/**
 * Narrowed to ZeroClaw or CodeWhale receipts: tool server, guard, cost, settlement and tenant are
 * Chio's and always empty there; the decision column holds a review's target, CodeWhale's
 * --check-receipt status or a turn's status.
 */
export const OTHER_RUNTIME_COLUMNS: readonly ColumnKey[] = ['time', 'runtime', 'id', 'toolName', 'decision', 'verdict', 'where'];

/**
 * The columns shown: the reader's own choice (`chosen`), else the preset's, else the default. A
 * log that mixes runtimes gets the runtime column after the time, and a view of other runtimes'
 * receipts only gets theirs; a log where one id names several receipts, or of several sources
 * (`copies`), gets where each row was read, which tells the copies apart. Catalogue order.
 */
export function shownColumns(o: { chosen?: readonly ColumnKey[]; preset?: Preset; mixed: boolean; types?: readonly string[]; copies?: boolean }): ColumnKey[] {
  if (o.chosen?.length) return inOrder(o.chosen);
  if (o.mixed && !o.preset && o.types?.length && o.types.every(isOtherRuntime)) return [...OTHER_RUNTIME_COLUMNS];
  const base: ColumnKey[] = [...(o.preset ? PRESETS[o.preset].columns : DEFAULT_COLUMNS)];
  if (o.mixed) base.push('runtime');
  if (o.copies) base.push('where');
  return inOrder(base);
}

/** The header of a column in a view: the decision column of other runtimes' receipts also holds a status. */
export function columnLabel(key: ColumnKey, columns: readonly ColumnKey[]): string {
  return key === 'decision' && columns.includes('runtime') && !columns.includes('toolServer') ? 'decision or status' : COLUMN_LABEL[key];
}

const inOrder = (keys: readonly ColumnKey[]): ColumnKey[] => COLUMN_KEYS.filter((k) => keys.includes(k));

/** `cols` of the URL → the chosen columns (unknown names dropped, duplicates once, catalogue order); undefined when none is left. */
export function parseColumns(param: string | null): ColumnKey[] | undefined {
  if (!param) return undefined;
  const names = param.slice(0, 1000).split(',');
  const keys = COLUMN_KEYS.filter((k) => names.includes(k));
  return keys.length ? keys : undefined;
}

/** The chosen columns as the URL's `cols`. */
export function formatColumns(keys: readonly ColumnKey[]): string {
  return inOrder(keys).join(',');
}
