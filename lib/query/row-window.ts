// Which rows of a fixed-height table are on screen, for any number of rows.
// Browsers cap an element's height (Chromium at 2^25 = 33,554,432 px, Firefox
// near 17.9 million): 1,125,220 rows of 32 px is 36 million px, so with a
// plain spacer the last ~77,000 rows could never be scrolled to. Past
// MAX_SCROLL_PX the scrollbar's range is mapped linearly onto the rows' range,
// and rows are placed relative to the current scroll position. O(1) per
// scroll: nothing is measured per row. Pure.

/** The tallest spacer we create (safely under every browser's cap). */
export const MAX_SCROLL_PX = 15_000_000;

export interface WindowGeometry {
  count: number;
  rowHeight: number;
  /** The scroll box's visible height. */
  viewport: number;
}

/** The spacer's height. */
export function scrollHeight(g: WindowGeometry): number {
  return Math.min(g.count * g.rowHeight, MAX_SCROLL_PX);
}

/** The rows' own offset (0 … count·rowHeight − viewport) shown at a scrollTop. */
export function offsetAt(g: WindowGeometry, scrollTop: number): number {
  const natural = g.count * g.rowHeight;
  const room = natural - g.viewport;
  if (room <= 0) return 0;
  const height = scrollHeight(g);
  if (height === natural) return Math.min(Math.max(0, scrollTop), room);
  const track = height - g.viewport;
  return track <= 0 ? 0 : (Math.min(Math.max(0, scrollTop), track) / track) * room;
}

/** The scrollTop that shows the rows from `offset` (the inverse of offsetAt, up to rounding). */
export function scrollTopFor(g: WindowGeometry, offset: number): number {
  const natural = g.count * g.rowHeight;
  const room = natural - g.viewport;
  if (room <= 0) return 0;
  const clamped = Math.min(Math.max(0, offset), room);
  const height = scrollHeight(g);
  return height === natural ? clamped : (clamped / room) * (height - g.viewport);
}

export interface WindowRow {
  index: number;
  /** Where to place the row inside the spacer (px from its top). */
  top: number;
}

/** The rows to render at `offset` (rows' own coordinates) when the spacer is scrolled to `scrollTop`, with `overscan` rows either side. */
export function visibleRows(g: WindowGeometry, offset: number, scrollTop: number, overscan: number): WindowRow[] {
  if (g.count === 0) return [];
  const first = Math.max(0, Math.floor(offset / g.rowHeight) - overscan);
  const last = Math.min(g.count - 1, Math.ceil((offset + g.viewport) / g.rowHeight) + overscan);
  const out: WindowRow[] = [];
  // The row at `offset` sits at the top of the viewport, which is at `scrollTop` in the spacer.
  for (let i = first; i <= last; i++) out.push({ index: i, top: scrollTop + i * g.rowHeight - offset });
  return out;
}

/** The offset after moving just enough to show row `index` whole ("auto" alignment); unchanged if it is. */
export function offsetShowing(g: WindowGeometry, offset: number, index: number): number {
  const top = index * g.rowHeight;
  const bottom = top + g.rowHeight;
  if (top < offset) return top;
  if (bottom > offset + g.viewport) return Math.max(0, bottom - g.viewport);
  return offset;
}
