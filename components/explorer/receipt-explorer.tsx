'use client';
// The receipts explorer: presets, search, per-field filters, sortable columns
// and a virtualized table that stays smooth at a million rows; the filter is
// the URL (a filtered view is a link). Keyboard: ↑/↓ (j/k) move, PgUp/PgDn,
// Home/End, Enter opens the receipt.
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PROBLEM_CODES } from '../../lib/verify/problems';
import { type ExplorerFilter, PRESETS, type Preset, type SortColumn, type ValueFilter, filterFromParams, filterRows, filterToParams, warmSearch, warmSorts } from '../../lib/query/explorer-filter';
import type { RowStore, StringColumn } from '../../lib/query/row-store';
import { type WindowGeometry, offsetAt, offsetShowing, scrollHeight, scrollTopFor, visibleRows } from '../../lib/query/row-window';
import { useLog } from '../data/log-provider';
import { useReplaceQuery } from '../data/use-replace-query';
import { revealPlain } from '../../lib/text/reveal';
import { SafeText } from '../ui/safe-text';
import { formatAmount, formatTime } from './format';

const COLUMNS: { key: SortColumn | 'cost'; label: string; width: string }[] = [
  { key: 'time', label: 'time (UTC)', width: '11rem' },
  { key: 'toolServer', label: 'tool server', width: '9rem' },
  { key: 'toolName', label: 'tool', width: '9rem' },
  { key: 'decision', label: 'decision', width: '6.5rem' },
  { key: 'guard', label: 'blocking guard', width: '9rem' },
  { key: 'cost', label: 'cost', width: '7rem' },
  { key: 'settlement', label: 'settlement', width: '6.5rem' },
  { key: 'tenant', label: 'tenant', width: '7rem' },
  { key: 'verdict', label: 'verdict', width: '6rem' },
];

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
  { key: 'problem', label: 'problem' },
];

/** Receipt types by runtime: the explorer filters by runtime through the `type` filter (so a runtime's view is a link too). */
export const RUNTIMES: { label: string; types: string[] }[] = [
  { label: 'Chio', types: ['tool', 'child', 'http'] },
  { label: 'ZeroClaw', types: ['zeroclaw'] },
  { label: 'CodeWhale', types: ['codewhale-review', 'codewhale-turn'] },
];

function facetValues(store: RowStore, key: ValueFilter): string[] {
  if (key === 'verdict') return ['verified', 'failed', 'unverified', 'pending'];
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

  const types = facets.find((f) => f.key === 'type')?.values ?? [];
  const runtimes = RUNTIMES.filter((r) => r.types.some((t) => types.includes(t)));
  const typeFilter = [...(filter.values.type ?? [])].sort().join(',');
  const setRuntime = (r: (typeof RUNTIMES)[number] | null) => {
    const values = { ...filter.values };
    if (r) values.type = r.types.filter((t) => types.includes(t));
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
                  {revealPlain(v, 80)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      {runtimes.length > 1 || runtimes.some((r) => r.label !== 'Chio') ? (
        <div className="picker-row" role="group" aria-label="Runtime" data-testid="runtime-filter">
          <span className="muted">Runtime:</span>
          <button type="button" className={`button${typeFilter === '' ? ' active' : ''}`} onClick={() => setRuntime(null)}>
            all
          </button>
          {runtimes.map((r) => (
            <button
              key={r.label}
              type="button"
              className={`button${typeFilter === r.types.filter((t) => types.includes(t)).sort().join(',') ? ' active' : ''}`}
              data-testid={`runtime-${r.label.toLowerCase()}`}
              onClick={() => setRuntime(r)}
            >
              {r.label}
            </button>
          ))}
        </div>
      ) : null}
      {chips.length > 0 && (
        <p className="chips">
          {chips.map(([k, v]) => (
            <button key={`${k}=${v}`} type="button" className="chip" onClick={() => removeValue(k, v)} aria-label={`remove filter ${k} = ${revealPlain(v, 80)}`}>
              {k} = <SafeText text={v} max={80} expandable={false} /> ×
            </button>
          ))}
        </p>
      )}
      <p className="muted" data-testid="explorer-count">
        {visible.length.toLocaleString('en-US')} of {store.length.toLocaleString('en-US')} receipts
        {session.status === 'running' ? ' (still verifying: a receipt whose own checks fail shows failed at once, the other verdicts when the whole log is checked)' : ''}
      </p>
      <ReceiptTable store={store} rows={visible} sort={filter.sort} onSort={sortBy} />
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

function ReceiptTable({ store, rows, sort, onSort }: { store: RowStore; rows: Uint32Array; sort: ExplorerFilter['sort']; onSort: (c: SortColumn) => void }) {
  const router = useRouter();
  const [active, setActive] = useState(0);
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
        if (row !== undefined) router.push(`/receipts/${encodeURIComponent(store.str('id', row)!)}`);
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
        {COLUMNS.map((c) => (
          <button key={c.key} type="button" role="columnheader" style={{ width: c.width }} onClick={() => onSort(c.key as SortColumn)} aria-sort={sort.column === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
            {c.label}
            {sort.column === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
          </button>
        ))}
      </div>
      <div ref={parent} className="tbody" onScroll={view.onScroll}>
        <div style={{ height: view.height, position: 'relative' }}>
          {view.rows.map((item) => {
            const row = rows[item.index]!;
            const id = store.str('id', row)!;
            const verdict = store.verdictOf(row);
            const cost = store.hasCost[row] ? formatAmount(store.cost[row]!, store.str('currency', row)) : store.str('attemptedCost', row) ? `(${store.str('attemptedCost', row)} refused)` : '';
            return (
              <Link
                key={item.index}
                href={`/receipts/${encodeURIComponent(id)}`}
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
                <span role="gridcell" style={{ width: COLUMNS[0]!.width }}>{formatTime(store.time[row]!)}</span>
                <span role="gridcell" style={{ width: COLUMNS[1]!.width }}><Cell text={store.str('toolServer', row) ?? '—'} /></span>
                <span role="gridcell" style={{ width: COLUMNS[2]!.width }}><Cell text={store.str('toolName', row) ?? store.str('operationKind', row) ?? '—'} /></span>
                <span role="gridcell" style={{ width: COLUMNS[3]!.width }} className={`decision ${store.str('decision', row) ?? ''}`}>{store.str('decision', row) ?? store.str('receiptKind', row) ?? '—'}</span>
                <span role="gridcell" style={{ width: COLUMNS[4]!.width }}><Cell text={store.str('guard', row) ?? ''} /></span>
                <span role="gridcell" style={{ width: COLUMNS[5]!.width }} className="num"><Cell text={cost} /></span>
                <span role="gridcell" style={{ width: COLUMNS[6]!.width }}>{store.str('settlement', row) ?? ''}</span>
                <span role="gridcell" style={{ width: COLUMNS[7]!.width }}><Cell text={store.str('tenant', row) ?? ''} /></span>
                <span role="gridcell" style={{ width: COLUMNS[8]!.width }} className={`verdict ${verdict}`}>{verdict}</span>
              </Link>
            );
          })}
        </div>
      </div>
    </div>
  );
}
