// One receipt reached twice is one record (contract part 2 §2): a transcript
// repeats a tool result (Claude's `tool_use_result`, a resumed session), a
// transcript is loaded beside the package or store that holds the receipt.
// Copies read out of envelopes merge, by receipt id, into the first copy with
// identical canonical bytes (a copy that came without an envelope first, so a
// package receipt keeps its seq and inclusion); the envelope's checks merge
// with it. Two different bodies under one id raise `envelope_invalid`, and
// both stay, each verified on its own. Copies that came without an envelope
// never merge: a receipt repeated in a plain log is a replay (inclusion.ts).
//
// This needs the whole log (the page's Web Workers each see a part of it), so
// LogAssembler runs it once every record is in, in log order: the outcome does
// not depend on which worker finished first. "Identical canonical bytes" is
// the kernel-lane leaf hash, RFC 8785 of the typed receipt (contract §3).
import { toHex } from '../bytes/hex';
import { combineResults } from './envelope-checks';
import { type ReceiptEntry, kernelLeaf } from './entries';
import { type Problem, type ProblemCode, makeProblem } from './problems';

/** Problems a receipt's signed bytes (and the trust store) decide: an identical copy raises each again. */
const OWN_BYTES_CODES: ReadonlySet<ProblemCode> = new Set<ProblemCode>([
  'signature_invalid', 'algorithm_mismatch', 'legacy_canonicalization', 'receipt_id_mismatch', 'semantics_invalid', 'parameter_hash_mismatch', 'untrusted_signer',
]);

export interface EnvelopeMerge {
  /** Copies merged into another entry: they leave the log. */
  dropped: ReadonlySet<ReceiptEntry>;
  /** `envelope_invalid` for each body that differs from the first under its id. */
  problems: Problem[];
  /** A problem a merged copy raised about its own bytes, which the entry kept raised too. */
  isRepeat(p: Problem): boolean;
}

const at = (id: string, file: string, line: number | undefined) => `${id}\u0000${file}\u0000${line}`;

/** Merges envelope copies of `receipts` (in log order) into the entries that stay; `receipts` itself is not changed. */
export function mergeEnvelopeCopies(receipts: ReceiptEntry[]): EnvelopeMerge {
  const ids = new Set<string>();
  for (const r of receipts) if (r.envelope) ids.add(r.id);
  const none: EnvelopeMerge = { dropped: new Set(), problems: [], isRepeat: () => false };
  if (ids.size === 0) return none;
  const groups = new Map<string, ReceiptEntry[]>();
  for (const r of receipts) {
    if (!ids.has(r.id)) continue;
    const g = groups.get(r.id);
    if (g) g.push(r);
    else groups.set(r.id, [r]);
  }
  const dropped = new Set<ReceiptEntry>();
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
      dropped.add(c);
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
  const droppedAt = new Set<string>();
  for (const c of dropped) droppedAt.add(at(c.id, c.file, c.line));
  const keptAt = new Set<string>();
  for (const g of groups.values()) for (const c of g) if (!dropped.has(c)) keptAt.add(at(c.id, c.file, c.line));
  return {
    dropped,
    problems,
    isRepeat: (p) => {
      if (p.receipt_id === undefined || p.file === undefined || !OWN_BYTES_CODES.has(p.code)) return false;
      const where = at(p.receipt_id, p.file, p.line);
      return droppedAt.has(where) && !keptAt.has(where);
    },
  };
}

/** The copy's envelope checks join the entry's (a failure wins, then a pass); the entry keeps its own claims if it has some. */
function mergeInto(into: ReceiptEntry, copy: ReceiptEntry): void {
  const content = combineResults(into.checks.content_hash, copy.checks.content_hash);
  if (content) into.checks.content_hash = content;
  const delivery = combineResults(into.checks.delivery, copy.checks.delivery);
  if (delivery) into.checks.delivery = delivery;
  into.envelope ??= copy.envelope;
}
