// Which source of the log each record came from, by name (a package folder or URL, a file, a
// store, this server's log): the loaders' callers say where each source starts
// (LogSink.beginSource), and records are numbered in reading order, so a record's `order` places
// it. A seq space is not a source: loose files given together share one (a share bundle's three
// files are one log), and two packages both name their receipts `receipts.ndjson`, so a receipt
// is addressed by source, file and line (issue 20). Names are for people and for the page's links
// within the open log; the report's JSON does not carry them (the command line and the page name
// the same input differently).

export class SourceNames {
  /** Where each source starts (the order of its first record) and its name, in reading order. */
  private readonly starts: { from: number; name: string }[] = [];

  /** Records from `fromOrder` on (until the next call) come from `name`. */
  begin(name: string, fromOrder: number): void {
    const last = this.starts[this.starts.length - 1];
    if (last && last.from === fromOrder)
      last.name = name; // a source that read no record
    else this.starts.push({ from: fromOrder, name });
  }

  /** The source of the record numbered `order` (receipts read out of one record share its order's range), if named. */
  at(order: number): string | undefined {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    let found: string | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid]!.from <= order) {
        found = s[mid]!.name;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** How many sources were named. */
  get count(): number {
    return this.starts.length;
  }
}
