// Column widths for the explorer's table, from each column's content: every
// column as wide as its widest text (up to a cap, so one 100 KB value cannot
// take the table), then the room left over goes first to the columns the cap
// cut, then to all columns alike, so the table fills its box and nothing is
// clipped while there is room. Past the box, the table scrolls in it. Pure.

/**
 * Whole-pixel widths. `natural`: each column's content width; `cap`: the width past which a column
 * clips while room is short; `available`: the box's inner width. The widths add up to
 * max(available, Σ min(natural, cap)) (within a pixel per column).
 */
export function fitColumns(natural: readonly number[], cap: readonly number[], available: number): number[] {
  const w = natural.map((n, i) => Math.min(Math.max(0, n), cap[i] ?? Infinity));
  let spare = Math.max(0, available) - sum(w);
  if (spare > 0) {
    const deficit = natural.map((n, i) => Math.max(0, n - w[i]!));
    const owed = sum(deficit);
    const share = owed <= spare ? 1 : spare / owed;
    deficit.forEach((d, i) => (w[i]! += d * share));
    spare -= owed * share;
  }
  if (spare > 0 && w.length > 0) {
    const total = sum(w);
    w.forEach((x, i) => (w[i] = x + (total > 0 ? (spare * x) / total : spare / w.length)));
  }
  const out = w.map((x) => Math.floor(x));
  // What flooring took off goes to the last column, so the row fills its box exactly.
  const target = Math.floor(Math.max(sum(w), 0));
  if (out.length) out[out.length - 1]! += Math.max(0, target - sum(out));
  return out;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
