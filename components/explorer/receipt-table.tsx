'use client';
// The explorer's table: a virtualized grid that stays smooth at a million rows
// (only the rows on screen exist), columns sized to their content over the
// whole log (lib/query/explorer-cells.ts, lib/query/column-fit.ts), a header
// that scrolls sideways with the body, and the keyboard: ↑/↓ (j/k) move,
// PgUp/PgDn, Home/End, ←/→ scroll sideways, Enter opens the receipt. Each row
// opens its own copy of the receipt (source, file and line: one id can name
// several receipts of a log).
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type KeyboardEvent, type ReactNode, type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { fitColumns } from '../../lib/query/column-fit';
import { type ColumnKey, columnLabel } from '../../lib/query/explorer-columns';
import { CELL_MAX_CHARS, cellText, widthSamples } from '../../lib/query/explorer-cells';
import type { ExplorerFilter, SortColumn } from '../../lib/query/explorer-filter';
import { manySources, rowUrl } from '../../lib/query/receipt-address';
import type { RowStore } from '../../lib/query/row-store';
import { type WindowGeometry, offsetAt, offsetShowing, scrollHeight, scrollTopFor, visibleRows } from '../../lib/query/row-window';
import { runtimeOf } from '../../lib/query/runtimes';
import { SafeText } from '../ui/safe-text';

/** The sort each column's header sets; the others do not sort. */
const SORT_OF: Partial<Record<ColumnKey, SortColumn>> = {
  time: 'time',
  id: 'id',
  toolServer: 'toolServer',
  toolName: 'toolName',
  decision: 'decision',
  guard: 'guard',
  cost: 'cost',
  settlement: 'settlement',
  tenant: 'tenant',
  capabilityId: 'capabilityId',
  policyHash: 'policyHash',
  trustLevel: 'trustLevel',
  kernelKey: 'kernelKey',
  verdict: 'verdict',
};

/** Identifiers and hashes, read character by character: monospace (the stylesheet's .mono). */
const MONO = new Set<ColumnKey>(['id', 'policyHash', 'kernelKey', 'capabilityId']);
/** Cells the stylesheet may set in bold (a denial, a failed verdict): measured bold. */
const BOLD = new Set<ColumnKey>(['decision', 'verdict']);
const MONO_FAMILY = 'ui-monospace, SFMono-Regular, Menlo, monospace';
/** Widest a column gets while the table is short of room (rem); past it, its text is cut with an ellipsis. */
const CAP_REM: Partial<Record<ColumnKey, number>> = {
  time: Infinity,
  cost: 24,
  verdict: Infinity,
  id: 18,
  capabilityId: 18,
  where: 22,
  problems: 20,
  policyHash: 10,
  kernelKey: 10,
};
const DEFAULT_CAP_REM = 16;

const ROW_HEIGHT = 32;

/** A cell of a row (itself a link): receipt text revealed and clipped, no "show all" inside the link. */
const Cell = ({ text }: { text: string }) => <SafeText text={text} max={CELL_MAX_CHARS} expandable={false} />;

/** The decision classes the stylesheet colours; any other value (a CodeWhale turn's status is the receipt's own text) gets none. */
const DECISION_CLASSES = new Set(['allow', 'deny']);

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
    // A sideways scroll leaves the rows as they are.
    setAt((prev) => (prev.top === top && !e ? prev : { top, offset: e && Math.abs(e.top - top) < 1 ? e.offset : offsetAt(g, top) }));
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

/**
 * Pixel widths of the columns: each column's widest text over the whole log, measured in the
 * table's own font (a canvas, no layout), fitted to the table's box. Before the first measure
 * (the server's render), an estimate from the texts' lengths.
 */
function useColumnWidths(
  store: RowStore,
  columns: readonly ColumnKey[],
  many: boolean,
  sizeRows: Uint32Array | undefined,
  version: string,
  table: RefObject<HTMLDivElement | null>,
  body: RefObject<HTMLDivElement | null>,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `version` (which changes when its rows or verdicts do) is the dependency that matters
  const samples = useMemo(() => columns.map((k) => widthSamples(store, k, many, sizeRows)), [store, columns, many, sizeRows, version]);
  const [box, setBox] = useState({ available: 0, rem: 16, font: '' });
  useLayoutEffect(() => {
    const el = table.current;
    if (!el) return;
    const read = () => {
      const s = getComputedStyle(el);
      const gutter = body.current ? body.current.offsetWidth - body.current.clientWidth : 0;
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      setBox({ available: Math.max(0, el.clientWidth - gutter), rem, font: `${s.fontSize}|${s.fontFamily}` });
    };
    read();
    const resize = new ResizeObserver(read);
    resize.observe(el);
    return () => resize.disconnect();
  }, [table, body]);
  return useMemo(() => {
    const [size = '14px', family = 'sans-serif'] = box.font.split('|');
    const ctx = box.font && typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
    const measure = (text: string, mono: boolean, bold: boolean) => {
      if (!ctx) return text.length * (mono ? 8.5 : 7.5);
      ctx.font = `${bold ? 600 : 400} ${size} ${mono ? MONO_FAMILY : family}`;
      return ctx.measureText(text).width;
    };
    const pad = box.rem; // 0.5rem on each side (.tr > span, .thead button)
    const natural = columns.map((k, i) => {
      const header = measure(`${columnLabel(k, columns)} ▲`, false, true);
      const widest = Math.max(0, ...samples[i]!.map((t) => measure(t, MONO.has(k), BOLD.has(k))));
      return Math.ceil(Math.max(header, widest) + pad + 2);
    });
    const caps = columns.map((k) => (CAP_REM[k] ?? DEFAULT_CAP_REM) * box.rem);
    const widths = fitColumns(natural, caps, box.available);
    return { widths, rowWidth: widths.reduce((a, b) => a + b, 0) };
  }, [samples, columns, box]);
}

export interface ReceiptTableProps {
  store: RowStore;
  rows: Uint32Array;
  sort: ExplorerFilter['sort'];
  onSort: (c: SortColumn) => void;
  columns: readonly ColumnKey[];
  /**
   * The rows whose content sizes the columns: the preset's (absent: the whole log). Not the
   * filtered rows, so that columns hold still while the reader searches and filters.
   */
  sizeRows?: Uint32Array;
  /** Changes when the rows or their verdicts do (the column widths follow). */
  version: string;
}

export function ReceiptTable({ store, rows, sort, onSort, columns, sizeRows, version }: ReceiptTableProps) {
  const router = useRouter();
  const [active, setActive] = useState(0);
  // Where a row was read: its source too once the log has several (two packages both have receipts.ndjson).
  const many = manySources(store);
  const view = useRowWindow(rows.length);
  const parent = view.parent;
  const table = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const { widths, rowWidth } = useColumnWidths(store, columns, many, sizeRows, version, table, parent);
  useEffect(() => setActive((a) => Math.min(a, Math.max(0, rows.length - 1))), [rows.length]);
  const move = (to: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setActive(next);
    view.scrollToIndex(next);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget && (e.target as HTMLElement).closest('.thead')) return; // a header's own keys (Enter sorts)
    const page = Math.max(1, Math.floor((parent.current?.clientHeight ?? 320) / ROW_HEIGHT) - 1);
    const sideways = (dx: number) => parent.current?.scrollBy({ left: dx });
    // Key names as map entries: as object properties (`Home: () => …`) they read as components to the linter.
    const keys = new Map<string, () => void>([
      ['ArrowDown', () => move(active + 1)],
      ['j', () => move(active + 1)],
      ['ArrowUp', () => move(active - 1)],
      ['k', () => move(active - 1)],
      ['PageDown', () => move(active + page)],
      ['PageUp', () => move(active - page)],
      ['Home', () => move(0)],
      ['End', () => move(rows.length - 1)],
      ['ArrowRight', () => sideways(120)],
      ['ArrowLeft', () => sideways(-120)],
      [
        'Enter',
        () => {
          const row = rows[active];
          if (row !== undefined) router.push(rowUrl(store, row));
        },
      ],
    ]);
    const action = keys.get(e.key);
    if (action && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      action();
    }
  };
  // The header follows the body sideways, and the body the header (a header focused by Tab scrolls it).
  const syncFromBody = () => {
    view.onScroll();
    if (head.current && parent.current && head.current.scrollLeft !== parent.current.scrollLeft) head.current.scrollLeft = parent.current.scrollLeft;
  };
  const syncFromHead = () => {
    if (head.current && parent.current && head.current.scrollLeft !== parent.current.scrollLeft) parent.current.scrollLeft = head.current.scrollLeft;
  };
  const cellStyle = (i: number) => ({ width: widths[i], flex: `0 0 ${widths[i]}px` });
  return (
    <div
      ref={table}
      className="table"
      role="grid"
      aria-rowcount={rows.length}
      aria-colcount={columns.length}
      aria-label="Receipts"
      tabIndex={0}
      onKeyDown={onKey}
      data-testid="receipt-table"
    >
      <div ref={head} className="thead" role="row" onScroll={syncFromHead}>
        {columns.map((c, i) => {
          const by = SORT_OF[c];
          const label = columnLabel(c, columns);
          // A header cell holds its sort button (a button may not be a column header itself).
          return (
            <span
              key={c}
              role="columnheader"
              style={cellStyle(i)}
              data-col={c}
              aria-sort={by === undefined ? undefined : sort.column === by ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              {by === undefined ? (
                <span className="th-label">{label}</span>
              ) : (
                <button type="button" onClick={() => onSort(by)}>
                  {label}
                  {sort.column === by ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
              )}
            </span>
          );
        })}
      </div>
      <div ref={parent} className="tbody" onScroll={syncFromBody} data-sources={many ? 'many' : 'one'}>
        <div style={{ height: view.height, position: 'relative', width: rowWidth }}>
          {view.rows.map((item) => {
            const row = rows[item.index]!;
            const id = store.str('id', row)!;
            const verdict = store.verdictOf(row);
            const decision = store.str('decision', row);
            const runtime = runtimeOf(store.str('type', row));
            const text = (k: ColumnKey) => cellText(store, row, k, many);
            // Cells that are more than their text; the others show their text, revealed and clipped.
            const special: Partial<Record<ColumnKey, () => ReactNode>> = {
              time: () => text('time'),
              runtime: () => <span className={`runtime-badge ${runtime?.id ?? ''}`}>{text('runtime')}</span>,
              settlement: () => text('settlement'),
              verdict: () => text('verdict'),
            };
            const classOf: Partial<Record<ColumnKey, string>> = {
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
                {columns.map((c, i) => (
                  <span
                    key={c}
                    role="gridcell"
                    style={cellStyle(i)}
                    data-col={c}
                    className={[classOf[c], MONO.has(c) ? 'mono' : ''].filter(Boolean).join(' ') || undefined}
                    {...(c === 'runtime'
                      ? { 'data-runtime': runtime?.id ?? '' }
                      : c === 'where'
                        ? { title: text('where') }
                        : (c === 'id' || c === 'capabilityId') && text(c) !== (store.str(c, row) ?? '')
                          ? { title: store.str(c, row) }
                          : {})}
                  >
                    {special[c] ? special[c]() : <Cell text={text(c)} />}
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
