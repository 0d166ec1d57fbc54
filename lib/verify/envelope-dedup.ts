// One receipt reached twice is one record (contract part 2 §2): a transcript
// repeats a tool result (Claude's `tool_use_result`, a resumed session), a
// transcript is loaded beside the package or store that holds the receipt.
// Copies read out of envelopes merge, by receipt id, into the first copy with
// identical canonical bytes (a copy that came without an envelope first, so a
// package receipt keeps its seq and inclusion); the envelope's checks merge
// with it. Two different bodies under one id raise `envelope_invalid`, and
// both stay, each verified on its own. Copies that came without an envelope
// never merge: a receipt repeated in a plain log is a replay (inclusion.ts).
// A problem the copies of one receipt raise in the same words (its signature,
// identical envelopes) is said once: ten thousand copies of a bad tool result
// are one record with one problem of each kind.
//
// This needs the whole log (the page's Web Workers each see a part of it), so
// LogAssembler runs it once every record is in, in log order: the outcome does
// not depend on which worker finished first. "Identical canonical bytes" is
// the kernel-lane leaf hash, RFC 8785 of the typed receipt (contract §3).
import { toHex } from '../bytes/hex';
import { combineResults } from './envelope-checks';
import { type ReceiptEntry, kernelLeaf } from './entries';
import { type Problem, makeProblem } from '../verdict/problems';

export interface EnvelopeMerge {
  /** Copies merged into another entry: they leave the log. */
  dropped: ReadonlySet<ReceiptEntry>;
  /** `envelope_invalid` for each body that differs from the first under its id. */
  problems: Problem[];
  /** Removes from `problems` (in place) the repeats, in the same words, of a problem a receipt's copies raised. */
  dropRepeats(problems: Problem[]): void;
}

const at = (id: string, file: string, line: number | undefined) => `${id}\u0000${file}\u0000${line}`;

/** Merges envelope copies of `receipts` (in log order) into the entries that stay; `receipts` itself is not changed. */
export function mergeEnvelopeCopies(receipts: ReceiptEntry[]): EnvelopeMerge {
  const ids = new Set<string>();
  for (const r of receipts) if (r.envelope) ids.add(r.id);
  const none: EnvelopeMerge = { dropped: new Set(), problems: [], dropRepeats: () => {} };
  if (ids.size === 0) return none;
  const groups = new Map<string, ReceiptEntry[]>();
  for (const r of receipts) {
    if (!ids.has(r.id)) continue;
    const g = groups.get(r.id);
    if (g) g.push(r);
    else groups.set(r.id, [r]);
  }
  /** Each merged copy, and the entry it joined. */
  const dropped = new Map<ReceiptEntry, ReceiptEntry>();
  const problems: Problem[] = [];
  for (const copies of groups.values()) {
    if (copies.length < 2) continue;
    const leaf = new Map(copies.map((c) => [c, toHex(kernelLeaf(c))]));
    const firstPlain = new Map<string, ReceiptEntry>();
    const first = new Map<string, ReceiptEntry>();
    for (const c of copies) {
      const l = leaf.get(c)!;
      if (!c.envelope && !firstPlain.has(l)) firstPlain.set(l, c);
      if (!first.has(l)) first.set(l, c);
    }
    for (const c of copies) {
      if (!c.envelope) continue;
      const l = leaf.get(c)!;
      const into = firstPlain.get(l) ?? first.get(l)!;
      if (into === c) continue;
      mergeInto(into, c);
      dropped.set(c, into);
    }
    const stay = copies.filter((c) => !dropped.has(c));
    const head = stay[0]!;
    for (const c of stay.slice(1)) {
      if (leaf.get(c) === leaf.get(head)) continue;
      const msg = `${c.id}: this receipt id also names a different body at ${head.file}:${head.line}; a receipt id names one signed body, so at least one of them is not the receipt it claims to be`;
      problems.push(makeProblem('envelope_invalid', msg, { receipt_id: c.id, file: c.file, line: c.line }));
    }
  }
  if (dropped.size === 0) return { ...none, problems };
  return { dropped: new Set(dropped.keys()), problems, dropRepeats: (list) => dropRepeats(list, dropped, groups) };
}

/**
 * Of the problems that a receipt's copies raised in the same words (same code and message), one
 * stays: the entry's own, else the first merged copy's in log order. Problems are known by where
 * they are (receipt id, file, line); a place that also holds an entry that stays (two copies in
 * one record) keeps all its problems.
 */
function dropRepeats(list: Problem[], dropped: Map<ReceiptEntry, ReceiptEntry>, groups: Map<string, ReceiptEntry[]>): void {
  const keptAt = new Set<string>();
  for (const g of groups.values()) for (const c of g) if (!dropped.has(c)) keptAt.add(at(c.id, c.file, c.line));
  /** Each place of a merged copy: the entry it joined, and its rank (log order; the entry itself ranks first). */
  const places = new Map<string, { into: string; rank: number }>();
  for (const [copy, into] of dropped) {
    const where = at(copy.id, copy.file, copy.line);
    if (keptAt.has(where)) continue;
    const intoAt = at(into.id, into.file, into.line);
    places.set(where, { into: intoAt, rank: copy.order });
    places.set(intoAt, { into: intoAt, rank: -1 });
  }
  const placeOf = (p: Problem) => (p.receipt_id !== undefined && p.file !== undefined ? places.get(at(p.receipt_id, p.file, p.line)) : undefined);
  const said = (into: string, p: Problem) => `${into}\u0000${p.code}\u0000${p.message}`;
  const first = new Map<string, number>();
  for (const p of list) {
    const place = placeOf(p);
    if (!place) continue;
    const key = said(place.into, p);
    const seen = first.get(key);
    if (seen === undefined || place.rank < seen) first.set(key, place.rank);
  }
  let kept = 0;
  for (const p of list) {
    const place = placeOf(p);
    if (!place || first.get(said(place.into, p)) === place.rank) list[kept++] = p;
  }
  list.length = kept;
}
/** The copy's envelope checks join the entry's (a failure wins, then a pass); the entry keeps its own claims if it has some. */
function mergeInto(into: ReceiptEntry, copy: ReceiptEntry): void {
  const content = combineResults(into.checks.content_hash, copy.checks.content_hash);
  if (content) into.checks.content_hash = content;
  const delivery = combineResults(into.checks.delivery, copy.checks.delivery);
  if (delivery) into.checks.delivery = delivery;
  into.envelope ??= copy.envelope;
}
