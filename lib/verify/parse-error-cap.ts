// A cap on `parse_error` problems per file (contract §7; issue 7 "big and
// broken input"). A damaged or hostile file can hold millions of unreadable
// lines; the report keeps the first MAX_PARSE_ERRORS_PER_FILE of each file (by
// line, so the result does not depend on which worker answered first) and one
// summary `parse_error` for the rest, counted exactly: "… and N more lines in
// <file> could not be parsed (first at line X, last at line Y)". Memory is
// bounded by the cap, whatever the file holds. Problems with no file or no line
// are not capped.
import { type Problem, makeProblem } from './problems';

export const MAX_PARSE_ERRORS_PER_FILE = 100;

interface FileErrors {
  /** The kept problems, sorted by line (at most the cap). */
  kept: Problem[];
  more: number;
  firstMore: number;
  lastMore: number;
}

export class ParseErrorCap {
  private readonly files = new Map<string, FileErrors>();

  constructor(private readonly max = MAX_PARSE_ERRORS_PER_FILE) {}

  /** Takes `p` when it is a located parse_error (true), else leaves it to the caller (false). */
  take(p: Problem): boolean {
    if (p.code !== 'parse_error' || p.file === undefined || p.line === undefined) return false;
    let f = this.files.get(p.file);
    if (!f) this.files.set(p.file, (f = { kept: [], more: 0, firstMore: Infinity, lastMore: 0 }));
    const line = p.line;
    const { kept } = f;
    if (kept.length === this.max && line >= kept[kept.length - 1]!.line!) {
      this.countMore(f, line);
      return true;
    }
    // Lines arrive mostly in order: search from the end.
    let i = kept.length;
    while (i > 0 && kept[i - 1]!.line! > line) i--;
    kept.splice(i, 0, p);
    if (kept.length > this.max) this.countMore(f, kept.pop()!.line!);
    return true;
  }

  /** The kept problems and, per file over the cap, its summary. */
  problems(): Problem[] {
    const out: Problem[] = [];
    for (const [file, f] of this.files) {
      out.push(...f.kept);
      if (f.more === 0) continue;
      const lines = f.more === 1 ? 'line' : 'lines';
      const message = `… and ${f.more} more ${lines} in ${file} could not be parsed (first at line ${f.firstMore}, last at line ${f.lastMore}); only the first ${this.max} are listed`;
      out.push(makeProblem('parse_error', message, { file, line: f.firstMore }));
    }
    return out;
  }

  private countMore(f: FileErrors, line: number): void {
    f.more++;
    f.firstMore = Math.min(f.firstMore, line);
    f.lastMore = Math.max(f.lastMore, line);
  }
}
