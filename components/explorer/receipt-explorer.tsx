'use client';
// The receipts explorer: presets, search, per-field filters, sortable columns
// and a virtualized table that stays smooth at a million rows; the filter is
// the URL (a filtered view is a link). Keyboard: ↑/↓ (j/k) move, PgUp/PgDn,
// Home/End, Enter opens the receipt. Each row opens its own copy of the receipt
// (source, file and line: one id can name several receipts of a log).
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PROBLEM_CODES } from '../../lib/verify/problems';
import { RUNTIMES, type Runtime, isOtherRuntime, runtimeOf } from '../../lib/query/runtimes';
import { type ExplorerFilter, PRESETS, type Preset, type SortColumn, type ValueFilter, filterFromParams, filterRows, filterToParams, warmSearch, warmSorts } from '../../lib/query/explorer-filter';
import { type RowStore, type RowVerdict, type StringColumn, VERDICT_LABEL } from '../../lib/query/row-store';
import { UnpinnedNotice } from '../trust/unpinned-notice';
import { type WindowGeometry, offsetAt, offsetShowing, scrollHeight, scrollTopFor, visibleRows } from '../../lib/query/row-window';
import { useLog } from '../data/log-provider';
import { manySources, rowUrl } from '../../lib/query/receipt-address';
import { useReplaceQuery } from '../data/use-replace-query';
import { revealPlain } from '../../lib/text/reveal';
import { SafeText } from '../ui/safe-text';
import { formatAmount, formatTime } from './format';

interface Column {
  key: SortColumn | 'runtime' | 'where';
  label: string;
  width: string;
}

const COLUMNS: Column[] = [
  { key: 'time', label: 'time (UTC)', width: '11rem' },
  { key: 'toolServer', label: 'tool server', width: '9rem' },
  { key: 'toolName', label: 'tool', width: '9rem' },
  { key: 'decision', label: 'decision', width: '6.5rem' },
  { key: 'guard', label: 'blocking guard', width: '9rem' },
  { key: 'cost', label: 'cost', width: '7rem' },
  { key: 'settlement', label: 'settlement', width: '6.5rem' },
  { key: 'tenant', label: 'tenant', width: '7rem' },
  { key: 'verdict', label: 'verdict', width: '10.5rem' },
  { key: 'where', label: 'read at', width: '12rem' },
];

/** Whose receipt a row is: a column of its own once the log mixes runtimes (not a sort order). */
const RUNTIME_COLUMN: Column = { key: 'runtime', label: 'runtime', width: '6.5rem' };

/**
 * The explorer narrowed to ZeroClaw or CodeWhale receipts: tool server, guard, cost, settlement and
 * tenant are Chio's and always empty there, so their room goes to the tool and the decision (a
 * review's target, CodeWhale's --check-receipt status, a turn's status).
 */
const OTHER_RUNTIME_COLUMNS: Column[] = [COLUMNS[0]!, RUNTIME_COLUMN, { key: 'toolName', label: 'tool', width: '22rem' }, { key: 'decision', label: 'decision or status', width: '12rem' }, COLUMNS[8]!, COLUMNS[9]!];

/** Columns that do not sort. */
const UNSORTED = new Set<Column['key']>(['runtime', 'where']);

const FACETS: { key: ValueFilter; label: string }[] = [
  { key: 'verdict', label: 'verdict' },
  { key: 'decision', label: 'decision' },
  { key: 'toolServer', label: 'tool server' },
  { key: 'toolName', label: 'tool' },
  { key: 'guard', label: 'blocking guard' },
  { key: 'guardFailed', label: 'failed guard (evidence)' },
  { key: 'settlement', label: 'settlement' },
  { key: 'currency', label: 'currency' },
  { key: 'tenant', label: 'tenant' },
  { key: 'type', label: 'type' },
  { key: 'generation', label: 'generation' },
  { key: 'receiptKind', label: 'Gen B kind' },
  { key: 'boundaryClass', label: 'Gen B boundary' },
  { key: 'trustLevel', label: 'trust level' },
  { key: 'capabilityId', label: 'capability' },
  { key: 'grantIndex', label: 'grant' },
  { key: 'rootBudgetHolder', label: 'budget holder' },
  { key: 'policyHash', label: 'policy hash' },
  { key: 'kernelKey', label: 'signer' },
  { key: 'source', label: 'source' },
  { key: 'file', label: 'file' },
  { key: 'problem', label: 'problem' },
];

function facetValues(store: RowStore, key: ValueFilter): string[] {
  if (key === 'verdict') return ['verified', 'unpinned', 'failed', 'unverified', 'pending'];
  if (key === 'problem') return [...PROBLEM_CODES];
  return store.facet(key as StringColumn).map((f) => f.value).slice(0, 200);
}

export function ReceiptExplorer() {
  const { session, rows, ensureOpen } = useLog();
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
  const visible = useMemo(() => (store ? filterRows(store, filter) : new Uint32Array()), [store, filter, version]); // eslint-disable-line react-hooks/exhaustive-deps
  // The menus scan every row once per column: only when the rows change, not per keystroke or filter.
  const facets = useMemo(() => (store ? FACETS.map((f) => ({ ...f, values: facetValues(store, f.key) })) : []), [store, version]); // eslint-disable-line react-hooks/exhaustive-deps
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
  const [search, setSearch] = useState(filter.q ?? '');
  useEffect(() => setSearch(filter.q ?? ''), [filter.q]);

  const setValue = (key: ValueFilter, value: string) => {
    if (!value) return;
    const current = filter.values[key] ?? [];
    if (current.includes(value)) return;
    setFilter({ ...filter, values: { ...filter.values, [key]: [...current, value] } });
  };
  const removeValue = (key: ValueFilter, value: string) => {
    const rest = (filter.values[key] ?? []).filter((v) => v !== value);
    const values = { ...filter.values };
    if (rest.length) values[key] = rest;
    else delete values[key];
    setFilter({ ...filter, values });
  };
  const setPreset = (preset: Preset | undefined) => {
    const next: ExplorerFilter = { ...filter };
    if (preset) next.preset = preset;
    else delete next.preset;
    setFilter(next);
  };
  const sortBy = (column: SortColumn) =>
    setFilter({ ...filter, sort: { column, dir: filter.sort.column === column && filter.sort.dir === 'asc' ? 'desc' : 'asc' } });

  // The runtime filter is the `type` filter with a runtime's types (so a runtime's view is a link too),
  // shown once the log holds another runtime's receipts.
  const types = facets.find((f) => f.key === 'type')?.values ?? [];
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

  if (!store) return null;
  const chips = Object.entries(filter.values).flatMap(([k, vs]) => (vs ?? []).map((v) => [k as ValueFilter, v] as const));
  return (
    <section className="explorer">
      <div className="picker-row" role="group" aria-label="Reader presets">
        <button type="button" className={`button${filter.preset ? '' : ' active'}`} onClick={() => setPreset(undefined)}>
          All
        </button>
        {(Object.keys(PRESETS) as Preset[]).map((p) => (
          <button key={p} type="button" title={PRESETS[p]} className={`button${filter.preset === p ? ' active' : ''}`} data-testid={`preset-${p}`} onClick={() => setPreset(p)}>
            {p[0]!.toUpperCase() + p.slice(1)}
          </button>
        ))}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const next: ExplorerFilter = { ...filter };
            if (search.trim()) next.q = search.trim();
            else delete next.q;
            setFilter(next);
          }}
        >
          <input type="search" aria-label="Search receipts" placeholder="search id, tool, guard, capability…" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="explorer-search" />
        </form>
        <select aria-label="Add a filter" value="" data-testid="explorer-add-filter" onChange={(e) => {
          const [k, ...v] = e.target.value.split('\u0000');
          if (k) setValue(k as ValueFilter, v.join('\u0000'));
        }}>
          <option value="">filter by…</option>
          {facets.map((f) => (
            <optgroup key={f.key} label={f.label}>
              {f.values.map((v) => (
                <option key={v} value={`${f.key}\u0000${v}`}>
                  {f.key === 'verdict' ? VERDICT_LABEL[v as RowVerdict] : revealPlain(v, 80)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      {mixed && (
        <div className="picker-row" role="group" aria-labelledby="runtime-filter-label" data-testid="runtime-filter">
          <span className="muted" id="runtime-filter-label">Runtime:</span>
          <button type="button" className={`button${typeFilter === '' ? ' active' : ''}`} aria-pressed={typeFilter === ''} data-testid="runtime-all" onClick={() => setRuntime(null)}>
            All
          </button>
          {runtimes.map((r) => {
            const on = typeFilter === [...typesOf(r)].sort().join(',');
            return (
              <button key={r.id} type="button" className={`button${on ? ' active' : ''}`} aria-pressed={on} data-testid={`runtime-${r.id}`} onClick={() => setRuntime(r)}>
                {r.label}
              </button>
            );
          })}
        </div>
      )}
      {chips.length > 0 && (
        <p className="chips">
          {chips.map(([k, v]) => (
            <button key={`${k}=${v}`} type="button" className="chip" onClick={() => removeValue(k, v)} aria-label={`remove filter ${k} = ${revealPlain(v, 80)}`}>
              {k} = <SafeText text={k === 'verdict' ? (VERDICT_LABEL[v as RowVerdict] ?? v) : v} max={80} expandable={false} /> ×
            </button>
          ))}
        </p>
      )}
      <p className="muted" data-testid="explorer-count">
        {visible.length.toLocaleString('en-US')} of {store.length.toLocaleString('en-US')} receipts
        {session.status === 'running' ? ' (still verifying: a receipt whose own checks fail shows failed at once, the other verdicts when the whole log is checked)' : ''}
      </p>
      {session.status === 'done' && <UnpinnedNotice keys={session.report.keys.map((k) => k.key)} count={store.countVerdict('unpinned')} />}
      <ReceiptTable store={store} rows={visible} sort={filter.sort} onSort={sortBy} columns={columnsFor(mixed, filter.values.type)} />
    </section>
  );
}

const ROW_HEIGHT = 32;

/** A cell of a row (itself a link): receipt text revealed and clipped, no "show all" inside the link. */
const Cell = ({ text }: { text: string }) => <SafeText text={text} max={60} expandable={false} />;

/**
 * The window of rows on screen (lib/query/row-window.ts): fixed-height rows,
 * nothing measured per row, and a scroll range mapped onto the rows when they
 * would be taller than a browser lets an element be (a million rows are).
 */
function useRowWindow(count: number) {
  const parent = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(600);
  // The spacer's scrollTop and the rows' own offset shown there (set exactly when we scroll to a row).
  const [at, setAt] = useState({ top: 0, offset: 0 });
  const expected = useRef<{ top: number; offset: number } | null>(null);
  const g: WindowGeometry = useMemo(() => ({ count, rowHeight: ROW_HEIGHT, viewport }), [count, viewport]);
  useEffect(() => {
    const el = parent.current;
    if (!el) return;
    const resize = new ResizeObserver(() => setViewport(el.clientHeight || 600));
    resize.observe(el);
    return () => resize.disconnect();
  }, []);
  // A new row count (a filter) keeps the scroll position, re-read against the new rows.
  useEffect(() => {
    const top = parent.current?.scrollTop ?? 0;
    setAt({ top, offset: offsetAt(g, top) });
  }, [g]);
  const onScroll = useCallback(() => {
    const top = parent.current?.scrollTop ?? 0;
    const e = expected.current;
    expected.current = null;
    setAt({ top, offset: e && Math.abs(e.top - top) < 1 ? e.offset : offsetAt(g, top) });
  }, [g]);
  const scrollToIndex = (index: number) => {
    const el = parent.current;
    if (!el) return;
    const offset = offsetShowing(g, at.offset, index);
    const top = scrollTopFor(g, offset);
    expected.current = { top, offset };
    el.scrollTop = top;
    setAt({ top: el.scrollTop, offset });
  };
  return { parent, onScroll, scrollToIndex, height: scrollHeight(g), rows: visibleRows(g, at.offset, at.top, 10) };
}

/** Where a row was read: `file:line`, then its source when the log has several and the file does not name it. */
function whereOf(store: RowStore, row: number, many: boolean): string {
  const file = store.str('file', row) ?? '?';
  const source = store.str('source', row);
  return `${file}:${store.line[row]}${many && source !== undefined && source !== file ? ` in ${source}` : ''}`;
}

/** The decision classes the stylesheet colours; any other value (a CodeWhale turn's status is the receipt's own text) gets none. */
const DECISION_CLASSES = new Set(['allow', 'deny']);

/** The table's columns: Chio's; with the runtime once the log mixes runtimes; other runtimes' own when only theirs are shown. */
function columnsFor(mixed: boolean, types: readonly string[] | undefined): Column[] {
  if (!mixed) return COLUMNS;
  if (types && types.length > 0 && types.every(isOtherRuntime)) return OTHER_RUNTIME_COLUMNS;
  return [COLUMNS[0]!, RUNTIME_COLUMN, ...COLUMNS.slice(1)];
}

function ReceiptTable({ store, rows, sort, onSort, columns }: { store: RowStore; rows: Uint32Array; sort: ExplorerFilter['sort']; onSort: (c: SortColumn) => void; columns: Column[] }) {
  const router = useRouter();
  const [active, setActive] = useState(0);
  // Where a row was read: its source too once the log has several (two packages both have receipts.ndjson).
  const many = manySources(store);
  const view = useRowWindow(rows.length);
  const parent = view.parent;
  useEffect(() => setActive((a) => Math.min(a, Math.max(0, rows.length - 1))), [rows.length]);
  const move = (to: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setActive(next);
    view.scrollToIndex(next);
  };
  const onKey = (e: KeyboardEvent) => {
    const page = Math.max(1, Math.floor((parent.current?.clientHeight ?? 320) / 32) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(active + 1),
      j: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      k: () => move(active - 1),
      PageDown: () => move(active + page),
      PageUp: () => move(active - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      Enter: () => {
        const row = rows[active];
        if (row !== undefined) router.push(rowUrl(store, row));
      },
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };
  return (
    <div className="table" role="grid" aria-rowcount={rows.length} aria-label="Receipts" tabIndex={0} onKeyDown={onKey} data-testid="receipt-table">
      <div className="thead" role="row">
        {columns.map((c) =>
          UNSORTED.has(c.key) ? (
            <span key={c.key} role="columnheader" style={{ width: c.width }}>
              {c.label}
            </span>
          ) : (
            <button key={c.key} type="button" role="columnheader" style={{ width: c.width }} onClick={() => onSort(c.key as SortColumn)} aria-sort={sort.column === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
              {c.label}
              {sort.column === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
            </button>
          ),
        )}
      </div>
      <div ref={parent} className="tbody" onScroll={view.onScroll} data-sources={many ? 'many' : 'one'}>
        <div style={{ height: view.height, position: 'relative' }}>
          {view.rows.map((item) => {
            const row = rows[item.index]!;
            const id = store.str('id', row)!;
            const verdict = store.verdictOf(row);
            const cost = store.hasCost[row] ? formatAmount(store.cost[row]!, store.str('currency', row)) : store.str('attemptedCost', row) ? `(${store.str('attemptedCost', row)} refused)` : '';
            const decision = store.str('decision', row);
            const runtime = runtimeOf(store.str('type', row));
            // What each column shows for this row (only the columns of the table are rendered).
            const cells: Partial<Record<Column['key'], () => ReactNode>> = {
              time: () => formatTime(store.time[row]!),
              runtime: () => <span className={`runtime-badge ${runtime?.id ?? ''}`}>{runtime?.label ?? store.str('type', row) ?? '—'}</span>,
              toolServer: () => <Cell text={store.str('toolServer', row) ?? '—'} />,
              toolName: () => <Cell text={store.str('toolName', row) ?? store.str('operationKind', row) ?? '—'} />,
              decision: () => <Cell text={decision ?? store.str('receiptKind', row) ?? '—'} />,
              guard: () => <Cell text={store.str('guard', row) ?? ''} />,
              cost: () => <Cell text={cost} />,
              settlement: () => store.str('settlement', row) ?? '',
              tenant: () => <Cell text={store.str('tenant', row) ?? ''} />,
              verdict: () => VERDICT_LABEL[verdict],
              where: () => <Cell text={whereOf(store, row, many)} />,
            };
            const classOf: Partial<Record<Column['key'], string>> = {
              decision: `decision${decision !== undefined && DECISION_CLASSES.has(decision) ? ` ${decision}` : ''}`,
              cost: 'num',
              verdict: `verdict ${verdict}`,
            };
            return (
              <Link
                key={item.index}
                href={rowUrl(store, row)}
                // Rows stream past by the thousand: no route prefetch per row shown.
                prefetch={false}
                role="row"
                aria-rowindex={item.index + 1}
                aria-selected={item.index === active}
                className={`tr${item.index === active ? ' active' : ''}`}
                style={{ transform: `translateY(${item.top}px)` }}
                data-receipt-id={id}
                data-verdict={verdict}
                tabIndex={-1}
                onFocus={() => setActive(item.index)}
              >
                {columns.map((c) => (
                  <span key={c.key} role="gridcell" style={{ width: c.width }} className={classOf[c.key]} {...(c.key === 'runtime' ? { 'data-runtime': runtime?.id ?? '' } : c.key === 'where' ? { title: whereOf(store, row, many) } : {})}>
                    {cells[c.key]?.()}
                  </span>
                ))}
              </Link>
            );
          })}
        </div>
      </div>
    </div>
  );
}
