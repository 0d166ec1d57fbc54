// `duplicate_receipt_id` (this project's addition to the contract's §7, issue 20): a receipt id
// names one receipt. Once the copies of a receipt reached in envelopes are merged
// (envelope-dedup.ts: identical canonical bytes are one record), an id still held by more than one
// receipt of the log, in two sources or twice in one, is a problem at every copy, naming each
// copy's source, file, line and signer. An error when the copies differ (their kernel leaf hash,
// the full canonical receipt, differs: say a forged copy re-signed by another key, which would
// otherwise be reachable only as the genuine one), a warning when they are byte-identical (the same
// receipt loaded twice). Verdicts stay each copy's own: a replay within one source already fails
// its inclusion (inclusion.ts), and a copy signed by an unpinned key fails `signer_trusted`.
//
// Attacker-controlled sizes: a log can hold one id a million times, or a million ids twice. At
// most MAX_PER_ID problems per id (then one that counts the rest) and MAX_PROBLEMS in all (then one
// that counts the ids left), each message naming at most MAX_NAMED copies. Finding the repeats
// keeps no map of every id (tens of MB at a million receipts): ids are hashed into a
// Uint32Array (with a sorted copy: 8 bytes a receipt while it runs), and only ids whose hash
// repeats are compared as strings.
import { bytesEqual } from '../bytes/hex';
import { type ReceiptEntry, kernelLeaf } from './entries';
import { type Problem, makeProblem } from '../verdict/problems';

const MAX_PER_ID = 100;
const MAX_PROBLEMS = 10_000;
const MAX_NAMED = 4;

/** FNV-1a over the UTF-16 code units: 32 bits, enough to find candidates (strings decide). */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The receipts whose id another receipt also has, grouped by id, each group in log order. */
export function repeatedIds(receipts: readonly ReceiptEntry[]): ReceiptEntry[][] {
  const n = receipts.length;
  if (n < 2) return [];
  const hashes = new Uint32Array(n);
  for (let i = 0; i < n; i++) hashes[i] = hashId(receipts[i]!.id);
  const sorted = hashes.slice().sort();
  const repeated = new Set<number>();
  for (let i = 1; i < n; i++) if (sorted[i] === sorted[i - 1]) repeated.add(sorted[i]!);
  if (repeated.size === 0) return [];
  const byId = new Map<string, ReceiptEntry[]>();
  for (let i = 0; i < n; i++) {
    if (!repeated.has(hashes[i]!)) continue;
    const r = receipts[i]!;
    const g = byId.get(r.id);
    if (g) g.push(r);
    else byId.set(r.id, [r]);
  }
  return [...byId.values()].filter((g) => g.length > 1).map((g) => g.sort((a, b) => a.order - b.order));
}

/** `sourceOf`: the name of the source a receipt came from (by its order), when the caller named sources. */
export function duplicateIdProblems(receipts: readonly ReceiptEntry[], sourceOf: (order: number) => string | undefined): Problem[] {
  const problems: Problem[] = [];
  let idsLeft = 0;
  let copiesLeft = 0;
  let leftDiffer = false;
  for (const copies of repeatedIds(receipts)) {
    const first = kernelLeaf(copies[0]!);
    const differ = copies.some((c) => !bytesEqual(kernelLeaf(c), first));
    if (problems.length >= MAX_PROBLEMS) {
      idsLeft++;
      copiesLeft += copies.length;
      leftDiffer ||= differ;
      continue;
    }
    const id = copies[0]!.id;
    const sources = new Set(copies.map((c) => sourceOf(c.order) ?? c.space));
    const spread = sources.size > 1 ? `in ${sources.size} sources` : 'in one source';
    // Sources are named only when the copies span several: one source's name adds nothing, and
    // the command line and the page name the same input differently (their reports must agree).
    const where = (c: ReceiptEntry) => {
      const source = sources.size > 1 ? sourceOf(c.order) : undefined;
      const at = `${c.file}:${c.line}`;
      const place = source !== undefined && source !== c.file ? `${at} in ${source}` : at;
      return differ ? `${place} (signed by ${c.kernelKey === null ? 'no valid key' : shortKey(c.kernelKey)})` : place;
    };
    const what = differ ? `they differ, so at most one of them is the receipt this id names` : `they are byte-identical copies of one receipt`;
    const shown = Math.min(copies.length, MAX_PER_ID);
    for (let k = 0; k < shown; k++) {
      const c = copies[k]!;
      const others = copies.filter((o) => o !== c);
      const named = others.slice(0, MAX_NAMED).map(where).join('; ');
      const more = others.length > MAX_NAMED ? `; and ${others.length - MAX_NAMED} more` : '';
      const message = `receipt id ${id} names ${copies.length} receipts ${spread}: this one at ${where(c)}, also ${named}${more}; ${what}`;
      problems.push(makeProblem('duplicate_receipt_id', message, { receipt_id: id, file: c.file, line: c.line }, !differ));
    }
    if (copies.length > shown) {
      const message = `receipt id ${id}: and ${copies.length - shown} more copies (${where(copies[shown]!)} … ${where(copies[copies.length - 1]!)}) beyond the ${shown} named one by one; ${what}`;
      problems.push(makeProblem('duplicate_receipt_id', message, { receipt_id: id }, !differ));
    }
  }
  if (idsLeft > 0) {
    problems.push(
      makeProblem(
        'duplicate_receipt_id',
        `and ${idsLeft} more receipt ids name more than one receipt (${copiesLeft} receipts), not listed one by one`,
        {},
        !leftDiffer,
      ),
    );
  }
  return problems;
}

/** A key as people compare them: its first 16 hex digits. */
function shortKey(key: string): string {
  return key.length > 20 ? `${key.slice(0, 16)}…` : key;
}
