// A stable LSD radix sort of row indexes by unsigned integer keys of up to 64
// bits (two 32-bit words), 11 bits per pass (the counts stay in L1 cache),
// skipping digits above the highest key bit and passes in which every key has
// the same digit. The explorer sorts a million rows with it in a few
// passes over typed arrays, where a comparator sort took 0.2–1 s and a native
// sort of packed float keys 60–120 ms. Pure.

const DIGIT = 11;
const BUCKETS = 1 << DIGIT;
const MASK = BUCKETS - 1;

/**
 * Sorts `rows` by (hi, lo) ascending, keeping the input order among equal keys
 * (pass rows in log order to break ties by log order). `hi` may be null when
 * every key fits in 32 bits. The arrays are consumed: the result may be any of them.
 */
export function radixSortRows(rows: Uint32Array, lo: Uint32Array, hi: Uint32Array | null): Uint32Array {
  const n = rows.length;
  // Logs are mostly in time order already: sorted input (either way) needs no passes.
  const monotone = direction(lo, hi);
  if (monotone === 1) return rows;
  if (monotone === -1) return reverseRuns(rows, lo, hi);
  let r: Uint32Array = rows;
  let r2: Uint32Array = new Uint32Array(n);
  let kLo: Uint32Array = lo;
  let kHi: Uint32Array | null = hi;
  let tLo: Uint32Array = new Uint32Array(n);
  let tHi: Uint32Array | null = hi ? new Uint32Array(n) : null;
  const count = new Uint32Array(BUCKETS);
  // Passes: the low word's two digits, then the high word's.
  const bits = (k: Uint32Array | null) => {
    let any = 0;
    if (k) for (let j = 0; j < n; j++) any |= k[j]!;
    return 32 - Math.clz32(any);
  };
  const passes: [word: 'lo' | 'hi', shift: number][] = [];
  for (let shift = 0, top = bits(lo); shift < top; shift += DIGIT) passes.push(['lo', shift]);
  for (let shift = 0, top = bits(hi); shift < top; shift += DIGIT) passes.push(['hi', shift]);
  if (!passes.some(([w]) => w === 'hi')) kHi = tHi = null; // no high bits: nothing to carry
  for (const [word, shift] of passes) {
    const key = word === 'lo' ? kLo : kHi!;
    count.fill(0);
    for (let j = 0; j < n; j++) count[(key[j]! >>> shift) & MASK]!++;
    // Every key has the same digit here: this pass would not move anything.
    if (n === 0 || count[(key[0]! >>> shift) & MASK] === n) continue;
    let sum = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const c = count[b]!;
      count[b] = sum;
      sum += c;
    }
    for (let j = 0; j < n; j++) {
      const at = count[(key[j]! >>> shift) & MASK]!++;
      r2[at] = r[j]!;
      tLo[at] = kLo[j]!;
      if (kHi) tHi![at] = kHi[j]!;
    }
    [r, r2] = [r2, r];
    [kLo, tLo] = [tLo, kLo];
    if (kHi) [kHi, tHi] = [tHi!, kHi];
  }
  return r;
}

/** 1: keys never decrease; -1: keys never increase (and some differ); 0: neither. */
function direction(lo: Uint32Array, hi: Uint32Array | null): 1 | -1 | 0 {
  let up = true;
  let down = true;
  for (let j = 1; j < lo.length && (up || down); j++) {
    const h = hi ? hi[j]! - hi[j - 1]! : 0;
    const d = h !== 0 ? h : lo[j]! - lo[j - 1]!;
    if (d < 0) up = false;
    else if (d > 0) down = false;
  }
  return up ? 1 : down ? -1 : 0;
}

/** Non-increasing keys, sorted stably ascending: the runs of equal keys in reverse order, each kept as it was. */
function reverseRuns(rows: Uint32Array, lo: Uint32Array, hi: Uint32Array | null): Uint32Array {
  const n = rows.length;
  const out = new Uint32Array(n);
  let end = n;
  let at = 0;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && lo[start - 1] === lo[end - 1] && (!hi || hi[start - 1] === hi[end - 1])) start--;
    for (let j = start; j < end; j++) out[at++] = rows[j]!;
    end = start;
  }
  return out;
}
