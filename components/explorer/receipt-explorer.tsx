'use client';
// The receipts explorer: presets, live search, per-field filters with counts,
// a time window, every active filter a removable chip, a column chooser, export
// of the rows shown, sortable columns sized to their content, and a
// virtualized table that stays smooth at a million rows (receipt-table.tsx).
// The filter, the sort and the chosen columns are the URL: a view is a link,
// and it holds on a direct load and a reload.
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo } from 'react';
import { type ColumnKey, PRESETS, type Preset, shownColumns } from '../../lib/query/explorer-columns';
import {
  EMPTY_FILTER,
  type ExplorerFilter,
  type SortColumn,
  type ValueFilter,
  filterFromParams,
  filterRows,
  filterToParams,
  warmSearch,
  warmSorts,
} from '../../lib/query/explorer-filter';
import { hasCopies } from '../../lib/query/explorer-cells';
import { manySources } from '../../lib/query/receipt-address';
import { RUNTIMES, type Runtime } from '../../lib/query/runtimes';
import { useLastLog, useLogOpener, useSession } from '../data/log-contexts';
import { useReplaceQuery } from '../data/use-replace-query';
import { UnpinnedNotice } from '../trust/unpinned-notice';
import { FilterPicker, SearchBox, TimeRange } from './explorer-controls';
import { ColumnChooser, EmptyState, ExportButtons, FilterChips } from './explorer-panels';
import { ReceiptTable } from './receipt-table';

export function ReceiptExplorer() {
  const { session, rows } = useSession();
  const { ensureOpen } = useLogOpener();
  const { lost } = useLastLog();
  useEffect(ensureOpen, [ensureOpen]);
  const params = useSearchParams();
  const replaceQuery = useReplaceQuery();
  const filter = useMemo(() => filterFromParams(new URLSearchParams(params.toString())), [params]);
  const setFilter = useCallback((next: ExplorerFilter) => replaceQuery(filterToParams(next)), [replaceQuery]);
  const store = rows.current;
  // While rows stream in, re-filter each batch only for small logs; past 20,000 rows, each time the
  // log has grown by about 9% (re-filtering the whole store per 200 ms batch grew with the square
  // of the rows: 41 s of main thread for 1M). The final rows and verdicts always re-filter.
  const growth = session.status === 'running' ? (session.rows < 20_000 ? session.rows : Math.floor(Math.log2(session.rows) * 8)) : 0;
  const version = session.status === 'done' ? `done:${session.rows}` : session.status === 'running' ? `running:${growth}` : session.status;
  // Column widths follow the rows in coarser steps: each time the log doubles while it streams in.
  const widthVersion = session.status === 'running' ? `running:${Math.floor(Math.log2(session.rows + 1))}` : version;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `version` (which changes when its rows or verdicts do) is the dependency that matters
  const visible = useMemo(() => (store ? filterRows(store, filter) : new Uint32Array()), [store, filter, version]);
  // Once the log is verified, free-text search and the time and cost orders are prepared in idle
  // time (a million ids take ~0.3 s, each order ~0.1 s), so the first search or sort answers as fast
  // as the next ones.
  const done = session.status === 'done';
  useEffect(() => {
    if (!store || !done) return;
    let handle = 0;
    const idle = typeof requestIdleCallback === 'function';
    const step = () => {
      if (!warmSearch(store, 20_000) || !warmSorts(store)) handle = idle ? requestIdleCallback(step, { timeout: 2000 }) : window.setTimeout(step, 50);
    };
    handle = idle ? requestIdleCallback(step, { timeout: 2000 }) : window.setTimeout(step, 50);
    return () => (idle ? cancelIdleCallback(handle) : clearTimeout(handle));
  }, [store, done]);

  const addValue = (key: ValueFilter, value: string) => {
    const current = filter.values[key] ?? [];
    if (!current.includes(value)) setFilter({ ...filter, values: { ...filter.values, [key]: [...current, value] } });
  };
  const setSearch = (q: string | undefined) => {
    const next: ExplorerFilter = { ...filter };
    if (q) next.q = q;
    else delete next.q;
    setFilter(next);
  };
  const setBound = (bound: 'since' | 'until', value: number | undefined) => {
    const next: ExplorerFilter = { ...filter };
    if (value === undefined) delete next[bound];
    else next[bound] = value;
    setFilter(next);
  };
  // A preset brings its own columns: a choice made before it is dropped.
  const setPreset = (preset: Preset | undefined) => {
    const next: ExplorerFilter = { ...filter };
    delete next.columns;
    if (preset) next.preset = preset;
    else delete next.preset;
    setFilter(next);
  };
  const setColumns = (chosen: ColumnKey[] | undefined) => {
    const next: ExplorerFilter = { ...filter };
    if (chosen) next.columns = chosen;
    else delete next.columns;
    setFilter(next);
  };
  const sortBy = (column: SortColumn) =>
    setFilter({ ...filter, sort: { column, dir: filter.sort.column === column && filter.sort.dir === 'asc' ? 'desc' : 'asc' } });

  // The runtime filter is the `type` filter with a runtime's types (so a runtime's view is a link too),
  // shown once the log holds another runtime's receipts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `version` (which changes when its rows or verdicts do) is the dependency that matters
  const types = useMemo(() => (store ? store.facet('type').map((f) => f.value) : []), [store, version]);
  const runtimes = RUNTIMES.filter((r) => r.types.some((t) => types.includes(t)));
  const mixed = runtimes.some((r) => r.id !== 'chio');
  const typesOf = (r: Runtime) => r.types.filter((t) => types.includes(t));
  const typeFilter = [...(filter.values.type ?? [])].sort().join(',');
  const setRuntime = (r: Runtime | null) => {
    const values = { ...filter.values };
    if (r) values.type = typesOf(r);
    else delete values.type;
    setFilter({ ...filter, values });
  };
  // Columns are sized to the rows of the preset (a finance view to the receipts with a cost).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `widthVersion` (which changes when its rows or verdicts do) is the dependency that matters, in coarser steps
  const sizeRows = useMemo(
    () => (store && filter.preset ? filterRows(store, { ...EMPTY_FILTER, preset: filter.preset }) : undefined),
    [store, filter.preset, widthVersion],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `version` (which changes when its rows or verdicts do) is the dependency that matters
  const copies = useMemo(() => (store ? hasCopies(store, manySources(store)) : false), [store, version]);
  const columns = useMemo(
    () =>
      shownColumns({
        ...(filter.columns ? { chosen: filter.columns } : {}),
        ...(filter.preset ? { preset: filter.preset } : {}),
        mixed,
        copies,
        ...(filter.values.type ? { types: filter.values.type } : {}),
      }),
    [filter.columns, filter.preset, mixed, copies, filter.values.type],
  );

  if (!store) return null;
  // After a reload that could not reopen picked files: no log, and no other log's rows under this filter.
  if (session.status === 'idle' && lost)
    return (
      <p role="status" data-testid="explorer-no-log">
        No log is open: the one this tab had cannot be reopened after a reload (see above). The filter stays in the address for when it is.
      </p>
    );
  const running = session.status === 'running';
  const unreadable = session.status === 'done' ? (session.report.summary.unreadable ?? 0) : 0;
  return (
    <section className="explorer">
      <div className="picker-row explorer-presets" role="group" aria-label="Reader presets">
        <button
          type="button"
          className={`button${filter.preset ? '' : ' active'}`}
          aria-pressed={!filter.preset}
          onClick={() => setPreset(undefined)}
          data-testid="preset-all"
        >
          All
        </button>
        {(Object.keys(PRESETS) as Preset[]).map((p) => (
          <button
            key={p}
            type="button"
            title={PRESETS[p].description}
            className={`button${filter.preset === p ? ' active' : ''}`}
            aria-pressed={filter.preset === p}
            data-testid={`preset-${p}`}
            onClick={() => setPreset(p)}
          >
            {PRESETS[p].label}
          </button>
        ))}
        <span className="muted explorer-preset-note" data-testid="preset-description">
          {filter.preset ? `${PRESETS[filter.preset].description}.` : 'Every receipt of the log.'}
        </span>
      </div>
      <div className="explorer-toolbar">
        <SearchBox q={filter.q} onSearch={setSearch} />
        <FilterPicker store={store} filter={filter} rows={visible} version={version} onAdd={addValue} />
        <TimeRange since={filter.since} until={filter.until} onChange={setBound} />
      </div>
      {mixed && (
        <div className="picker-row" role="group" aria-labelledby="runtime-filter-label" data-testid="runtime-filter">
          <span className="muted" id="runtime-filter-label">
            Runtime:
          </span>
          <button
            type="button"
            className={`button${typeFilter === '' ? ' active' : ''}`}
            aria-pressed={typeFilter === ''}
            data-testid="runtime-all"
            onClick={() => setRuntime(null)}
          >
            All
          </button>
          {runtimes.map((r) => {
            const on = typeFilter === [...typesOf(r)].sort().join(',');
            return (
              <button
                key={r.id}
                type="button"
                className={`button${on ? ' active' : ''}`}
                aria-pressed={on}
                data-testid={`runtime-${r.id}`}
                onClick={() => setRuntime(r)}
              >
                {r.label}
              </button>
            );
          })}
        </div>
      )}
      <FilterChips filter={filter} onChange={setFilter} />
      <div className="explorer-status">
        <p className="muted" data-testid="explorer-count">
          {visible.length.toLocaleString('en-US')} of {store.length.toLocaleString('en-US')} receipts
          {unreadable > 0
            ? `; ${unreadable.toLocaleString('en-US')} ${unreadable === 1 ? 'record' : 'records'} of the log could not be read and ${unreadable === 1 ? 'is' : 'are'} not listed (see the overview)`
            : ''}
          {running ? ' (still verifying: a receipt whose own checks fail shows failed at once, the other verdicts when the whole log is checked)' : ''}
        </p>
        <ColumnChooser shown={columns} chosen={filter.columns !== undefined} preset={filter.preset !== undefined} onChange={setColumns} />
        <ExportButtons store={store} rows={visible} />
      </div>
      {session.status === 'done' && <UnpinnedNotice keys={session.report.keys.map((k) => k.key)} count={store.countVerdict('unpinned')} />}
      {visible.length === 0 && store.length > 0 ? (
        <EmptyState filter={filter} onChange={setFilter} still={running} />
      ) : (
        <ReceiptTable
          store={store}
          rows={visible}
          sort={filter.sort}
          onSort={sortBy}
          columns={columns}
          {...(sizeRows ? { sizeRows } : {})}
          version={widthVersion}
        />
      )}
    </section>
  );
}
