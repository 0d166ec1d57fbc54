import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMN_KEYS, COLUMN_LABEL, DEFAULT_COLUMNS, PRESETS, type Preset, columnLabel, formatColumns, parseColumns, shownColumns } from './explorer-columns';

describe('presets show the columns they promise', () => {
  // What each description (PRESETS[p].description) names, as the columns that show it.
  const promised: Record<Preset, string[]> = {
    security: ['decision', 'blocking guard', 'problems', 'verdict'],
    finance: ['cost', 'settlement', 'tenant'],
    compliance: ['policy', 'trust level', 'kind', 'signer'],
  };
  it.each(Object.keys(PRESETS) as Preset[])('%s', (p) => {
    const labels = shownColumns({ preset: p, mixed: false }).map((k) => COLUMN_LABEL[k]);
    for (const label of promised[p]) expect(labels, `${p} shows "${label}"`).toContain(label);
    // Every preset row links to its receipt and says when and whether it verified.
    expect(labels).toEqual(expect.arrayContaining(['time (UTC)', 'receipt id', 'verdict']));
  });
});

describe('shownColumns', () => {
  it("the reader's choice wins over the preset, in the table's order", () => {
    expect(shownColumns({ chosen: ['verdict', 'id'], preset: 'compliance', mixed: true })).toEqual(['id', 'verdict']);
  });
  it('a log with copies of an id (or several sources) gets where each row was read', () => {
    expect(shownColumns({ mixed: false, copies: true })).toContain('where');
    expect(shownColumns({ mixed: false, copies: false })).not.toContain('where');
    expect(shownColumns({ preset: 'compliance', mixed: false, copies: true }).at(-1)).toBe('where');
  });
  it('a log of several runtimes gets the runtime column after the time', () => {
    expect(shownColumns({ mixed: true }).slice(0, 2)).toEqual(['time', 'runtime']);
    expect(shownColumns({ mixed: false })).toEqual([...DEFAULT_COLUMNS]);
  });
  it("other runtimes' receipts alone: their own columns, the decision also a status", () => {
    const cols = shownColumns({ mixed: true, types: ['zeroclaw'] });
    expect(cols).not.toContain('cost');
    expect(columnLabel('decision', cols)).toBe('decision or status');
    expect(columnLabel('decision', DEFAULT_COLUMNS)).toBe('decision');
  });
});

describe('the cols parameter', () => {
  it('round-trips every set of columns', () => {
    fc.assert(
      fc.property(fc.subarray([...COLUMN_KEYS], { minLength: 1 }), (keys) => {
        expect(parseColumns(formatColumns(keys))).toEqual(keys);
      }),
    );
  });
  it('drops what is no column and never throws', () => {
    expect(parseColumns('')).toBeUndefined();
    expect(parseColumns(',,nope')).toBeUndefined();
    expect(parseColumns('constructor,id')).toEqual(['id']);
    fc.assert(fc.property(fc.string(), (s) => void parseColumns(s)));
  });
});
