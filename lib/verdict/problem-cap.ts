// A cap on the problems of one code in one file (contract §7; issue 20, hostile shapes). A hostile
// file can hold millions of records that each raise a problem naming no receipt: proofs that
// point at no receipt (`missing_receipt`), transparency records that match no checkpoint,
// checkpoints that break continuity, lines that do not parse. The report keeps the first
// MAX_PROBLEMS_PER_CODE_AND_FILE of each (code, file), by line (so the result does not depend on
// which worker answered first), and one summary problem of the same code for the rest, counted
// exactly: "… and N more <code> problems in <file> (first at line X, last at line Y)". Memory is
// bounded by the cap, whatever the file holds.
//
// Not capped: problems that name a receipt (their number is bounded by the receipts the log holds,
// and the explorer marks each receipt's row from them), and problems with no file or no line.
// `parse_error` is capped whatever it names (a line that did not parse is no receipt of the log),
// with the summary wording it has always had ("… and N more lines in <file> could not be parsed").
import { type Problem, type ProblemCode, makeProblem } from './problems';

export const MAX_PROBLEMS_PER_CODE_AND_FILE = 100;

interface Kept {
  code: ProblemCode;
  file: string;
  /** The kept problems, sorted by line (at most the cap). */
  kept: Problem[];
  more: number;
  firstMore: number;
  lastMore: number;
}

export class ProblemCap {
  private readonly groups = new Map<string, Kept>();

  constructor(
    private readonly max = MAX_PROBLEMS_PER_CODE_AND_FILE,
    /** Which problems this cap takes (by default, every located one that names no receipt, and every located parse error). */
    private readonly applies: (p: Problem) => boolean = (p) => p.code === 'parse_error' || p.receipt_id === undefined,
  ) {}

  /** Takes `p` when the cap applies to it (true), else leaves it to the caller (false). */
  take(p: Problem): boolean {
    if (p.file === undefined || p.line === undefined || !this.applies(p)) return false;
    const key = `${p.code}\u0000${p.file}`;
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { code: p.code, file: p.file, kept: [], more: 0, firstMore: Infinity, lastMore: 0 }));
    const line = p.line;
    const { kept } = g;
    if (kept.length === this.max && line >= kept[kept.length - 1]!.line!) {
      countMore(g, line);
      return true;
    }
    // Lines arrive mostly in order: search from the end.
    let i = kept.length;
    while (i > 0 && kept[i - 1]!.line! > line) i--;
    kept.splice(i, 0, p);
    if (kept.length > this.max) countMore(g, kept.pop()!.line!);
    return true;
  }

  /** Takes each of `list` the cap applies to and returns the others. */
  filter(list: readonly Problem[]): Problem[] {
    const rest: Problem[] = [];
    for (const p of list) if (!this.take(p)) rest.push(p);
    return rest;
  }

  /** The kept problems and, per (code, file) over the cap, its summary. */
  problems(): Problem[] {
    const out: Problem[] = [];
    for (const g of this.groups.values()) {
      out.push(...g.kept);
      if (g.more === 0) continue;
      out.push(makeProblem(g.code, summary(g, this.max), { file: g.file, line: g.firstMore }));
    }
    return out;
  }
}

function countMore(g: Kept, line: number): void {
  g.more++;
  g.firstMore = Math.min(g.firstMore, line);
  g.lastMore = Math.max(g.lastMore, line);
}

function summary(g: Kept, max: number): string {
  const where = `(first at line ${g.firstMore}, last at line ${g.lastMore}); only the first ${max} are listed`;
  if (g.code === 'parse_error') return `… and ${g.more} more ${g.more === 1 ? 'line' : 'lines'} in ${g.file} could not be parsed ${where}`;
  return `… and ${g.more} more ${g.code} ${g.more === 1 ? 'problem' : 'problems'} in ${g.file} ${where}`;
}
