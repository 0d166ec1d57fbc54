// Measures the whole-log pass that finds receipt ids named by more than one receipt
// (lib/verify/duplicate-ids.ts) at a million receipts: its time and the memory it holds at its
// peak, against a Map of every id (the obvious way). Prints numbers; asserts nothing.
//
//   node --expose-gc --import tsx scripts/bench-duplicate-ids.ts [--receipts 1000000] [--repeated 1000]
import { duplicateIdProblems, repeatedIds } from '../lib/verify/duplicate-ids';
import type { ReceiptEntry } from '../lib/verify/entries';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('--receipts', 1_000_000);
const repeated = arg('--repeated', 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.log('(run with node --expose-gc for the memory figures)');

// Ids as Gen B receipts have them (64 hex digits); `repeated` of them appear twice, the second copy differing.
const leaf = new Uint8Array(64);
const receipts: ReceiptEntry[] = [];
for (let k = 0; k < n; k++) {
  const id = (k < n - repeated ? k : k - (n - repeated)).toString(16).padStart(64, '0');
  const hashes = k >= n - repeated ? new Uint8Array(64).fill(1) : leaf;
  receipts.push({
    id,
    type: 'tool',
    file: 'receipts.ndjson',
    line: k + 1,
    order: k * 1_000_000,
    space: 's',
    timestamp: 0n,
    kernelKey: 'k',
    checks: {},
    leafHashes: hashes,
  });
}

// Ids read from JSON are flat strings; these were built by concatenation: flatten them once, unmeasured.
let warm = 0;
for (const r of receipts) warm += r.id.charCodeAt(63);

/** Time of `run`, and the heap it still holds (its result) after a collection. */
function measure(label: string, run: () => unknown): void {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const kept = run();
  const ms = performance.now() - t0;
  gc?.();
  const held = process.memoryUsage().heapUsed - before;
  console.log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms   heap its result holds: ${(held / 2 ** 20).toFixed(1).padStart(6)} MiB`);
  void kept;
}

console.log(`${n.toLocaleString('en-US')} receipts, ${repeated} ids named twice (warm ${warm > 0})`);
console.log(`repeatedIds also holds two Uint32Arrays, ${((8 * n) / 2 ** 20).toFixed(1)} MiB, while it runs (outside the JS heap)`);
measure('repeatedIds (hash sort)', () => repeatedIds(receipts));
measure('duplicateIdProblems', () => duplicateIdProblems(receipts, () => undefined));
measure('a Map of every id (for comparison)', () => {
  const m = new Map<string, ReceiptEntry>();
  for (const r of receipts) m.set(r.id, r);
  return m;
});
