'use client';
// The explorer's active filters as removable chips, what it says when no row
// matches, the column chooser, and the export of the rows shown.
import { useId } from 'react';
import { type FilterChip, clearFilters, filterChips } from '../../lib/query/explorer-chips';
import { COLUMN_KEYS, COLUMN_LABEL, type ColumnKey } from '../../lib/query/explorer-columns';
import { exportCsv, exportNdjson } from '../../lib/query/explorer-export';
import type { ExplorerFilter } from '../../lib/query/explorer-filter';
import type { RowStore } from '../../lib/query/row-store';
import { revealPlain } from '../../lib/text/reveal';
import { downloadText } from '../data/download';
import { SafeText } from '../ui/safe-text';

/** What a chip's key says it filters, for tests and styles (a value's own text stays out of attributes). */
const kindOf = (c: FilterChip) => c.key.split('=')[0]!;

export function FilterChips({ filter, onChange }: { filter: ExplorerFilter; onChange: (f: ExplorerFilter) => void }) {
  const chips = filterChips(filter);
  if (!chips.length) return null;
  return (
    <div className="chips explorer-chips" role="group" aria-label="Active filters" data-testid="explorer-chips">
      {chips.map((c) => (
        <button
          key={c.key}
          type="button"
          className="chip"
          data-chip={kindOf(c)}
          onClick={() => onChange(c.without)}
          aria-label={`remove filter ${c.field} = ${revealPlain(c.value, 80)}`}
        >
          <span className="chip-field">{c.field}:</span> <SafeText text={c.value} max={80} expandable={false} /> <span aria-hidden="true">×</span>
        </button>
      ))}
      {chips.length > 0 && (
        <button type="button" className="chip chip-clear" onClick={() => onChange(clearFilters(filter))} data-testid="explorer-clear-all">
          Clear all
        </button>
      )}
    </div>
  );
}

/** No row matches: say so, with the filters that left none, and a way out. */
export function EmptyState({ filter, onChange, still }: { filter: ExplorerFilter; onChange: (f: ExplorerFilter) => void; still: boolean }) {
  const chips = filterChips(filter);
  return (
    <div className="explorer-empty" role="status" data-testid="explorer-empty">
      <p>
        <strong>No receipts match {chips.length === 1 ? 'this filter' : 'these filters'}</strong>
        {still ? ' yet (the log is still being read)' : ''}.
      </p>
      {chips.length > 0 && (
        <ul>
          {chips.map((c) => (
            <li key={c.key}>
              {c.field}: <SafeText text={c.value} max={80} expandable={false} />
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button" onClick={() => onChange(clearFilters(filter))} data-testid="explorer-empty-clear">
        Clear all filters
      </button>
    </div>
  );
}

/**
 * Which columns show. The choice is kept in the URL (`cols`), like the filter: a link to a view
 * opens it with the same columns, and a preset's button brings back the preset's own.
 */
export function ColumnChooser({
  shown,
  chosen,
  preset,
  onChange,
}: {
  shown: readonly ColumnKey[];
  chosen: boolean;
  preset: boolean;
  onChange: (columns: ColumnKey[] | undefined) => void;
}) {
  const id = useId();
  return (
    <details className="explorer-columns" data-testid="explorer-columns">
      <summary>
        Columns{' '}
        <span className="muted">
          ({shown.length} of {COLUMN_KEYS.length})
        </span>
      </summary>
      <fieldset>
        <legend id={id}>Columns shown (kept in the page&apos;s link)</legend>
        <div className="explorer-columns-grid">
          {COLUMN_KEYS.map((k) => {
            const on = shown.includes(k);
            return (
              <label key={k}>
                <input
                  type="checkbox"
                  checked={on}
                  // The last column stays: a table of no column shows nothing to choose from.
                  disabled={on && shown.length === 1}
                  onChange={() => onChange(on ? shown.filter((c) => c !== k) : [...shown, k])}
                  data-testid={`column-${k}`}
                />{' '}
                {COLUMN_LABEL[k]}
              </label>
            );
          })}
        </div>
        <button type="button" className="button" disabled={!chosen} onClick={() => onChange(undefined)} data-testid="explorer-columns-reset">
          {preset ? 'Back to the preset\u2019s columns' : 'Back to the default columns'}
        </button>
      </fieldset>
    </details>
  );
}

/** The rows shown (filtered and sorted), every field, as CSV or NDJSON. */
export function ExportButtons({ store, rows }: { store: RowStore; rows: Uint32Array }) {
  const n = rows.length;
  const what = `${n.toLocaleString('en-US')} receipt${n === 1 ? '' : 's'}`;
  return (
    <div className="explorer-export" role="group" aria-label={`Export the ${what} shown`}>
      <button
        type="button"
        className="button"
        disabled={n === 0}
        onClick={() => downloadText(`receipts-${n}.csv`, exportCsv(store, rows), 'text/csv')}
        data-testid="explorer-export-csv"
        title={`The ${what} shown, every field, as CSV`}
      >
        Export CSV
      </button>
      <button
        type="button"
        className="button"
        disabled={n === 0}
        onClick={() => downloadText(`receipts-${n}.ndjson`, exportNdjson(store, rows), 'application/x-ndjson')}
        data-testid="explorer-export-ndjson"
        title={`The ${what} shown, every field, as NDJSON`}
      >
        Export NDJSON
      </button>
    </div>
  );
}
